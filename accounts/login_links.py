"""Passwordless login: emailing signed, expiring, single-use login links and redeeming them."""

import hashlib
import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from django.conf import settings
from django.core import signing
from django.core.validators import validate_email
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import url_has_allowed_host_and_scheme

from core.redaction import mask_email
from notifications.outbox import queue_email

from .languages import language_of
from .models import LoginLink, User, normalize_email

logger = logging.getLogger(__name__)

SALT = "accounts.login-link"
# Longer than any page path of ours; keeps the signed token (and so the link) short.
MAX_NEXT_LENGTH = 200
# The per-address cap (LOGIN_LINKS_PER_ADDRESS_PER_HOUR) counts links over this window.
CAP_WINDOW = timedelta(hours=1)


class LinkProblem(StrEnum):
    """Why a login link cannot be used; the web page explains each one."""

    INVALID = "invalid"  # not a link we made (tampered, truncated) or no longer on record
    EXPIRED = "expired"
    USED = "used"
    INACTIVE = "inactive"  # the account was disabled by a moderator
    SUSPENDED = "suspended"  # a moderator suspended the player (User.is_suspended)


class LoginLinkError(Exception):
    """A login link that cannot be used; nothing was changed.

    ``next_url`` is where the link would have led (a safe path or ""), so a page
    offering a new link can keep it; it is only known for authentic links.
    """

    def __init__(self, problem: LinkProblem, next_url: str = ""):
        super().__init__(problem.value)
        self.problem = problem
        self.next_url = next_url


@dataclass(frozen=True)
class LoginLinkClaim:
    """What an authentic, unexpired, unused login link says."""

    email: str
    next_url: str
    nonce_hash: str


@dataclass(frozen=True)
class LoginLinkUse:
    """The result of redeeming a link: who logs in, and where they go next ("" for home)."""

    user: User
    next_url: str


def safe_next_url(url: str | None) -> str:
    """``url`` if it is a path on this site (``/games/7/``), else "".

    Anything that could leave the site (``https://evil.example``, ``//evil.example``,
    ``/\\evil.example``, ``javascript:``) or is not an absolute path gives "".
    """
    if not url or len(url) > MAX_NEXT_LENGTH or not url.startswith("/"):
        return ""
    if not url_has_allowed_host_and_scheme(url, allowed_hosts=set()):
        return ""
    return url


def request_login_link(email: str, next_url: str = "") -> bool:
    """Email a login link to ``email`` unless a limit says no; returns whether one was queued.

    The caller must answer the same whatever this returns, so the answer never tells
    whether an address has an account. No link goes out to a disabled account, nor
    beyond ``LOGIN_LINKS_PER_ADDRESS_PER_HOUR`` links per address in the last hour
    (the service must not be usable to flood a stranger's mailbox). An unsafe
    ``next_url`` is dropped (the link then leads home). The link's row and its email
    are written in one transaction; the email is sent after commit. Raises Django's
    ``ValidationError`` for a malformed address; per-client throttling is the views' job.
    """
    email = normalize_email(email)
    validate_email(email)
    next_url = safe_next_url(next_url)
    with transaction.atomic():
        _take_turns_for(email)
        now = timezone.now()  # after the wait for the lock, so the window is counted from now
        user = User.objects.filter(email=email).first()
        if user is not None and not user.is_active:
            logger.info("Login link not sent to %s: account disabled", mask_email(email))
            return False
        if user is not None and user.is_suspended(now):
            logger.info("Login link not sent to %s: player suspended", mask_email(email))
            return False
        recent = LoginLink.objects.filter(email=email, created_at__gt=now - CAP_WINDOW).count()
        if recent >= settings.LOGIN_LINKS_PER_ADDRESS_PER_HOUR:
            # Only masked: the log is not the place for players' addresses.
            logger.info("Login link not sent to %s: hourly cap reached", mask_email(email))
            return False
        nonce = secrets.token_urlsafe(16)
        LoginLink.objects.create(
            nonce_hash=LoginLink.hash_nonce(nonce), email=email, created_at=now
        )
        payload = {"n": nonce, "e": email}
        if next_url:
            payload["x"] = next_url
        token = signing.dumps(payload, salt=SALT, compress=True)
        link = settings.SITE_URL.rstrip("/") + reverse("accounts:login-link", args=[token])
        queue_email(
            email,
            "login_link",
            {"link": link, "minutes": settings.LOGIN_LINK_MINUTES},
            topic="login",
            # Their setting; else the language of the page or API call that asked for it.
            language=language_of(user, fallback=translation.get_language()),
        )
    return True


