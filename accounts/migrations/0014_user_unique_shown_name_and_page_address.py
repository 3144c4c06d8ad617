"""Issue 32: the rules 0013 settled, held by the database: one page address per person,
one shown name per living person (in its own migration: PostgreSQL alters a table after
its rows changed in a transaction of their own)."""

from django.db import migrations, models

import accounts.models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0013_user_shown_names_and_page_address"),
    ]

    operations = [
        migrations.AlterField(
            model_name="user",
            name="public_id",
            field=models.CharField(
                default=accounts.models.new_public_id, editable=False, max_length=16, unique=True
            ),
        ),
        migrations.AddConstraint(
            model_name="user",
            constraint=models.UniqueConstraint(
                condition=models.Q(("erased_at__isnull", True)),
                fields=("public_name_key",),
                name="user_public_name_key_unique_living",
            ),
        ),
    ]
