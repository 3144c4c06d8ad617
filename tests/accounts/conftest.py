"""Fixtures for the accounts tests: players, asking for a login link, the API throttles."""

import re
from collections.abc import Callable

import pytest
from django.conf import settings
from rest_framework.test import APIClient
from rest_framework.views import APIView

from accounts.models import User
from accounts.throttling import AnonRateThrottle, UserRateThrottle

LINK_RE = re.compile(re.escape(settings.SITE_URL.rstrip("/")) + r"(/accounts/login/([^/\s\"<]+)/)")


@pytest.fixture
def player(db) -> User:
    """A registered player."""
    return User.objects.create_user("anna@example.com", display_name="Anna")


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def ask_for_link(
    api_client, mailoutbox, django_capture_on_commit_callbacks
) -> Callable[..., str | None]:
    """POST /api/auth/login-link/ and return the emailed link's path (None if none was sent).

    Asserts the answer every caller must get: 202 and the fixed body.
    """

    def ask(email: str, next_url: str | None = None) -> str | None:
        body = {"email": email} if next_url is None else {"email": email, "next": next_url}
        before = len(mailoutbox)
        with django_capture_on_commit_callbacks(execute=True):
            response = api_client.post("/api/auth/login-link/", body, format="json")
        assert response.status_code == 202, response.content
        assert response.json() == {
            "detail": "If the address can receive mail, a login link is on its way."
        }
        if len(mailoutbox) == before:
            return None
        assert len(mailoutbox) == before + 1
        return link_path(mailoutbox[-1].body)

    return ask


def link_path(text: str) -> str:
    """The path of the login link in an email's text."""
    match = LINK_RE.search(text)
    assert match, f"no login link in {text!r}"
    return match.group(1)


@pytest.fixture
def api_throttles(monkeypatch):
    """The project's DEFAULT_THROTTLE_CLASSES, which settings_test turns off, on every view
    that took the default.

    DRF reads the default at import: ``APIView.throttle_classes`` for class-based views, and
    a copy on each ``@api_view`` function's class (which exists from the URLs' import on).
    Views with throttles of their own keep them."""
    default = APIView.throttle_classes
    throttles = [AnonRateThrottle, UserRateThrottle]
    for view_class in _with_subclasses(APIView):
        if view_class.__dict__.get("throttle_classes") is default:
            monkeypatch.setattr(view_class, "throttle_classes", throttles)


def _with_subclasses(cls: type) -> list[type]:
    found = [cls]
    for subclass in cls.__subclasses__():
        found.extend(_with_subclasses(subclass))
    return found
