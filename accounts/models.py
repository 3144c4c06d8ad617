"""Users are identified by their email address; they never need a password."""

import hashlib
import secrets
from datetime import datetime
from typing import ClassVar
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, BaseUserManager, PermissionsMixin
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext

from accounts import display_names, schedule
from accounts.display_names import name_key


def normalize_email(email: str) -> str:
    """The canonical form of an address: trimmed and lower-cased as a whole.

    Lower-casing the local part too is a deliberate simplification: no real mail
    provider treats ``Anna@x`` and ``anna@x`` as different people, and one player
    must never end up with two accounts.
    """
    return email.strip().lower()


# A player page's address (User.public_id): lower-case letters and digits that cannot be
# misread for one another (no 0/o, 1/l/i). Ten of them are 31**10, about 2**49.5.
PUBLIC_ID_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
PUBLIC_ID_LENGTH = 10


def new_public_id() -> str:
    """A fresh random page address for a person (``User.public_id``)."""
    return "".join(secrets.choice(PUBLIC_ID_ALPHABET) for _ in range(PUBLIC_ID_LENGTH))


class UserManager(BaseUserManager["User"]):
    use_in_migrations = True

    def create_user(self, email: str, password: str | None = None, **fields) -> "User":
        if not email:
            raise ValueError("A user needs an email address.")
        user = self.model(email=normalize_email(email), **fields)
        if password:
            user.set_password(password)
        else:
            user.set_unusable_password()  # players log in by emailed link
        user.save(using=self._db)
        return user

    def create_superuser(self, email: str, password: str | None = None, **fields) -> "User":
        fields.update(is_staff=True, is_superuser=True)
        return self.create_user(email, password, **fields)

    def get_or_create_for_email(self, email: str) -> "User":
        """The user with this address, created (unusable password, no name) if new.

        Safe when two requests create the same new address at once (two login links
        consumed together, an invitation racing a login): the loser of the unique
        constraint gets the winner's row instead of an IntegrityError.
        """
        email = normalize_email(email)
        user = self.filter(email=email).first()
        if user is not None:
            return user
        # Each lost race for a shown name means one more winner is counted on the next try,
        # so n newcomers of one address name at once need up to n tries; ten is plenty.
        tries = 10
        while True:
            tries -= 1
            try:
                # A savepoint, so a lost race does not break the caller's transaction.
                with transaction.atomic(using=self._db):
                    return self.create_user(email)
            except IntegrityError:
                # A lost race: for the address (the winner's row is the one), or for the
                # shown name (anna@one and anna@two at once: derive it again, now that
                # the winner's is there to be counted).
                user = self.filter(email=email).first()
                if user is not None:
                    return user
                if not tries:
                    raise

    def named(self, name: str) -> "User | None":
        """The living person the site shows as ``name`` (chosen or derived from their
        address), compared as ``display_names.name_key`` does ("BERT" and a full-width
        "Bert" find "bert"); None for a name nobody is shown by. One person at most:
        ``public_name_key`` is unique among the living. Never a lookup by address: a name
        is not a way to find out who has which address."""
        key = name_key(name)
        if not key:
            return None
        return self.filter(public_name_key=key, erased_at__isnull=True).first()


