"""The schema states what a push subscription's body must be, as the service enforces it:
an ``https://`` endpoint (its pattern), a JSON number or null for ``expirationTime``."""

import re

import pytest

from core.outbound.transport import URL_PATTERN, UnsafeUrl
from push.endpoints import PUSH_POSTS
from tests.factories import client_for, make_user

from .conftest import Device

pytestmark = pytest.mark.django_db
URL = "/api/me/push-subscriptions/"


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://push.example.net/send/abc",
        "HTTPS://Push.Example.net",
        "https://93.184.215.14:8443/x?y=1#z",
        "https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/",
        "http://push.example.net/send/abc",
        "https://user@push.example.net/",
        "https:///path",
        "https:push.example.net",
        "ftp://push.example.net/",
        "https://push.example.net/a b",
        " https://push.example.net/",
        "",
    ],
)
def test_the_documented_pattern_admits_exactly_the_endpoints_of_an_acceptable_form(
    endpoint, settings
):
    """``URL_PATTERN`` (the schema's) is what a schema can say of ``check_url``."""
    settings.PUSH_ALLOW_INSECURE_LOCALHOST = False
    try:
        PUSH_POSTS.check_url(endpoint)
        acceptable = True
    except UnsafeUrl:
        acceptable = False
    assert bool(re.search(URL_PATTERN, endpoint)) == acceptable


def test_the_schema_states_the_endpoint_pattern(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    request = schema["components"]["schemas"]["PushSubscriptionCreateRequest"]["properties"]
    assert request["endpoint"]["pattern"] == URL_PATTERN
    assert request["expirationTime"]["type"] == "integer"


@pytest.mark.parametrize(
    "change",
    [
        {"endpoint": " https://push.example.net/send/abc"},  # the pattern admits no spaces
        {"expirationTime": "12"},  # a number in a string is not the schema's integer
        {"expirationTime": True},
    ],
)
def test_what_the_schema_refuses_the_api_refuses(change):
    device = Device()
    body = {
        "endpoint": "https://push.example.net/send/abc",
        "expirationTime": None,
        "keys": {"p256dh": device.p256dh, "auth": device.auth_b64},
        **change,
    }
    answer = client_for(make_user("anna@example.com")).post(URL, body, format="json")
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid"), answer.json()
