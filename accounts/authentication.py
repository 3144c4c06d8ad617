"""DRF authentication by ``Authorization: Token <key>`` (or ``Bearer``), checked by its hash."""

from dataclasses import dataclass
from datetime import timedelta

from django.db import connections, router
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework import authentication, exceptions

from core import sql
from core.api.exceptions import SuspendedError

from .languages import activate_for
from .models import ApiToken, User
from .moderators import if_mistaken_sentence

# Recording every use would turn each read into a write; once an hour tells moderators enough.
_LAST_USED_RESOLUTION = timedelta(hours=1)


@dataclass(frozen=True)
class ApiKeyUse:
    """``request.auth`` of a request signed with an API key: which key (``ApiToken``'s id)."""

    token_id: int


def key_holder(key: str) -> tuple[User, ApiKeyUse, bool] | None:
    """The user holding API key ``key``, the key's use, and whether that use is still to be
    recorded (its last one is older than ``_LAST_USED_RESOLUTION``); None for no such key.

    One query, its SQL written out once (``raw``): the ORM's ``select_related("user")``
    read compiled every column of both tables afresh on every API request, three times
    the Python calls of this read (decision 0009). Django still builds the user from
    every column, with its converters; the key's two facts ride along as columns of the
    answer, the staleness decided by the database as the ORM's filter would.
    """
    connection = connections[router.db_for_read(ApiToken)]
    users, keys = sql.table(User, connection), sql.table(ApiToken, connection)

    def of_key(name: str) -> str:
        return sql.column(ApiToken, name, connection)

    query = (
        f"SELECT {users}.*, {of_key('id')} AS api_token_id,"
        f" ({of_key('last_used_at')} IS NULL OR {of_key('last_used_at')} < %s)"
        " AS api_token_use_unrecorded"
        f" FROM {users} JOIN {keys} ON {of_key('user')} = {sql.column(User, 'id', connection)}"
        f" WHERE {of_key('key_hash')} = %s"
    )
    recorded_since = timezone.now() - _LAST_USED_RESOLUTION
    params = [
        ApiToken._meta.get_field("last_used_at").get_db_prep_value(recorded_since, connection),
        ApiToken.hash_key(key),
    ]
    found = list(User.objects.raw(query, params, using=connection.alias))
    if not found:
        return None
    (user,) = found  # key_hash is unique
    # raw() set the key's two columns on the user it built: taken off, it is a plain user.
    columns = vars(user)
    token_id, unrecorded = columns.pop("api_token_id"), columns.pop("api_token_use_unrecorded")
    return user, ApiKeyUse(token_id), bool(unrecorded)


class ApiTokenAuthentication(authentication.BaseAuthentication):
    """An API key in the ``Authorization`` header, after either keyword (case-insensitive).

    ``Token`` is this API's own (docs/api.md "Games, moves and versions"); ``Bearer`` is
    what generic HTTP and OpenAPI clients send for the same kind of key.
    """

    keyword = "Token"
    keywords = (b"token", b"bearer")

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() not in self.keywords:
            return None  # not ours: let session authentication try
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(
                _(
                    "Send the header as 'Authorization: Token <key>' or "
                    "'Authorization: Bearer <key>'."
                )
            )
        try:
            key = header[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed(_("The API key is not valid.")) from None
        holder = key_holder(key)
        if holder is None or not holder[0].is_active:
            raise exceptions.AuthenticationFailed(_("The API key is not valid."))
        user, use, unrecorded = holder
        refuse_if_suspended(user)
        if unrecorded:
            ApiToken.objects.filter(pk=use.token_id).update(last_used_at=timezone.now())
        # Known only now (DRF authenticates in the view, after the middleware): the key
        # holder's own language setting beats Accept-Language for the rest of the answer.
        activate_for(getattr(request, "_request", request), user)
        return user, use

    def authenticate_header(self, request) -> str:
        # Makes DRF answer 401 (with WWW-Authenticate) instead of 403 when credentials are missing.
        return self.keyword


def refuse_if_suspended(user) -> None:
    """Raise ``SuspendedError`` (403, code ``suspended``) while ``user``'s suspension runs."""
    if user.is_suspended():
        refusal = _("A moderator has suspended this account, so it cannot use the API for now.")
        raise SuspendedError(f"{refusal} {if_mistaken_sentence()}")


class SessionAuthentication(authentication.SessionAuthentication):
    """DRF's session authentication (the browser signed in by a login link), refusing a
    suspended player as the API key does: a session begun before the suspension must not
    outlive it."""

    def authenticate(self, request):
        result = super().authenticate(request)
        if result is not None:
            refuse_if_suspended(result[0])
        return result
