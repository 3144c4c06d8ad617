"""ApiTokenAuthentication: the class itself, and the 401 answers of an API view using it."""

from datetime import timedelta

import pytest
import time_machine
from django.urls import path
from django.utils import timezone
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.test import APIRequestFactory
from rest_framework.views import APIView

from accounts.authentication import ApiTokenAuthentication
from accounts.models import ApiToken

pytestmark = pytest.mark.django_db


class WhoAmI(APIView):
    """A stand-in API endpoint with the project's default authentication and permissions."""

    def get(self, request):
        return Response({"email": request.user.email})


urlpatterns = [path("api/whoami/", WhoAmI.as_view())]


def authenticate(header: str | None):
    headers = {} if header is None else {"HTTP_AUTHORIZATION": header}
    return ApiTokenAuthentication().authenticate(APIRequestFactory().get("/", **headers))


def test_valid_key_authenticates_and_records_use(player):
    key = ApiToken.issue(player)

    user, use = authenticate(f"Token {key}")

    assert user == player
    token = ApiToken.objects.get(pk=use.token_id)
    assert token.user == player
    assert token.last_used_at is not None


@pytest.mark.parametrize(
    ("last_used", "recorded"),
    [(None, True), (timedelta(minutes=59), False), (timedelta(minutes=61), True)],
)
def test_a_keys_use_is_recorded_once_an_hour(player, last_used, recorded):
    key = ApiToken.issue(player)
    now = timezone.now()
    before = None if last_used is None else now - last_used
    ApiToken.objects.filter(user=player).update(last_used_at=before)

    with time_machine.travel(now, tick=False):
        authenticate(f"Token {key}")

    assert ApiToken.objects.get(user=player).last_used_at == (now if recorded else before)


@pytest.mark.parametrize(
    "header", ["Token pz_not-a-real-key", "Token", "Token two parts", "token pz_wrong"]
)
def test_bad_key_is_rejected(player, header):
    ApiToken.issue(player)

    with pytest.raises(exceptions.AuthenticationFailed):
        authenticate(header)


@pytest.mark.parametrize("keyword", ["Bearer", "bearer"])
def test_key_sent_as_bearer_authenticates(player, keyword):
    key = ApiToken.issue(player)

    user, _token = authenticate(f"{keyword} {key}")

    assert user == player


def test_bad_bearer_key_is_rejected(player):
    with pytest.raises(exceptions.AuthenticationFailed):
        authenticate("Bearer pz_not-a-real-key")


@pytest.mark.parametrize("header", [None, "Basic YTpi", "Digest abc"])
def test_other_schemes_are_left_to_other_authenticators(header):
    assert authenticate(header) is None


def test_key_of_a_disabled_user_is_rejected(player):
    key = ApiToken.issue(player)
    player.is_active = False
    player.save()

    with pytest.raises(exceptions.AuthenticationFailed):
        authenticate(f"Token {key}")


@pytest.mark.urls(__name__)
def test_api_view_accepts_a_good_key(api_client, player):
    key = ApiToken.issue(player)

    response = api_client.get("/api/whoami/", HTTP_AUTHORIZATION=f"Token {key}")

    assert response.status_code == 200
    assert response.json() == {"email": "anna@example.com"}


@pytest.mark.urls(__name__)
@pytest.mark.parametrize("header", [None, "Token pz_not-a-real-key"])
def test_api_view_answers_401_not_authenticated_without_a_good_key(api_client, player, header):
    ApiToken.issue(player)
    headers = {} if header is None else {"HTTP_AUTHORIZATION": header}

    response = api_client.get("/api/whoami/", **headers)

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    body = response.json()
    assert body["code"] == "not_authenticated"
    assert set(body) == {"code", "detail"}
