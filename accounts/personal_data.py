"""Everything the service holds about a person, as JSON files in one zip (issue 26).

``export_zip(user)`` answers ``GET /api/me/export/`` and the settings page's download.
Accounts sits below games, talk, moderation and webhooks (docs/architecture.md "The
floors"), so it writes only what its own floor and those below it hold: ``account.json``
(the person and their API keys' names, never a key or its hash), ``settings.json``
(notification settings and vacations) and ``emails.json`` (the emails to their address,
each as it is or will be stored once done: every live link redacted). Every app above
adds its own files by answering the signal ``export_asked``, connected in its
``AppConfig.ready`` (docs/decisions/0006-signals-between-apps.md): games
``games.json`` (their games and moves as the API shows them to their seat: never hidden
information), talk ``messages.json``, moderation ``reports.json`` (the reports they
filed), webhooks ``webhooks.json``, calendars ``calendar_feed.json``, ratings
``ratings.json``, push ``push_subscriptions.json``, people ``people.json``. Its
counterpart for deleting an account is ``accounts.erasure``.
"""

import io
import json
import zipfile
from collections.abc import Callable
from typing import cast

from django.core.serializers.json import DjangoJSONEncoder
from django.dispatch import Signal

from notifications.models import OutboundEmail

from .models import ApiToken, NotificationSettings, User, Vacation

# What accounts' own files are made by: exporter(user) -> the JSON-ready content of its file
# (lists, dicts, strings, datetimes).
Exporter = Callable[[User], object]

# Sent with ``user`` (sender: ``User``); each receiver (an app above accounts) answers a
# dict of the files it adds to ``user``'s export, {filename: JSON-ready content}, e.g.
# {"games.json": [...]}. A filename is one app's: accounts' own or another receiver's
# again is a programming error (``ValueError``). The order of the answers does not matter:
# the files are sorted by name.
export_asked = Signal()

FILENAME = "piratz-personal-data.zip"


def export_files(user: User) -> dict[str, object]:
    """Each file of ``user``'s export by name: the accounts app's own, then the apps'
    (``export_asked``'s answers) sorted by name."""
    files: dict[str, object] = {name: make(user) for name, make in _OWN_FILES.items()}
    theirs: dict[str, object] = {}
    for receiver, answer in export_asked.send(User, user=user):
        for name, content in cast(dict[str, object], answer).items():
            if name in files or name in theirs:
                raise ValueError(f"{receiver!r} answered {name}, which is another's file")
            theirs[name] = content
    for name in sorted(theirs):
        files[name] = theirs[name]
    return files


def export_zip(user: User) -> bytes:
    """``user``'s export: a zip of ``export_files``, each as indented UTF-8 JSON."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, content in export_files(user).items():
            text = json.dumps(content, cls=DjangoJSONEncoder, ensure_ascii=False, indent=2)
            archive.writestr(name, text + "\n")
    return buffer.getvalue()


def _account(user: User) -> dict:
    return {
        "id": user.pk,
        "email": user.email,
        "display_name": user.display_name,
        "public_name": str(user.public_name),
        "language": user.language,
        "date_joined": user.date_joined,
        "suspended_at": user.suspended_at,
        "suspended_until": user.suspended_until,
        # Names and prefixes only: the keys themselves were shown once and are not stored.
        "api_keys": [
            {
                "name": key.name,
                "prefix": key.prefix,
                "created_at": key.created_at,
                "last_used_at": key.last_used_at,
            }
            for key in ApiToken.objects.filter(user=user)
        ],
    }


def _settings(user: User) -> dict:
    saved = NotificationSettings.objects.filter(user=user).first()
    notifications = None
    if saved is not None:
        notifications = {
            field.name: getattr(saved, field.name)
            for field in NotificationSettings._meta.concrete_fields
            if field.name not in ("id", "user")
        }
    return {
        "notifications": notifications,  # null: never changed, the defaults apply
        "vacations": list(
            Vacation.objects.filter(user=user).values("starts_at", "ends_at", "created_at")
        ),
    }


def _emails(user: User) -> list[dict]:
    """The emails to ``user``'s address, oldest first, as a done email is stored: rendered
    and with every live credential redacted (``OutboundEmail.redact_credentials``, on the
    instance only: an email still waiting keeps its links in the row, to be sent)."""
    emails = []
    for email in OutboundEmail.objects.filter(to=user.email).order_by("created_at", "id"):
        email.redact_credentials()
        emails.append(
            {
                "id": email.pk,
                "template": email.template,
                "topic": email.topic,
                "status": email.status,
                "created_at": email.created_at,
                "sent_at": email.sent_at,
                "subject": email.subject,
                "body_text": email.body_text,
            }
        )
    return emails


_OWN_FILES: dict[str, Exporter] = {
    "account.json": _account,
    "settings.json": _settings,
    "emails.json": _emails,
}