def read_login_link(token: str) -> LoginLinkClaim:
    """What ``token`` claims, if it may be used now; changes nothing (mail scanners GET links).

    Raises ``LoginLinkError``: ``INVALID`` for a token we did not sign or no longer
    know, ``EXPIRED`` after ``LOGIN_LINK_MINUTES``, ``USED`` once redeemed,
    ``INACTIVE`` for a disabled account, ``SUSPENDED`` while a moderator's suspension
    runs (a link sent before it stops working too).
    """
    try:
        payload = signing.loads(token, salt=SALT, max_age=settings.LOGIN_LINK_MINUTES * 60)
    except signing.SignatureExpired:
        # Authentic but old: its destination is still worth keeping for a new link.
        payload = _payload(signing.loads(token, salt=SALT))
        raise LoginLinkError(LinkProblem.EXPIRED, _next_of(payload)) from None
    except signing.BadSignature:
        raise LoginLinkError(LinkProblem.INVALID) from None
    payload = _payload(payload)
    claim = LoginLinkClaim(
        email=payload["e"],
        next_url=_next_of(payload),
        nonce_hash=LoginLink.hash_nonce(payload["n"]),
    )
    row = LoginLink.objects.filter(nonce_hash=claim.nonce_hash, email=claim.email).first()
    if row is None:
        raise LoginLinkError(LinkProblem.INVALID)
    if row.used_at is not None:
        raise LoginLinkError(LinkProblem.USED, claim.next_url)
    if User.objects.filter(email=claim.email, is_active=False).exists():
        raise LoginLinkError(LinkProblem.INACTIVE)
    if User.objects.filter(User.suspended_q(timezone.now()), email=claim.email).exists():
        raise LoginLinkError(LinkProblem.SUSPENDED)
    return claim


def consume_login_link(token: str) -> LoginLinkUse:
    """Redeem ``token`` once: mark it used and return its user (created if new).

    The caller logs the user in. Raises ``LoginLinkError`` as ``read_login_link`` does,
    and then nothing has changed: the link is only spent together with a successful
    login, in one transaction.
    """
    claim = read_login_link(token)
    with transaction.atomic():
        # Guarded UPDATE: of two requests racing with one link (a double click, a stolen
        # copy), exactly one changes the row; the other is told the link was used.
        claimed = LoginLink.objects.filter(nonce_hash=claim.nonce_hash, used_at=None).update(
            used_at=timezone.now()
        )
        if claimed != 1:
            raise LoginLinkError(LinkProblem.USED, claim.next_url)
        user = User.objects.get_or_create_for_email(claim.email)
        if not user.is_active:  # disabled between the read and now: roll the claim back
            raise LoginLinkError(LinkProblem.INACTIVE)
        if user.is_suspended():  # likewise suspended
            raise LoginLinkError(LinkProblem.SUSPENDED)
    return LoginLinkUse(user=user, next_url=claim.next_url)


def purge_login_links(now: datetime | None = None) -> int:
    """Delete rows no longer needed (expired and out of the cap's window); returns how many."""
    now = now or timezone.now()
    keep = max(CAP_WINDOW, timedelta(minutes=settings.LOGIN_LINK_MINUTES))
    deleted, _ = LoginLink.objects.filter(created_at__lt=now - keep).delete()
    return deleted


def _payload(payload) -> dict:
    # Signed by us, so well-formed unless the format changed under old links: treat as invalid.
    if not (
        isinstance(payload, dict)
        and isinstance(payload.get("n"), str)
        and isinstance(payload.get("e"), str)
    ):
        raise LoginLinkError(LinkProblem.INVALID)
    return payload


def _next_of(payload: dict) -> str:
    # Checked again although signed: a rule tightened since the link was made still applies.
    return safe_next_url(payload.get("x"))


def _take_turns_for(email: str) -> None:
    """Serialise concurrent requests for one address until the end of the transaction.

    Without it, simultaneous requests (from many IPs, past the per-IP throttle) would
    all count the same recent links and all pass the hourly cap. PostgreSQL: a
    transaction-level advisory lock keyed by the address. SQLite needs nothing: the
    settings open its transactions with BEGIN IMMEDIATE, so writers already take turns.
    """
    if connection.vendor != "postgresql":
        return
    digest = hashlib.sha256(f"{SALT}:{email}".encode()).digest()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(%s)", [int.from_bytes(digest[:8], "big", signed=True)]
        )
