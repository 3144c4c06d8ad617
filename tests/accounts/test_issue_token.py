"""The issue_token command: users, keys, and that the printed key authenticates."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from rest_framework import exceptions
from rest_framework.test import APIRequestFactory

from accounts.authentication import ApiTokenAuthentication
from accounts.models import ApiToken, User

pytestmark = pytest.mark.django_db


def issue(*args: str) -> tuple[str, str]:
    """Run issue_token; return (stdout, stderr)."""
    out, err = StringIO(), StringIO()
    call_command("issue_token", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def authenticate(key: str):
    request = APIRequestFactory().get("/", HTTP_AUTHORIZATION=f"Token {key}")
    return ApiTokenAuthentication().authenticate(request)


def test_creates_the_user_with_a_normalised_address_and_prints_only_the_key():
    out, err = issue("  Anna@Example.COM ")

    user = User.objects.get()
    assert user.email == "anna@example.com"
    assert not user.is_staff
    assert not user.has_usable_password()
    lines = out.splitlines()
    assert len(lines) == 1  # the key alone: KEY=$(manage.py issue_token ...) works
    key = lines[-1]
    assert key.startswith(ApiToken.KEY_PREFIX)
    assert "Created user anna@example.com" in err
    assert key not in err


def test_printed_key_authenticates_as_the_user():
    out, _ = issue("anna@example.com")

    user, use = authenticate(out.splitlines()[-1])

    assert user.email == "anna@example.com"
    assert ApiToken.objects.get(pk=use.token_id).user == user


def test_reissuing_replaces_the_old_key(player):
    old_key = issue(player.email)[0].strip()
    new_key, err = issue(player.email)
    new_key = new_key.strip()

    assert new_key != old_key
    assert ApiToken.objects.filter(user=player).count() == 1
    assert User.objects.count() == 1
    assert f"Replaced the old key {old_key[:10]}" in err
    assert authenticate(new_key)[0] == player
    with pytest.raises(exceptions.AuthenticationFailed):
        authenticate(old_key)


def test_staff_and_name_options():
    issue("mod@example.com", "--staff", "--name", "The Moderator")

    user = User.objects.get(email="mod@example.com")
    assert user.is_staff
    assert user.display_name == "The Moderator"


def test_without_staff_option_an_existing_moderator_stays_staff():
    User.objects.create_user("mod@example.com", is_staff=True)

    issue("mod@example.com")

    assert User.objects.get(email="mod@example.com").is_staff


@pytest.mark.parametrize("email", ["not-an-address", "anna@", "@example.com", "a b@example.com"])
def test_malformed_address_is_a_clear_error_and_creates_nothing(email):
    with pytest.raises(CommandError, match=r"Cannot issue a key for .*valid email"):
        issue(email)

    assert not User.objects.exists()
    assert not ApiToken.objects.exists()


def test_too_long_name_is_an_error_and_creates_nothing():
    with pytest.raises(CommandError, match="at most 40 characters"):
        issue("anna@example.com", "--name", "x" * 41)

    assert not User.objects.exists()


def test_missing_email_argument_is_an_error():
    with pytest.raises(CommandError):
        issue()
