"""The API keys page (/settings/api-keys/): a person's keys listed, made (the key shown once,
in that answer only, never cached) and revoked, by the service behind /api/me/api-keys/."""

import logging

import pytest
from django.test import Client

from accounts import api_keys
from accounts.models import ApiToken

pytestmark = pytest.mark.django_db

PAGE = "/settings/api-keys/"


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def make(client: Client, name: str):
    return client.post(PAGE, {"form": "create", "name": name})


def test_signed_out_visitors_are_sent_to_sign_in(db):
    answer = Client().get(PAGE)
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]


def test_settings_links_to_the_page(anna):
    assert f'href="{PAGE}"' in signed_in(anna).get("/settings/").content.decode()


def test_a_new_key_is_shown_once_and_works(anna, caplog):
    client = signed_in(anna)
    with caplog.at_level(logging.DEBUG):
        answer = make(client, "my bot")
    assert answer.status_code == 200
    assert "no-store" in answer["Cache-Control"]
    token = ApiToken.objects.get(user=anna)
    body = answer.content.decode()
    key = body.split("data-new-api-key")[0].rsplit('value="', 1)[1].split('"', 1)[0]
    assert key.startswith(token.prefix) and ApiToken.hash_key(key) == token.key_hash
    # Never again: not on the next visit, not in a log, not in the session.
    again = client.get(PAGE).content.decode()
    assert key not in again and "my bot" in again and token.prefix in again
    assert key not in caplog.text
    assert key not in str(dict(client.session))
    # It plays: the API takes it.
    api = Client(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/me/settings/").status_code == 200


def test_the_list_shows_name_prefix_and_times(anna):
    api_keys.do_create_api_key(anna, "laptop")
    body = signed_in(anna).get(PAGE).content.decode()
    assert "laptop" in body and "never" in body and "Revoke laptop" in body


def test_a_sixth_key_is_refused_with_the_sentence(anna):
    for number in range(ApiToken.MAX_PER_USER):
        api_keys.do_create_api_key(anna, f"key {number}")
    answer = make(signed_in(anna), "one more")
    assert answer.status_code == 400
    body = answer.content.decode()
    assert "You have 5 API keys already" in body and "data-new-api-key" not in body
    assert ApiToken.objects.filter(user=anna).count() == ApiToken.MAX_PER_USER


def test_a_blank_name_is_refused(anna):
    answer = make(signed_in(anna), "   ")
    assert answer.status_code == 400
    assert "Give the key a name" in answer.content.decode()
    assert not ApiToken.objects.filter(user=anna).exists()


def test_revoking_deletes_the_key(anna):
    token, _key = api_keys.do_create_api_key(anna, "old bot")
    client = signed_in(anna)
    answer = client.post(PAGE, {"form": "revoke", "key": token.id})
    assert answer.status_code == 302
    assert not ApiToken.objects.filter(pk=token.pk).exists()
    assert "The API key is revoked" in client.get(PAGE).content.decode()


def test_nobody_revokes_another_persons_key(anna, bert):
    token, _key = api_keys.do_create_api_key(bert, "bert's bot")
    client = signed_in(anna)
    client.post(PAGE, {"form": "revoke", "key": token.id})
    assert ApiToken.objects.filter(pk=token.pk).exists()
    assert "You have no API key with that id." in client.get(PAGE).content.decode()


def test_the_page_is_german_for_a_german_reader(anna):
    body = signed_in(anna).get(PAGE, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "API-Schlüssel" in body and "Neuen Schlüssel erstellen" in body
