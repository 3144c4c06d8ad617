"""Users are identified by their email address; they never need a password."""

import hashlib
import secrets

from django.contrib.auth.models import AbstractBaseUser, BaseUserManager, PermissionsMixin
from django.db import IntegrityError, models, transaction
from django.utils import timezone


def normalize_email(email: str) -> str:
    """The canonical form of an address: trimmed and lower-cased as a whole.

    Lower-casing the local part too is a deliberate simplification: no real mail
    provider treats ``Anna@x`` and ``anna@x`` as different people, and one player
    must never end up with two accounts.
    """
    return email.strip().lower()


class UserManager(BaseUserManager):
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
        try:
            # A savepoint, so a lost race does not break the caller's transaction.
            with transaction.atomic(using=self._db):
                return self.create_user(email)
        except IntegrityError:
            return self.get(email=email)


class User(AbstractBaseUser, PermissionsMixin):
    email = models.EmailField(unique=True)
    display_name = models.CharField(
        max_length=40, blank=True, help_text="Shown to other players; defaults to the email's name."
    )
    is_staff = models.BooleanField(
        default=False, help_text="Moderators: may use the admin and see every game."
    )
    is_active = models.BooleanField(default=True)
    date_joined = models.DateTimeField(default=timezone.now)

    objects = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS: list[str] = []

    class Meta:
        ordering = ["email"]

    def __str__(self) -> str:
        return self.email

    @property
    def public_name(self) -> str:
        """The name other players see: never the full address, which stays private."""
        return self.display_name or self.email.split("@", 1)[0]


class ApiToken(models.Model):
    """A user's API key. Only a hash is stored: a database leak does not leak keys.

    The key itself is shown once, when ``issue_token`` (or ``ApiToken.issue``) makes it.
    """

    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="api_token")
    key_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(
        max_length=12, help_text="The key's first characters, to tell keys apart."
    )
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)

    KEY_PREFIX = "pz_"

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user})"

    @staticmethod
    def hash_key(key: str) -> str:
        # A plain SHA-256 suffices: the keys are 256-bit random, not guessable passwords.
        return hashlib.sha256(key.encode()).hexdigest()

    @classmethod
    def issue(cls, user: User) -> str:
        """Give ``user`` a new key, replacing any old one, and return the key."""
        key = cls.KEY_PREFIX + secrets.token_urlsafe(32)
        cls.objects.update_or_create(
            user=user,
            defaults={
                "key_hash": cls.hash_key(key),
                "prefix": key[:10],
                "created_at": timezone.now(),
                "last_used_at": None,
            },
        )
        return key


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
