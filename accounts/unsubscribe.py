"""One-click unsubscribe (RFC 8058): signed per-person, per-kind links, and the settings link.

A link carries the user id and the email kind, signed with SECRET_KEY under its own
salt, so it can neither be forged nor turned into another kind of token (a login
link, say). It does not expire: an old email's link must still work, and all it can
ever do is switch one kind of email off for the person it was sent to.
"""

from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.urls import reverse

from .models import User
from .schedule import UNSUBSCRIBABLE_KINDS, EmailKind

SALT = "accounts.unsubscribe"


class UnsubscribeLinkInvalid(Exception):
    """Not a link we made (tampered, truncated), or for a person or kind that is gone."""


@dataclass(frozen=True)
class UnsubscribeClaim:
    user: User
    kind: EmailKind


def unsubscribe_token(user: User, kind: str) -> str:
    """The signed token for ``user`` and ``kind``; ``ValueError`` for a transactional kind."""
    if kind not in UNSUBSCRIBABLE_KINDS:
        raise ValueError(f"{kind!r} emails cannot be unsubscribed from.")
    return signing.dumps([user.pk, str(kind)], salt=SALT, compress=True)


def unsubscribe_url(user: User, kind: str) -> str:
    """The absolute one-click link (``List-Unsubscribe``) that switches ``kind`` off for ``user``.

    GET shows a confirmation page; POST (what RFC 8058 mail clients send, without
    cookies or CSRF token) switches it off.
    """
    path = reverse("unsubscribe", kwargs={"token": unsubscribe_token(user, kind)})
    return settings.SITE_URL.rstrip("/") + path


def read_unsubscribe_token(token: str) -> UnsubscribeClaim:
    """Who and what an authentic token is for; ``UnsubscribeLinkInvalid`` otherwise."""
    try:
        user_id, kind = signing.loads(token, salt=SALT)
        kind = EmailKind(kind)
    except (signing.BadSignature, ValueError, TypeError):
        raise UnsubscribeLinkInvalid from None
    if kind not in UNSUBSCRIBABLE_KINDS:
        raise UnsubscribeLinkInvalid
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        raise UnsubscribeLinkInvalid
    return UnsubscribeClaim(user=user, kind=kind)


def settings_url() -> str:
    """The absolute address of the settings page (``/settings/``), for the footer of every
    email: a player who never uses the API changes their emails, time zone and vacations
    there (after signing in; the login link then brings them back to it)."""
    return settings.SITE_URL.rstrip("/") + reverse("settings-page")
