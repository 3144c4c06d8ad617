"""One-click unsubscribe (RFC 8058): POST switches a kind off; GET and HEAD change nothing."""

import pytest
from django.conf import settings
from django.core import signing
from django.test import Client

from accounts import unsubscribe
from accounts.models import NotificationSettings
from accounts.preferences import settings_for
from accounts.schedule import UNSUBSCRIBABLE_KINDS, EmailKind


@pytest.fixture
def browser() -> Client:
    """A client that enforces CSRF, as a real browser or mail client meets it."""
    return Client(enforce_csrf_checks=True)


def path_of(url: str) -> str:
    assert url.startswith(settings.SITE_URL.rstrip("/") + "/unsubscribe/")
    return url[len(settings.SITE_URL.rstrip("/")) :]


def unsubscribed(user) -> list[str]:
    row = NotificationSettings.objects.filter(user=user).first()
    return row.unsubscribed if row else []


def test_the_link_is_absolute_and_signed(player):
    url = unsubscribe.unsubscribe_url(player, EmailKind.REMINDER)
    token = path_of(url).split("/")[2]
    claim = unsubscribe.read_unsubscribe_token(token)
    assert (claim.user, claim.kind) == (player, EmailKind.REMINDER)
    assert player.email not in url


def test_post_without_csrf_token_unsubscribes(browser, player):
    # What a mail client sends for List-Unsubscribe-Post: no cookie, no CSRF token.
    url = path_of(unsubscribe.unsubscribe_url(player, "reminder"))
    response = browser.post(url, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert b"Done" in response.content
    assert unsubscribed(player) == ["reminder"]
    player.refresh_from_db()
    assert settings_for(player).wants("reminder") is False
    assert settings_for(player).wants("your_turn") is True


def test_unsubscribing_twice_is_harmless_and_keeps_other_kinds(browser, player):
    for kind in ("game_started", "reminder", "game_started"):
        url = path_of(unsubscribe.unsubscribe_url(player, kind))
        assert browser.post(url).status_code == 200
    assert unsubscribed(player) == ["game_started", "reminder"]


def test_get_shows_a_question_and_changes_nothing(browser, player):
    url = path_of(unsubscribe.unsubscribe_url(player, "your_turn"))
    response = browser.get(url)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Stop your turn emails for a***@example.com?" in page
    assert '<form method="post">' in page
    assert "anna@example.com" not in page
    assert unsubscribed(player) == []
    assert not NotificationSettings.objects.exists()


def test_head_changes_nothing(browser, player):
    url = path_of(unsubscribe.unsubscribe_url(player, "your_turn"))
    response = browser.head(url)
    assert response.status_code == 200
    assert unsubscribed(player) == []
    assert not NotificationSettings.objects.exists()


def test_other_methods_are_not_allowed(browser, player):
    url = path_of(unsubscribe.unsubscribe_url(player, "your_turn"))
    assert browser.put(url).status_code == 405
    assert unsubscribed(player) == []


def _tampered(token: str) -> list[str]:
    # The signed payload swapped for another kind, keeping the signature.
    payload, rest = token.split(":", 1)
    assert signing.b64_decode(payload.encode()) == b'[%d,"reminder"]' % json_user_id(token)
    other_payload = signing.b64_encode(b'[%d,"digest"]' % json_user_id(token)).decode()
    forged_other_kind = f"{other_payload}:{rest}"
    flipped = token[:-1] + ("A" if token[-1] != "A" else "B")
    return [flipped, token[:-5], "nonsense", forged_other_kind]


def json_user_id(token: str) -> int:
    return signing.loads(token, salt=unsubscribe.SALT)[0]


def test_a_tampered_token_is_refused(browser, player):
    token = unsubscribe.unsubscribe_token(player, "reminder")
    for bad in _tampered(token):
        response = browser.post(f"/unsubscribe/{bad}/")
        assert response.status_code == 404, bad
        assert b"not valid" in response.content
    assert unsubscribed(player) == []


def test_a_token_signed_for_something_else_is_refused(browser, player):
    # Same key, other salt (as another kind of signed link would use): not accepted.
    other = signing.dumps([player.pk, "reminder"], salt="accounts.login-link", compress=True)
    assert browser.post(f"/unsubscribe/{other}/").status_code == 404
    assert unsubscribed(player) == []


def test_a_forged_token_for_a_transactional_kind_is_refused(browser, player):
    forged = signing.dumps([player.pk, "login_link"], salt=unsubscribe.SALT, compress=True)
    assert browser.post(f"/unsubscribe/{forged}/").status_code == 404
    assert unsubscribed(player) == []


def test_a_token_of_a_deactivated_person_is_refused(browser, player):
    url = path_of(unsubscribe.unsubscribe_url(player, "reminder"))
    player.is_active = False
    player.save()
    assert browser.post(url).status_code == 404


@pytest.mark.parametrize("kind", ["invitation", "game_cancelled", "login_link", "spam"])
def test_no_link_for_emails_that_cannot_be_switched_off(player, kind):
    with pytest.raises(ValueError, match="cannot be unsubscribed"):
        unsubscribe.unsubscribe_url(player, kind)


@pytest.mark.parametrize("kind", UNSUBSCRIBABLE_KINDS)
def test_every_notification_kind_has_a_working_link(browser, player, kind):
    assert browser.post(path_of(unsubscribe.unsubscribe_url(player, kind))).status_code == 200
    assert unsubscribed(player) == [kind]


def test_settings_url_points_at_the_settings(player):
    url = unsubscribe.settings_url()
    assert url == settings.SITE_URL.rstrip("/") + "/settings/"
