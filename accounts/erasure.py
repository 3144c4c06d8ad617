"""Deleting an account (issue 26): a confirmation by emailed link, then the erasure.

``request_erasure`` emails a signed, single-use link that expires after
``LINK_MINUTES`` (made and stored as login links are: only a hash of its nonce is kept,
and the outbox redacts the link once the email is done). The page it opens asks to
confirm; ``do_erase_account`` then erases, in one transaction:

1. each receiver of the signal ``erasing_account``, in the order connected: the apps
   above accounts (which it may not import: docs/architecture.md "The floors") connect
   theirs in their ``AppConfig.ready`` (docs/decisions/0006-signals-between-apps.md).
   Games hands the person's seats in running games to stand-in bots (or ends a game with
   no other person left, as P25/R36 would) and cancels their pending invitations;
   leagues withdraws them from their leagues; webhooks deletes the webhooks they own,
   push their subscriptions, calendars their feed. Talk keeps their messages: the game
   records stay for the other players, the author now shown as "former player".
2. the accounts app's own data: the address is replaced by a placeholder that no form
   accepts, the name by "former player" (``User.public_name`` shows it translated once
   ``erased_at`` is set); the password made unusable, the account inactive, every session
   and game link ended (``session_generation``); API keys, login links, notification
   settings, vacations and every email to the old address (waiting or done) deleted.

The ``User`` row itself stays, so that game seats, moves, messages, reports and audit
entries still point somewhere: an audit entry keeps the fact (what a moderator did, to
an account) but no longer the person's data. A later app that stores a person's data
connects a receiver here.
"""

import hashlib
import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from django.conf import settings
from django.core import signing
from django.db import transaction
from django.dispatch import Signal
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_noop

from notifications.models import OutboundEmail
from notifications.outbox import queue_email

from .languages import language_of
from .models import (
    ApiToken,
    ErasureLink,
    LoginLink,
    NotificationSettings,
    User,
    Vacation,
)

logger = logging.getLogger(__name__)

SALT = "accounts.erasure-link"
# How long a confirmation link works, and how many a person may ask for an hour.
LINK_MINUTES = 60
LINKS_PER_HOUR = 3
# What the page and the API answer to a request, whether or not an email went out (the
# hourly cap): it tells nothing more. Marked here, translated where it is shown.
ERASURE_ASKED = gettext_noop(
    "We have emailed you a link to confirm deleting your account. Nothing happens until "
    "you open it and confirm."
)
# The name an erased person's row keeps (data, in English; shown translated).
FORMER_PLAYER = "former player"

# Sent with ``user`` (locked) and ``now`` (sender: ``User``) inside the erasure's
# transaction, before accounts erases its own part; each receiver erases what its app holds
# of ``user`` in that transaction (no answer is read) and raises to refuse the erasure,
# which then rolls back whole. Receivers run in the order connected, that is the order of
# INSTALLED_APPS (each app connects in its ``ready()``): games' comes first, and leagues'
# relies on that (a leaving member's running games are handled by then).
erasing_account = Signal()


class LinkProblem(StrEnum):
    """Why a confirmation link cannot be used; the page explains each one."""

    INVALID = "invalid"  # not a link we made, or no longer on record
    EXPIRED = "expired"
    USED = "used"


class ErasureLinkError(Exception):
    """A confirmation link that cannot be used; nothing was changed."""

    def __init__(self, problem: LinkProblem):
        super().__init__(problem.value)
        self.problem = problem


@dataclass(frozen=True)
class ErasureClaim:
    """An authentic, unexpired, unused link: whose account, and its row's nonce hash."""

    user: User
    nonce_hash: str


def _hash(nonce: str) -> str:
    # Plain SHA-256 suffices: nonces are 128-bit random, not guessable passwords.
    return hashlib.sha256(nonce.encode()).hexdigest()


