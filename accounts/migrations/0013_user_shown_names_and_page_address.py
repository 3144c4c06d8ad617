"""Issue 32: every living person is shown by a name nobody else shows, and has a player
page address that never changes (``User.public_id``).

The data step gives each person their page address and settles the names already shown,
in the order people joined: whoever joined first keeps a name; a later person's name
derived from their address is numbered ("anna 2"), and a later person's chosen name that
reads like an earlier person's shown name (an impostor's, or an operator's twin) is
cleared, so they are shown by their derived name until they choose another.
"""

import secrets
import unicodedata

from django.db import migrations, models

# The reserved "former player" in the site's languages (display_names.reserved_keys as
# of this migration).
RESERVED = {"former player", "ehemaliger spieler"}
ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"


def _name_key(name):
    # accounts.display_names.name_key as of this migration (a copy: migrations stay fixed).
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.split())


def _derived(base, taken):
    number = 1
    while True:
        candidate = base if number == 1 else f"{base} {number}"
        if _name_key(candidate) not in taken:
            return candidate
        number += 1


def settle_names_and_addresses(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    used_ids = set()
    taken = set(RESERVED)
    for user in User.objects.order_by("date_joined", "pk").iterator():
        public_id = "".join(secrets.choice(ALPHABET) for _ in range(10))
        while public_id in used_ids:
            public_id = "".join(secrets.choice(ALPHABET) for _ in range(10))
        used_ids.add(public_id)
        fields = {"public_id": public_id}
        if user.erased_at is None:
            name = user.display_name
            if name and _name_key(name) in taken:
                name = ""
            derived = "" if name else _derived(user.email.split("@", 1)[0], taken)
            key = _name_key(name or derived)
            taken.add(key)
            fields.update(display_name=name, derived_name=derived, public_name_key=key)
        else:
            fields.update(derived_name="", public_name_key=_name_key(user.display_name))
        User.objects.filter(pk=user.pk).update(**fields)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0012_notification_settings_channels"),
    ]

    operations = [
        migrations.RenameField(
            model_name="user",
            old_name="display_name_key",
            new_name="public_name_key",
        ),
        migrations.AddField(
            model_name="user",
            name="derived_name",
            field=models.CharField(blank=True, editable=False, max_length=300),
        ),
        migrations.AddField(
            model_name="user",
            name="public_id",
            field=models.CharField(editable=False, max_length=16, null=True),
        ),
        migrations.RunPython(settle_names_and_addresses, migrations.RunPython.noop),
    ]