class User(AbstractBaseUser, PermissionsMixin):
    email = models.EmailField(unique=True)
    display_name = models.CharField(
        max_length=40, blank=True, help_text="Shown to other players; defaults to the email's name."
    )
    # The name shown while none is chosen: the address's first part, numbered ("anna 2")
    # when another person is shown by it already (display_names.derived_name). Kept by
    # save(), so no name derived from an address can pass for another person's.
    derived_name = models.CharField(max_length=300, blank=True, editable=False)
    # display_names.name_key(the name shown: chosen, else derived), kept by save(): unique
    # among the living (the constraint below), so a name the site shows is one person's,
    # whoever chose or derived it first; player pages by name, league invitations by name
    # and the API find people by it (UserManager.named).
    public_name_key = models.CharField(max_length=800, blank=True, editable=False, db_index=True)
    # The player page's address, /people/<public_id>/: random, made once, never changed and
    # never reused (unique, and an erased person's row keeps it), so a link to a person
    # always leads to them, whatever they are called now. Public, not a secret.
    public_id = models.CharField(max_length=16, unique=True, editable=False, default=new_public_id)
    is_staff = models.BooleanField(
        default=False, help_text="Moderators: may use the admin and see every game."
    )
    is_active = models.BooleanField(default=True)
    # Blank: never chosen; pages then follow the browser and emails are in English (or,
    # for an invitation, the host's language). accounts/languages.py applies it.
    language = models.CharField(
        max_length=8,
        blank=True,
        choices=settings.LANGUAGES,
        help_text="Pages and emails are in this language; blank follows the browser.",
    )
    date_joined = models.DateTimeField(default=timezone.now)
    # A moderator's suspension (moderation.actions.do_suspend_user; the reason is in the
    # audit log). Suspended from suspended_at until suspended_until, or for good while
    # suspended_until is null; it ends by itself: is_suspended() compares with now.
    suspended_at = models.DateTimeField(null=True, blank=True, editable=False)
    suspended_until = models.DateTimeField(null=True, blank=True, editable=False)
    # "Sign out everywhere" (accounts.sessions.do_sign_out_everywhere) counts this up: it is
    # part of every session's auth hash and of every game link, so both stop working.
    session_generation = models.PositiveIntegerField(default=0, editable=False)
    # The person deleted their account (accounts.erasure.do_erase_account): the row stays,
    # for the game records and audit entries that point to it, without their data.
    erased_at = models.DateTimeField(null=True, blank=True, editable=False)

    objects = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS: ClassVar[list[str]] = []

    class Meta:
        ordering = ["email"]
        constraints = [
            # No two living people are shown by names that read alike (issue 32): the
            # name-taken checks (display_names.taken_problem, derived_name) say it in
            # words, this says it for two requests at once.
            models.UniqueConstraint(
                fields=["public_name_key"],
                condition=models.Q(erased_at__isnull=True),
                name="user_public_name_key_unique_living",
            ),
        ]

    def __str__(self) -> str:
        return self.email

    def save(self, *args, **kwargs):
        """Save, keeping the shown name's fields: ``derived_name`` (re-derived when it is
        shown and someone else took it meanwhile, or the address changed; blank once
        erased: it comes from the address) and ``public_name_key``."""
        update_fields = kwargs.get("update_fields")
        naming = {"display_name", "derived_name", "email", "erased_at"}
        if update_fields is None or naming & set(update_fields):
            if self.erased_at is not None:
                self.derived_name = ""
            elif not self.display_name:
                self.derived_name = display_names.derived_name(self)
            self.public_name_key = name_key(self.display_name or self.derived_name)
            if update_fields is not None:
                kwargs["update_fields"] = {*update_fields, "derived_name", "public_name_key"}
        super().save(*args, **kwargs)

    def clean(self) -> None:
        """Model validation (the admin's forms, ``issue_token``): a chosen name must not
        be another person's shown name (``display_names.taken_problem``); the form rules
        (``form_problem``) are the player's, an operator may set any name."""
        super().clean()
        if self.display_name and self.erased_at is None:
            problem = display_names.taken_problem(self.display_name.strip(), self)
            if problem is not None:
                raise ValidationError({"display_name": problem})

    @property
    def public_name(self) -> str:
        """The name other players see: never the full address, which stays private.

        An erased person is "former player", in the reader's language, wherever they appear.
        """
        if self.erased_at is not None:
            return gettext("former player")
        # The address's part only for an unsaved instance: save() derives the name.
        return self.display_name or self.derived_name or self.email.split("@", 1)[0]

    def is_suspended(self, now: datetime | None = None) -> bool:
        """Is this person suspended at ``now`` (default: now)?

        While suspended their login links, game links and API key do not work, they
        cannot create games or be invited, and their turns time out at once (rules P24).
        """
        if self.suspended_at is None:
            return False
        return self.suspended_until is None or (now or timezone.now()) < self.suspended_until

    def get_session_auth_hash(self) -> str:
        """Django's hash of the password field, tied to ``session_generation``: a session
        whose stored hash no longer matches is signed out by Django on its next request."""
        return self._with_session_generation(super().get_session_auth_hash())

    def get_session_auth_fallback_hash(self):
        # The same for the hashes under SECRET_KEY_FALLBACKS, or a session of before the
        # key's rotation would outlive "sign out everywhere".
        for fallback in super().get_session_auth_fallback_hash():
            yield self._with_session_generation(fallback)

    def _with_session_generation(self, password_hash: str) -> str:
        # Generation 0 keeps Django's own hash: sessions of before this field stay valid.
        if not self.session_generation:
            return password_hash
        return salted_hmac(
            "accounts.User.session_generation",
            f"{password_hash}:{self.session_generation}",
            algorithm="sha256",
        ).hexdigest()

    @staticmethod
    def suspended_q(now: datetime) -> models.Q:
        """The users suspended at ``now``, as a filter (``User.objects.filter(...)``)."""
        return models.Q(suspended_at__isnull=False) & (
            models.Q(suspended_until__isnull=True) | models.Q(suspended_until__gt=now)
        )


