"""The audit log leaves for its own app, ``audit``: its table is renamed, its rows kept.

State: moderation forgets ``AuditEntry``; ``audit.0001_initial`` declares it, creating
nothing. Database: the table ``moderation_auditentry`` becomes ``audit_auditentry``, the
name Django gives the audit app's model; rows, ids, indexes and the constraint stay.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_audit_log_and_reports"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.AlterModelTable(name="AuditEntry", table="audit_auditentry"),
            ],
            state_operations=[
                migrations.DeleteModel(name="AuditEntry"),
            ],
        ),
    ]