def request_erasure(user: User) -> bool:
    """Email ``user`` a link that confirms deleting their account; returns whether one
    was queued (not past ``LINKS_PER_HOUR``, not erased already). The row and the email
    are written in one transaction; the link exists only in the email."""
    with transaction.atomic():
        person = User.objects.select_for_update().get(pk=user.pk)
        now = timezone.now()
        if person.erased_at is not None or not person.is_active:
            return False
        recent = ErasureLink.objects.filter(
            user=person, created_at__gt=now - timedelta(hours=1)
        ).count()
        if recent >= LINKS_PER_HOUR:
            logger.info("Erasure link not sent to user %s: hourly cap reached", person.pk)
            return False
        nonce = secrets.token_urlsafe(16)
        ErasureLink.objects.create(user=person, nonce_hash=_hash(nonce), created_at=now)
        token = signing.dumps({"n": nonce, "u": person.pk}, salt=SALT, compress=True)
        link = settings.SITE_URL.rstrip("/") + reverse("accounts:erasure-link", args=[token])
        queue_email(
            person.email,
            "erasure_link",
            {"link": link, "minutes": LINK_MINUTES},
            topic="erasure",
            language=language_of(person),
        )
    logger.info("Erasure link sent to user %s", person.pk)
    return True


def read_erasure_link(token: str) -> ErasureClaim:
    """What ``token`` claims, if it may be used now; changes nothing (mail scanners GET
    links). Raises ``ErasureLinkError``: ``INVALID`` (not ours, or unknown), ``EXPIRED``
    after ``LINK_MINUTES``, ``USED`` once confirmed (or the account is erased already)."""
    try:
        payload = signing.loads(token, salt=SALT, max_age=LINK_MINUTES * 60)
    except signing.SignatureExpired:
        raise ErasureLinkError(LinkProblem.EXPIRED) from None
    except signing.BadSignature:
        raise ErasureLinkError(LinkProblem.INVALID) from None
    if not (
        isinstance(payload, dict)
        and isinstance(payload.get("n"), str)
        and isinstance(payload.get("u"), int)
    ):
        raise ErasureLinkError(LinkProblem.INVALID)
    nonce_hash = _hash(payload["n"])
    row = (
        ErasureLink.objects.select_related("user")
        .filter(nonce_hash=nonce_hash, user_id=payload["u"])
        .first()
    )
    if row is None:
        raise ErasureLinkError(LinkProblem.INVALID)
    if row.used_at is not None or row.user.erased_at is not None:
        raise ErasureLinkError(LinkProblem.USED)
    return ErasureClaim(user=row.user, nonce_hash=nonce_hash)


def do_erase_account(token: str) -> User:
    """Confirm with ``token`` and erase its account (see the module docstring); returns
    the erased user. Raises ``ErasureLinkError`` as ``read_erasure_link`` does, and then
    nothing has changed: the link is spent with the erasure, in one transaction."""
    claim = read_erasure_link(token)
    with transaction.atomic():
        # Guarded UPDATE: of two requests racing with one link, exactly one erases.
        claimed = ErasureLink.objects.filter(nonce_hash=claim.nonce_hash, used_at=None).update(
            used_at=timezone.now()
        )
        if claimed != 1:
            raise ErasureLinkError(LinkProblem.USED)
        return erase_user(claim.user.pk)


def erase_user(user_id: int, now: datetime | None = None) -> User:
    """Erase the account ``user_id`` (see the module docstring), whoever confirmed it;
    an account erased already is left as it is (idempotent). Atomic."""
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user_id)
        if user.erased_at is not None:
            return user
        now = now or timezone.now()
        erasing_account.send(User, user=user, now=now)
        _erase_own_data(user, now)
    # Only the id: the log is not the place for players' data.
    logger.info("User %s erased their account", user.pk)
    return user


def _erase_own_data(user: User, now: datetime) -> None:
    """The accounts app's part, after the apps' (whose emails to the old address, queued
    by this erasure, go too)."""
    address = user.email
    ApiToken.objects.filter(user=user).delete()
    LoginLink.objects.filter(email=address).delete()
    NotificationSettings.objects.filter(user=user).delete()
    Vacation.objects.filter(user=user).delete()
    ErasureLink.objects.filter(user=user, used_at=None).update(used_at=now)
    # Waiting ones never go out; done ones hold the address and the person's games.
    OutboundEmail.objects.filter(to=address).delete()
    user.groups.clear()
    user.user_permissions.clear()
    # No dot in the domain: no form accepts it, so nobody can invite or sign in as it.
    user.email = f"erased-{user.pk}@invalid"
    user.display_name = FORMER_PLAYER
    user.language = ""
    user.is_active = False
    user.is_staff = False
    user.is_superuser = False
    user.set_unusable_password()
    user.erased_at = now
    # Ends every session (the password hash changed too) and every signed game link; the
    # row is locked, so counting up on the instance is safe.
    user.session_generation += 1
    user.save()
