"""POST /api/auth/login-link/: same answer for everyone, emails, limits, malformed bodies."""

import hashlib
from datetime import timedelta

import pytest
from django.conf import settings
from django.core import signing
from django.urls import include, path
from django.utils import timezone

from accounts.models import LoginLink, User
from tests.db_scan import every_stored_value
from tests.throttles import api_rates

from .conftest import link_path

pytestmark = pytest.mark.django_db
URL = "/api/auth/login-link/"
ACCEPTED = {"detail": "If the address can receive mail, a login link is on its way."}


def login_link_rate(rate: str):
    return api_rates(login_link=rate)


def test_known_and_unknown_addresses_get_identical_answers_and_both_get_a_link(
    api_client, player, mailoutbox, django_capture_on_commit_callbacks
):
    answers = []
    for email in [player.email, "stranger@example.com"]:
        with django_capture_on_commit_callbacks(execute=True):
            response = api_client.post(URL, {"email": email}, format="json")
        answers.append((response.status_code, response.content))

    assert answers[0] == answers[1]
    assert answers[0][0] == 202
    assert [m.to for m in mailoutbox] == [["anna@example.com"], ["stranger@example.com"]]
    # Asking creates no account: that happens when a link is used.
    assert not User.objects.filter(email="stranger@example.com").exists()


def test_email_carries_an_absolute_link_in_text_and_html(api_client, mailoutbox, ask_for_link):
    path = ask_for_link("Anna@Example.com")

    message = mailoutbox[0]
    assert message.to == ["anna@example.com"]
    assert "login link" in message.subject.lower()
    absolute = settings.SITE_URL.rstrip("/") + path
    assert absolute in message.body
    assert f"{settings.LOGIN_LINK_MINUTES} minutes" in message.body
    html = message.alternatives[0][0]
    assert f'href="{absolute}"' in html
    assert LoginLink.objects.get().email == "anna@example.com"


def test_the_link_row_stores_only_the_sha256_of_the_nonce(ask_for_link):
    path = ask_for_link("anna@example.com")

    token = path.removeprefix("/accounts/login/").removesuffix("/")
    nonce = signing.loads(token, salt="accounts.login-link")["n"]
    row = LoginLink.objects.get()
    assert row.nonce_hash == hashlib.sha256(nonce.encode()).hexdigest()
    assert row.used_at is None
    # Nowhere else either: not in another column, not in the sent email's row.
    stored = every_stored_value()
    assert nonce not in stored
    assert token not in stored


def test_per_address_cap_sends_no_more_mail_but_answers_the_same(
    ask_for_link, settings, time_machine
):
    settings.LOGIN_LINKS_PER_ADDRESS_PER_HOUR = 2
    time_machine.move_to(timezone.now(), tick=False)

    assert ask_for_link("anna@example.com") is not None
    assert ask_for_link("ANNA@example.com") is not None
    assert ask_for_link("anna@example.com") is None  # capped, still 202 (checked by the fixture)
    assert ask_for_link("other@example.com") is not None  # other addresses are unaffected
    assert LoginLink.objects.filter(email="anna@example.com").count() == 2

    time_machine.shift(timedelta(hours=1, seconds=1))
    assert ask_for_link("anna@example.com") is not None


def test_disabled_account_gets_no_mail_but_the_same_answer(player, ask_for_link):
    player.is_active = False
    player.save()

    assert ask_for_link(player.email) is None
    assert not LoginLink.objects.exists()


def test_throttled_per_client_ip(api_client, mailoutbox):
    with login_link_rate("2/hour"):
        for n in range(2):
            response = api_client.post(URL, {"email": f"p{n}@example.com"}, format="json")
            assert response.status_code == 202
        response = api_client.post(URL, {"email": "p3@example.com"}, format="json")
        other_ip = api_client.post(
            URL, {"email": "p3@example.com"}, format="json", REMOTE_ADDR="10.0.0.9"
        )

    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "throttled"
    assert set(body) == {"code", "detail"}
    assert other_ip.status_code == 202


def test_throttle_also_counts_logged_in_callers_by_ip(api_client, player):
    api_client.force_login(player)
    with login_link_rate("1/hour"):
        assert api_client.post(URL, {"email": "a@example.com"}, format="json").status_code == 202
        api_client.logout()
        assert api_client.post(URL, {"email": "a@example.com"}, format="json").status_code == 429


def test_web_form_throttle_counts_logged_in_callers_by_ip(client, player):
    client.force_login(player)
    with login_link_rate("1/hour"):
        assert client.post("/accounts/login/", {"email": "a@example.com"}).status_code == 200
        client.logout()
        assert client.post("/accounts/login/", {"email": "a@example.com"}).status_code == 429


def test_throttle_is_shared_with_the_web_form(api_client, client):
    with login_link_rate("1/hour"):
        assert api_client.post(URL, {"email": "a@example.com"}, format="json").status_code == 202
        response = client.post("/accounts/login/", {"email": "a@example.com"})

    assert response.status_code == 429
    assert b"Too many login links" in response.content


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"email": ""},
        {"email": "not-an-address"},
        {"email": ["anna@example.com"]},
        {"email": "anna@example.com", "password": "x"},
        {"email": "anna@example.com", "next": "/" + "x" * 300},
        ["anna@example.com"],
    ],
)
def test_malformed_body_is_400_invalid_and_sends_nothing(api_client, mailoutbox, body):
    response = api_client.post(URL, body, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert mailoutbox == []
    assert not LoginLink.objects.exists()


def test_non_json_body_is_400_invalid(api_client):
    response = api_client.post(URL, "{not json", content_type="application/json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_safe_next_is_carried_into_the_link_and_unsafe_next_dropped(ask_for_link, client):
    for next_url, expected in [
        ("/games/7/?tab=log", "/games/7/?tab=log"),
        ("https://evil.example/", "/games/"),  # dropped: My games
    ]:
        path = ask_for_link(f"p{len(next_url)}@example.com", next_url)
        response = client.post(path)
        assert response.status_code == 302
        assert response["Location"] == expected


def test_only_get_is_not_allowed(api_client):
    response = api_client.get(URL)

    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"


def schema_of(*patterns) -> dict:
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator(patterns=list(patterns)).get_schema(request=None, public=True)


def test_schema_describes_the_endpoint():
    schema = schema_of(path("api/auth/", include("accounts.api_urls")))

    operation = schema["paths"]["/api/auth/login-link/"]["post"]
    assert {"202", "400", "429"} <= set(operation["responses"])
    assert operation["security"] == [{}]


def test_link_path_helper_rejects_text_without_a_link():
    with pytest.raises(AssertionError):
        link_path("no link here")


def test_schema_describes_the_api_key_scheme():
    from .test_authentication import WhoAmI

    schema = schema_of(path("api/whoami/", WhoAmI.as_view()))

    scheme = schema["components"]["securitySchemes"]["tokenAuth"]
    assert scheme["type"] == "apiKey"
    assert scheme["name"] == "Authorization"
