"""API keys: issued by email address (``issue_token``), and made and revoked by their owner.

A person has at most ``ApiToken.MAX_PER_USER`` keys (``/api/me/api-keys/``); the operator's
``issue_token`` replaces them all with one.
"""

import unicodedata
from dataclasses import dataclass

from django.core.validators import validate_email
from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ServiceError

from .models import ApiToken, User, normalize_email


@dataclass(frozen=True)
class IssuedKey:
    """A freshly issued key; ``key`` is the only copy there will ever be (only a hash is stored)."""

    user: User
    key: str
    user_created: bool
    replaced_prefixes: tuple[str, ...]  # the old keys' prefixes, oldest first (all replaced)

    @property
    def replaced_prefix(self) -> str | None:
        """The first replaced key's prefix, if any was."""
        return self.replaced_prefixes[0] if self.replaced_prefixes else None


def issue_api_key(email: str, *, staff: bool = False, display_name: str | None = None) -> IssuedKey:
    """Give the user with ``email`` (created if new) a new API key, invalidating every old
    one (those its owner made over the API too: the operator's reset).

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
        old = tuple(ApiToken.objects.filter(user=user).values_list("prefix", flat=True))
        key = ApiToken.issue(user, name="issue_token")
    return IssuedKey(user=user, key=key, user_created=user_created, replaced_prefixes=old)


def keys_of(user: User):
    """``user``'s API keys, oldest first (their hashes never leave the service)."""
    return ApiToken.objects.filter(user=user).order_by("created_at", "id")


def _name_problem(name: str) -> str | None:
    if not name:
        return _("Give the key a name, e.g. the program that will use it.")
    if len(name) > ApiToken.MAX_NAME_LENGTH:
        return _("The key's name must be at most %(max)d characters.") % {
            "max": ApiToken.MAX_NAME_LENGTH
        }
    if any(unicodedata.category(char)[0] == "C" for char in name):
        return _("The key's name cannot contain control or invisible characters.")
    return None


def do_create_api_key(user: User, name: str) -> tuple[ApiToken, str]:
    """A new API key of ``user`` named ``name`` (trimmed; 1-60 characters): the row and the
    key itself, shown to its owner this once. ``ServiceError("invalid")`` for a bad name,
    ``ServiceError("conflict")`` when they have ``ApiToken.MAX_PER_USER`` keys already
    (nothing is created then).

    The person's row is locked while the keys are counted: two requests at once cannot
    both make the fifth.
    """
    name = name.strip()
    problem = _name_problem(name)
    if problem is not None:
        raise ServiceError("invalid", problem)
    with transaction.atomic():
        User.objects.select_for_update().only("id").get(pk=user.pk)
        if ApiToken.objects.filter(user=user).count() >= ApiToken.MAX_PER_USER:
            raise ServiceError(
                "conflict",
                _(
                    "You have %(max)d API keys already, the most one person may have; "
                    "delete one you no longer use first."
                )
                % {"max": ApiToken.MAX_PER_USER},
            )
        return ApiToken.create_for(user, name)


def do_delete_api_key(user: User, key_id: int) -> None:
    """Revoke ``user``'s key ``key_id`` (the one this request came with too: it stops
    working at once). ``ServiceError("not_found")`` when it is not one of theirs."""
    deleted, _rows = ApiToken.objects.filter(user=user, pk=key_id).delete()
    if not deleted:
        raise ServiceError("not_found", _("You have no API key with that id."))
