"""The login-link service functions on their own: next checks, masking, consuming, purging."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from accounts import login_links
from accounts.login_links import (
    LinkProblem,
    LoginLinkError,
    consume_login_link,
    mask_email,
    purge_login_links,
    request_login_link,
    safe_next_url,
)
from accounts.models import LoginLink, User


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("/games/7/", "/games/7/"),
        ("/games/?page=2#top", "/games/?page=2#top"),
        ("", ""),
        (None, ""),
        ("games/7/", ""),
        ("https://evil.example/", ""),
        ("//evil.example/", ""),
        ("/\\evil.example/", ""),
        ("///evil.example/", ""),
        ("javascript:alert(1)", ""),
        ("/" + "x" * 300, ""),
    ],
)
def test_safe_next_url(url, expected):
    assert safe_next_url(url) == expected


def test_mask_email():
    assert mask_email("anna@example.com") == "a***@example.com"
    assert mask_email("a@example.com") == "a***@example.com"


@pytest.mark.django_db
def test_request_rejects_a_malformed_address():
    with pytest.raises(ValidationError):
        request_login_link("not-an-address")
    assert not LoginLink.objects.exists()


@pytest.mark.django_db
def test_consume_twice_spends_the_link_once(ask_for_link):
    token = ask_for_link("anna@example.com").split("/")[-2]

    used = consume_login_link(token)
    with pytest.raises(LoginLinkError) as error:
        consume_login_link(token)

    assert used.user == User.objects.get(email="anna@example.com")
    assert error.value.problem is LinkProblem.USED


@pytest.mark.django_db
def test_two_requests_racing_with_one_link_log_in_once(ask_for_link, monkeypatch):
    token = ask_for_link("anna@example.com").split("/")[-2]
    # Both requests have read the link as unused before either spends it.
    claim = login_links.read_login_link(token)
    monkeypatch.setattr(login_links, "read_login_link", lambda _token: claim)

    consume_login_link(token)
    with pytest.raises(LoginLinkError) as error:
        consume_login_link(token)

    assert error.value.problem is LinkProblem.USED


@pytest.mark.django_db
def test_user_created_meanwhile_is_reused(ask_for_link):
    token = ask_for_link("anna@example.com").split("/")[-2]
    existing = User.objects.create_user("anna@example.com")

    assert consume_login_link(token).user == existing


@pytest.mark.django_db
def test_purge_keeps_rows_still_needed(time_machine):
    start = timezone.now()
    time_machine.move_to(start, tick=False)
    LoginLink.objects.create(nonce_hash="old", email="a@example.com", created_at=start)
    time_machine.shift(timedelta(minutes=59))
    LoginLink.objects.create(nonce_hash="new", email="a@example.com", created_at=timezone.now())

    assert purge_login_links() == 0
    time_machine.shift(timedelta(minutes=2))
    assert purge_login_links() == 1
    assert list(LoginLink.objects.values_list("nonce_hash", flat=True)) == ["new"]