class ApiToken(models.Model):
    """One of a user's API keys (at most ``MAX_PER_USER``). Only a hash is stored: a
    database leak does not leak keys.

    The key itself is shown once, when ``issue_token``, ``POST /api/me/api-keys/`` (or
    ``ApiToken.issue``, ``ApiToken.create_for``) makes it.
    """

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(
        max_length=60, blank=True, help_text="The owner's name for the key, e.g. the bot using it."
    )
    key_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(
        max_length=12, help_text="The key's first characters, to tell keys apart."
    )
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)

    KEY_PREFIX = "pz_"
    MAX_PER_USER = 5
    MAX_NAME_LENGTH = 60

    class Meta:
        verbose_name = "API key"
        verbose_name_plural = "API keys"
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user})"

    @staticmethod
    def hash_key(key: str) -> str:
        # A plain SHA-256 suffices: the keys are 256-bit random, not guessable passwords.
        return hashlib.sha256(key.encode()).hexdigest()

    @classmethod
    def create_for(cls, user: User, name: str = "") -> tuple["ApiToken", str]:
        """A new key of ``user`` named ``name`` (the caller checks the limit): the row and
        the key itself, which only this answer ever holds."""
        key = cls.KEY_PREFIX + secrets.token_urlsafe(32)
        token = cls.objects.create(
            user=user,
            name=name,
            key_hash=cls.hash_key(key),
            prefix=key[:10],
            created_at=timezone.now(),
        )
        return token, key

    @classmethod
    def issue(cls, user: User, name: str = "") -> str:
        """Give ``user`` a new key, replacing every old one (``issue_token``), and return it."""
        cls.objects.filter(user=user).delete()
        return cls.create_for(user, name)[1]


class LoginLink(models.Model):
    """One emailed login link: single-use, and counted for the per-address hourly cap.

    The link itself is a signed token carrying a random nonce and the address; the
    row only says the nonce was issued and whether it has been used. Only a SHA-256
    of the nonce is stored, so the rows (which moderators can read in the admin,
    and which a database dump would expose) are never enough to log in as anyone,
    even together with a leaked SECRET_KEY: a usable link needs the nonce, and the
    nonce only ever existed in the email.
    """

    nonce_hash = models.CharField(max_length=64, unique=True)
    email = models.EmailField()
    created_at = models.DateTimeField(default=timezone.now)
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # The per-address hourly cap counts an address's recent links on every request.
            models.Index(fields=["email", "created_at"], name="loginlink_email_created"),
            # The purge deletes links older than their use: a range scan on created_at.
            models.Index(fields=["created_at"], name="loginlink_created"),
        ]

    def __str__(self) -> str:
        return f"login link for {self.email} at {self.created_at:%Y-%m-%d %H:%M}"

    @staticmethod
    def hash_nonce(nonce: str) -> str:
        # Plain SHA-256 suffices: nonces are 128-bit random, not guessable passwords.
        return hashlib.sha256(nonce.encode()).hexdigest()


class ErasureLink(models.Model):
    """One emailed "delete my account" link (``accounts.erasure``): single-use, expiring.

    As for ``LoginLink``, the link is a signed token carrying a random nonce and the
    person's id; only a SHA-256 of the nonce is stored, so no row (nor a database dump)
    is ever enough to delete anyone's account.
    """

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="erasure_links")
    nonce_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # The per-person cap counts their recent links on every request.
            models.Index(fields=["user", "created_at"], name="erasurelink_user_created"),
        ]

    def __str__(self) -> str:
        return f"erasure link for {self.user_id} at {self.created_at:%Y-%m-%d %H:%M}"


def default_reminder_leads() -> list[int]:
    """Remind 24 hours and 2 hours before a deadline, unless the person chooses otherwise."""
    return [24, 2]


