"""DRF authentication by ``Authorization: Token <key>`` (or ``Bearer``), checked by its hash."""

from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework import authentication, exceptions

from core.api.exceptions import SuspendedError

from .languages import activate_for
from .models import ApiToken
from .moderators import if_mistaken_sentence

# Recording every use would turn each read into a write; once an hour tells moderators enough.
_LAST_USED_RESOLUTION = timedelta(hours=1)


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
        try:
            # get(), not filter().first(): key_hash is unique, and first() would add an
            # ORDER BY that every API request compiled for nothing (decision 0009).
            token = ApiToken.objects.select_related("user").get(key_hash=ApiToken.hash_key(key))
        except ApiToken.DoesNotExist:
            token = None
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("The API key is not valid."))
        refuse_if_suspended(token.user)
        now = timezone.now()
        if token.last_used_at is None or now - token.last_used_at > _LAST_USED_RESOLUTION:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        # Known only now (DRF authenticates in the view, after the middleware): the key
        # holder's own language setting beats Accept-Language for the rest of the answer.
        activate_for(getattr(request, "_request", request), token.user)
        return token.user, token

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
