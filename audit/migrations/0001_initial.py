"""The audit log, moved here from ``moderation`` (``moderation.0002`` renamed its table).

Declares ``AuditEntry`` in this app's state without touching the database, then hands
the model's content type over, so the admin's history and any permission given on the
audit log keep pointing at it.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def _hand_over_content_type(source: str, target: str):
    def hand_over(apps, schema_editor):
        content_types = apps.get_model("contenttypes", "ContentType").objects.using(
            schema_editor.connection.alias
        )
        if not content_types.filter(app_label=target, model="auditentry").exists():
            content_types.filter(app_label=source, model="auditentry").update(app_label=target)

    return hand_over


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("moderation", "0002_auditentry_moves_to_audit"),
        ("games", "0003_turn_clock_reminders_standing_order"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="AuditEntry",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "at",
                            models.DateTimeField(
                                db_index=True, default=django.utils.timezone.now
                            ),
                        ),
                        ("action", models.CharField(max_length=40)),
                        ("reason", models.TextField()),
                        (
                            "extra",
                            models.JSONField(
                                blank=True,
                                default=dict,
                                help_text="Details of the action, e.g. hours, version seen.",
                            ),
                        ),
                        (
                            "game",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="audit_entries",
                                to="games.game",
                            ),
                        ),
                        (
                            "moderator",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="audit_entries_made",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "target_user",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="audit_entries_about",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "verbose_name_plural": "audit entries",
                        "ordering": ["-at", "-id"],
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(("reason", ""), _negated=True),
                                name="audit_reason_given",
                            )
                        ],
                    },
                ),
            ],
        ),
        migrations.RunPython(
            _hand_over_content_type("moderation", "audit"),
            _hand_over_content_type("audit", "moderation"),
        ),
    ]