class NotificationSettings(models.Model):
    """What a person wants to be emailed, when, and in which time zone.

    One row per user, created on the first write (``preferences.settings_for`` hands
    out an unsaved default before that, so reading never writes). The logic below
    works on unsaved instances, so it is tested without a database.
    """

    class Mode(models.TextChoices):
        EACH_TURN = "each_turn", "An email for each turn"
        DIGEST = "digest", "One daily digest"
        OFF = "off", "No turn emails"

    user = models.OneToOneField(
        User, on_delete=models.CASCADE, related_name="notification_settings"
    )
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.EACH_TURN)
    digest_hour = models.PositiveSmallIntegerField(
        default=8, help_text="Local hour (0-23) at which the daily digest goes out."
    )
    reminder_leads = models.JSONField(
        default=default_reminder_leads,
        help_text="Hours before a deadline to remind: 0-3 whole numbers, 1-720.",
    )
    time_zone = models.CharField(max_length=64, default="UTC", help_text="An IANA name.")
    quiet_start = models.TimeField(null=True, blank=True, help_text="Local time; may wrap.")
    quiet_end = models.TimeField(null=True, blank=True)
    unsubscribed = models.JSONField(
        default=list, blank=True, help_text="Email kinds switched off (one-click unsubscribe)."
    )
    next_digest_at = models.DateTimeField(
        null=True, blank=True, help_text="UTC; when the next digest is due (digest mode only)."
    )
    talk_emails = models.BooleanField(
        default=False,
        help_text="Email the others' table talk as it comes, at most one email per game an hour.",
    )
    channels = models.JSONField(
        default=dict,
        blank=True,
        help_text='Where each game news kind goes: {kind: "email" | "push" | "both"}; '
        "a kind not named goes by email.",
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "notification settings"
        indexes = [
            # The digest sweep (games.sweeps.send_due_digests) claims due rows every few
            # minutes; only digest-mode rows are ever due, so only they are indexed.
            models.Index(
                fields=["next_digest_at"],
                name="notif_settings_digest_due",
                condition=models.Q(mode="digest"),
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(digest_hour__lte=23), name="notif_settings_digest_hour_range"
            ),
            # Quiet hours are a pair: both set or neither.
            models.CheckConstraint(
                condition=models.Q(quiet_start__isnull=True, quiet_end__isnull=True)
                | models.Q(quiet_start__isnull=False, quiet_end__isnull=False),
                name="notif_settings_quiet_pair",
            ),
        ]

    def __str__(self) -> str:
        return f"notification settings of {self.user_id}"

    @property
    def zone(self) -> ZoneInfo:
        """The person's time zone (UTC if the stored name is unknown to this system)."""
        return schedule.zone_named(self.time_zone)

    def wants(self, kind: str) -> bool:
        """May an email of this kind go to this person at all?

        Transactional kinds (invitation, game cancelled, login link) always may. Turn
        emails and reminders only in ``each_turn`` mode, the digest only in ``digest``
        mode; the other game news in every mode. Any kind listed in ``unsubscribed`` is
        off. Table talk goes only to those who chose it (``talk_emails``). An unknown kind
        raises ``ValueError`` (a typo must not silently mail).
        """
        if kind == schedule.EmailKind.TABLE_TALK and not self.talk_emails:
            return False
        return schedule.wants(self.mode, self.unsubscribed, kind)

    def channel(self, kind: str) -> schedule.Channel:
        """Where news of ``kind`` goes: email, push or both (``schedule.channel_for``).
        Whether it goes at all is ``wants``'s to say."""
        return schedule.channel_for(self.channels, kind)

    def quiet_until(self, moment: datetime) -> datetime:
        """``moment`` if it is outside quiet hours, else the end of those quiet hours.

        The end is an aware UTC datetime, computed on the local wall clock of
        ``time_zone`` (so correct across midnight and DST changes).
        """
        return schedule.quiet_until(self.zone, self.quiet_start, self.quiet_end, moment)

    def next_digest_after(self, moment: datetime) -> datetime | None:
        """When the next digest is due after ``moment`` (UTC), or None unless in digest mode.

        At most one per local calendar day: the first time the local clock reaches
        ``digest_hour`` on the first day whose digest time is after ``moment``.
        """
        if self.mode != self.Mode.DIGEST:
            return None
        return schedule.next_local_hour(self.zone, self.digest_hour, moment)


class Vacation(models.Model):
    """A declared absence: while it runs, the person's turn clocks are paused.

    Vacations of one person never overlap and fit the yearly allowance
    (``preferences.vacation_problem``); ending one early sets ``ends_at`` to the moment
    it was ended, so only the time actually taken counts against the allowance.
    """

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="vacations")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["starts_at"]
        indexes = [
            # vacations_between() and the allowance check read one user's vacations
            # around a moment: (user, ends_at) finds those not over yet.
            models.Index(fields=["user", "ends_at"], name="vacation_user_ends"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_at__gt=models.F("starts_at")), name="vacation_ends_after"
            ),
        ]

    def __str__(self) -> str:
        return f"vacation of {self.user_id} from {self.starts_at:%Y-%m-%d %H:%M} UTC"
