"""Issuing API keys to users by email address (used by the ``issue_token`` command)."""

from dataclasses import dataclass

from django.core.validators import validate_email
from django.db import transaction

from .models import ApiToken, User, normalize_email


@dataclass(frozen=True)
class IssuedKey:
    """A freshly issued key; ``key`` is the only copy there will ever be (only a hash is stored)."""

    user: User
    key: str
    user_created: bool
    replaced_prefix: str | None  # the old key's prefix, if one was replaced


def issue_api_key(email: str, *, staff: bool = False, display_name: str | None = None) -> IssuedKey:
    """Give the user with ``email`` (created if new) a new API key, invalidating the old one.

    ``staff=True`` makes the user a moderator; False leaves their staff status as it is.
    ``display_name`` (None: unchanged) sets the name other players see. Raises Django's
    ``ValidationError`` for a malformed address or name, and then changes nothing.
    """
    email = normalize_email(email)
    validate_email(email)
    with transaction.atomic():
        user_created = not User.objects.filter(email=email).exists()
        user = User.objects.get_or_create_for_email(email)
        if staff:
            user.is_staff = True
        if display_name is not None:
            user.display_name = display_name.strip()
        user.full_clean(validate_unique=False)
        user.save()
        old = ApiToken.objects.filter(user=user).values_list("prefix", flat=True).first()
        key = ApiToken.issue(user)
    return IssuedKey(user=user, key=key, user_created=user_created, replaced_prefix=old)
