"""The per-client-IP throttle on asking for login links, shared by the API and the web form."""

from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle

SCOPE = "login_link"


class LoginLinkThrottle(ScopedRateThrottle):
    """DRF's scoped throttle, keyed by client IP even when the caller is logged in.

    One budget per IP (rate ``DEFAULT_THROTTLE_RATES["login_link"]``) covers both ways
    of asking, so the web form is no way around the API's limit.
    """

    def get_rate(self) -> str:
        # Read per request rather than at import (DRF's default), so overridden settings apply.
        try:
            return api_settings.DEFAULT_THROTTLE_RATES[self.scope]
        except KeyError:
            raise ImproperlyConfigured(
                f"No throttle rate set for the {self.scope!r} scope."
            ) from None

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class _WebForm:
    throttle_scope = SCOPE


def login_link_wait(request: HttpRequest) -> float | None:
    """For plain Django views: None if this request may ask for a link (and counts it), else
    the seconds until it may."""
    throttle = LoginLinkThrottle()
    if throttle.allow_request(request, _WebForm):
        return None
    return throttle.wait() or 0.0
