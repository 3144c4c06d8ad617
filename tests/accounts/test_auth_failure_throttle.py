"""Failed authentication against the API is counted per client address: past the limit the
address's failed authentications get 429 with Retry-After, while valid credentials from it
are served as ever."""

from datetime import timedelta

import pytest
import time_machine
from django.core.cache import cache
from django.core.management import call_command
from django.test import override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import ApiToken

pytestmark = pytest.mark.django_db

LIMIT = 5
WINDOW_MINUTES = 10
ATTACKER = "192.0.2.66"
NEIGHBOUR = "192.0.2.77"
PROTECTED = "/api/me/settings/"


@pytest.fixture(autouse=True)
def _limit(settings):
    settings.API_AUTH_FAILURES_PER_ADDRESS = LIMIT
    settings.API_AUTH_FAILURE_WINDOW_MINUTES = WINDOW_MINUTES


def with_key(key: str, address: str = ATTACKER) -> APIClient:
    client = APIClient(REMOTE_ADDR=address)
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def statuses(client: APIClient, times: int, path: str = PROTECTED) -> list[int]:
    return [client.get(path).status_code for _ in range(times)]


def test_bad_keys_get_429_past_the_limit():
    answers = statuses(with_key("pz_guess"), LIMIT + 3)
    assert answers == [401] * LIMIT + [429] * 3
    refused = with_key("pz_guess").get(PROTECTED)
    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled"
    assert 1 <= int(refused["Retry-After"]) <= WINDOW_MINUTES * 60


def test_requests_without_credentials_to_a_protected_endpoint_count():
    assert statuses(APIClient(REMOTE_ADDR=ATTACKER), LIMIT + 1) == [401] * LIMIT + [429]


def test_requests_without_credentials_where_none_are_needed_do_not_count():
    client = APIClient(REMOTE_ADDR=ATTACKER)
    for _ in range(LIMIT + 2):
        # Anonymous callers may ask for a login link; a malformed address is a 400.
        answer = client.post("/api/auth/login-link/", {"email": "no"}, format="json")
        assert answer.status_code == 400
    assert statuses(with_key("pz_guess"), 1) == [401]


def test_another_address_is_unaffected():
    statuses(with_key("pz_guess"), LIMIT + 1)
    assert statuses(with_key("pz_guess", NEIGHBOUR), 1) == [401]


def test_a_valid_key_from_a_throttled_address_is_served(anna):
    # Behind one NAT, one guesser must not lock out every program; keys are 256 random
    # bits, so serving the right one does not make guessing it feasible.
    key = ApiToken.issue(anna)
    statuses(with_key("pz_guess"), LIMIT + 1)
    assert with_key(key).get(PROTECTED).status_code == 200
    assert with_key(key).patch(PROTECTED, {}, format="json").status_code == 200
    # And the wrong keys from there are still refused.
    assert statuses(with_key("pz_guess"), 1) == [429]


def test_a_signed_in_browser_from_a_throttled_address_is_served(anna):
    statuses(with_key("pz_guess"), LIMIT + 1)
    browser = APIClient(REMOTE_ADDR=ATTACKER)
    browser.force_login(anna)
    assert browser.get(PROTECTED).status_code == 200


def test_requests_where_no_credentials_are_needed_are_served_from_a_throttled_address():
    statuses(with_key("pz_guess"), LIMIT + 1)
    client = APIClient(REMOTE_ADDR=ATTACKER)
    answer = client.post("/api/auth/login-link/", {"email": "no"}, format="json")
    assert answer.status_code == 400


def test_served_requests_do_not_lift_the_limit(anna):
    key = ApiToken.issue(anna)
    statuses(with_key("pz_guess"), LIMIT)
    statuses(with_key(key), 5)
    assert statuses(with_key("pz_guess"), 1) == [429]


def test_the_address_may_try_again_once_the_window_has_slid_past():
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        statuses(with_key("pz_guess"), LIMIT + 1)
        # Refused requests are not counted: hammering does not prolong the wait.
        statuses(with_key("pz_guess"), 20)
    with time_machine.travel(start + timedelta(minutes=2 * WINDOW_MINUTES), tick=False):
        assert statuses(with_key("pz_guess"), 1) == [401]


def test_pages_outside_the_api_are_not_counted():
    for _ in range(LIMIT + 1):
        APIClient(REMOTE_ADDR=ATTACKER).get("/settings/")
    assert statuses(with_key("pz_guess"), 1) == [401]


@pytest.mark.django_db(transaction=True)
def test_the_database_cache_counts_too():
    config = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "piratz_cache",
        }
    }
    with override_settings(CACHES=config):
        call_command("createcachetable", verbosity=0)
        cache.clear()
        assert statuses(with_key("pz_guess"), LIMIT + 1) == [401] * LIMIT + [429]
