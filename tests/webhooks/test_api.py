"""``/api/games/{id}/webhooks/``: who may add, list and delete, and what they see."""

import pytest

from games import actions
from tests.factories import client_for
from tests.throttles import api_rates
from webhooks import signing
from webhooks.api import WebhookCreateThrottle
from webhooks.models import Webhook

pytestmark = pytest.mark.django_db


def webhooks_url(game) -> str:
    return f"/api/games/{game.id}/webhooks/"


def test_a_player_adds_a_json_webhook_and_sees_the_secret_once(toy_game, anna, receiver):
    client = client_for(anna)
    answer = client.post(
        webhooks_url(toy_game),
        {"kind": "json", "url": receiver.url("/p/secret-token")},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    created = answer.json()
    webhook = Webhook.objects.get()
    assert created["id"] == str(webhook.id)
    assert created["secret"] == signing.secret_for(webhook.id)
    assert created["secret"].startswith("whsec_")
    assert created["url"] == f"http://127.0.0.1:{receiver.port}/…"  # the path is a token
    assert created["enabled"] is True and created["disabled_reason"] == ""
    assert webhook.owner == anna and webhook.kind == "json"

    [listed] = client.get(webhooks_url(toy_game)).json()
    assert "secret" not in listed
    assert "secret-token" not in str(listed)
    assert listed["id"] == created["id"]


def test_the_answer_with_the_secret_is_never_stored(toy_game, anna, receiver):
    answer = client_for(anna).post(
        webhooks_url(toy_game), {"kind": "json", "url": receiver.url()}, format="json"
    )
    assert answer.status_code == 201
    assert "no-store" in answer["Cache-Control"] and "private" in answer["Cache-Control"]


def test_chat_kinds_have_no_secret(toy_game, anna, receiver):
    answer = client_for(anna).post(
        webhooks_url(toy_game), {"kind": "discord", "url": receiver.url()}, format="json"
    )
    assert answer.status_code == 201
    assert answer.json()["secret"] is None


def test_each_player_sees_and_deletes_only_their_own(toy_game, anna, bert, receiver):
    client_for(anna).post(
        webhooks_url(toy_game), {"kind": "json", "url": receiver.url()}, format="json"
    )
    annas = Webhook.objects.get()
    assert client_for(bert).get(webhooks_url(toy_game)).json() == []
    answer = client_for(bert).delete(f"{webhooks_url(toy_game)}{annas.id}/")
    assert answer.status_code == 404
    assert answer.json()["code"] == "not_found"
    assert Webhook.objects.exists()
    assert client_for(anna).delete(f"{webhooks_url(toy_game)}{annas.id}/").status_code == 204
    assert not Webhook.objects.exists()


def test_outsiders_staff_and_strangers_are_refused(toy_game, outsider, moderator, receiver):
    body = {"kind": "json", "url": receiver.url()}
    for method in ("get", "post"):
        answer = getattr(client_for(outsider), method)(webhooks_url(toy_game), body, format="json")
        assert (answer.status_code, answer.json()["code"]) == (404, "not_found")
        answer = getattr(client_for(moderator), method)(webhooks_url(toy_game), body, format="json")
        assert (answer.status_code, answer.json()["code"]) == (403, "not_a_player")
        answer = getattr(client_for(None), method)(webhooks_url(toy_game), body, format="json")
        assert (answer.status_code, answer.json()["code"]) == (401, "not_authenticated")
    assert not Webhook.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"kind": "teams", "url": "https://example.com/"}, "kind"),
        ({"kind": "json"}, "url"),
        ({"kind": "json", "url": "https://example.com/", "secret": "mine"}, "secret"),
        ({"kind": "json", "url": 12}, "url"),
        ({"kind": "json", "url": "http://example.com/"}, "https"),
        ({"kind": "json", "url": "https://10.0.0.1/"}, "not public"),
    ],
)
def test_bad_bodies_are_invalid(toy_game, anna, body, field):
    answer = client_for(anna).post(webhooks_url(toy_game), body, format="json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid"
    assert field in str(answer.json())
    assert not Webhook.objects.exists()


def test_a_game_takes_a_limited_number_of_webhooks(toy_game, anna, bert, receiver, settings):
    settings.WEBHOOKS_PER_GAME = 2
    body = {"kind": "slack", "url": receiver.url()}
    assert client_for(anna).post(webhooks_url(toy_game), body, format="json").status_code == 201
    assert client_for(bert).post(webhooks_url(toy_game), body, format="json").status_code == 201
    answer = client_for(anna).post(webhooks_url(toy_game), body, format="json")
    assert (answer.status_code, answer.json()["code"]) == (409, "conflict")
    assert Webhook.objects.count() == 2


def test_no_webhook_for_a_game_that_has_ended(toy_game, anna, receiver, moderator):
    actions.do_abort_game(toy_game.id, moderator, reason="ended")
    answer = client_for(anna).post(
        webhooks_url(toy_game), {"kind": "json", "url": receiver.url()}, format="json"
    )
    assert (answer.status_code, answer.json()["code"]) == (409, "game_not_active")


def test_the_schema_documents_the_endpoints(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    path = schema["paths"]["/api/games/{game_id}/webhooks/"]
    assert {"get", "post"} <= set(path)
    assert "X-Piratz-Signature" in path["post"]["description"]
    assert "409" in path["post"]["responses"]
    assert "delete" in schema["paths"]["/api/games/{game_id}/webhooks/{webhook_id}/"]


@api_rates(webhooks="2/hour")  # API_THROTTLE_WEBHOOKS
def test_adding_webhooks_is_throttled_per_user(toy_game, anna, bert, receiver):
    refused = {"kind": "json", "url": "https://10.0.0.1/"}
    for _ in range(2):
        assert (
            client_for(anna).post(webhooks_url(toy_game), refused, format="json").status_code == 400
        )
    body = {"kind": "json", "url": receiver.url()}
    answer = client_for(anna).post(webhooks_url(toy_game), body, format="json")
    assert (answer.status_code, answer.json()["code"]) == (429, "throttled")
    assert client_for(anna).get(webhooks_url(toy_game)).status_code == 200  # reading is free
    assert client_for(bert).post(webhooks_url(toy_game), body, format="json").status_code == 201


def test_the_webhook_budget_is_a_setting_of_its_own():
    assert WebhookCreateThrottle().rate == "30/hour"  # the default of API_THROTTLE_WEBHOOKS


@api_rates(user="2/min")
def test_webhook_requests_count_against_the_users_budget_too(toy_game, anna):
    """The endpoint names its throttles (the webhook budget), which replaces DRF's default
    list: the per-user budget every other endpoint has must be among them."""
    answers = [client_for(anna).get(webhooks_url(toy_game)).status_code for _ in range(3)]
    assert answers == [200, 200, 429]


@pytest.mark.parametrize(
    "url",
    [
        "https://hooks.example.com/p/secret-token",
        "HTTPS://Example.com",
        "https://93.184.215.14:8443/x?y=1#z",
        "https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/",
        "https://host/a@b",
        "https://host?q=@",
        "http://example.com/",
        "https://user@example.com/",
        "https://user:pw@example.com/",
        "https://@example.com/",
        "https:///path",
        "https:example.com",
        "ftp://example.com/",
        "https://exa mple.com/",
        "https://example.com/a b",
        " https://example.com/",
        "0",
        "",
    ],
)
def test_the_documented_url_pattern_admits_every_url_of_an_acceptable_form(url, settings):
    """``URL_PATTERN`` (the schema's) is what a schema can say of ``check_url``: a
    URL the service accepts always matches it, and it refuses what could never be accepted
    (not https, a user or password, no host, whitespace)."""
    import re

    from core.outbound.transport import URL_PATTERN, UnsafeUrl
    from webhooks.models import WEBHOOK_POSTS

    settings.WEBHOOKS_ALLOW_INSECURE_LOCALHOST = False
    try:
        WEBHOOK_POSTS.check_url(url)
        acceptable = True
    except UnsafeUrl:
        acceptable = False
    assert bool(re.search(URL_PATTERN, url)) == acceptable
