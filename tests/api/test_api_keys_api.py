"""/api/me/api-keys/: a player lists, makes (at most 5) and deletes their own API keys."""

import pytest
from django.core.management import call_command
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import ApiToken
from tests.factories import client_for

URL = "/api/me/api-keys/"


def with_key(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def make_key(client, name="my bot"):
    return client.post(URL, {"name": name}, format="json")


class TestMakingAndUsingKeys:
    def test_a_new_key_is_shown_once_and_works(self, anna):
        client = client_for(anna)
        response = make_key(client, "  tournament bot ")
        assert response.status_code == 201, response.json()
        body = response.json()
        assert set(body) == {"id", "name", "prefix", "created_at", "last_used_at", "key"}
        assert body["name"] == "tournament bot"
        assert body["key"].startswith(body["prefix"])
        # The new key authenticates; the list never shows a key again.
        listed = with_key(body["key"]).get(URL)
        assert listed.status_code == 200
        assert [key["name"] for key in listed.json()] == ["", "tournament bot"]
        assert all("key" not in key for key in listed.json())
        assert body["key"] not in listed.content.decode()

    def test_the_answer_with_the_key_is_never_stored(self, anna):
        # As the page that shows a new key: no proxy or browser cache may keep a copy.
        response = make_key(client_for(anna))
        assert response.status_code == 201
        assert "no-store" in response["Cache-Control"]
        assert "private" in response["Cache-Control"]

    def test_the_list_is_the_callers_own(self, anna, bert):
        make_key(client_for(bert))
        assert len(client_for(anna).get(URL).json()) == 1  # the key client_for made

    def test_a_deleted_key_stops_working(self, anna):
        client = client_for(anna)
        made = make_key(client).json()
        assert client.delete(f"{URL}{made['id']}/").status_code == 204
        assert with_key(made["key"]).get(URL).status_code == 401
        assert client.get(URL).status_code == 200  # the other key still works

    def test_issue_token_still_replaces_every_key(self, anna, capsys):
        client = client_for(anna)
        for name in ("one", "two"):
            make_key(client, name)
        call_command("issue_token", anna.email)
        new_key = capsys.readouterr().out.strip().splitlines()[-1]
        assert ApiToken.objects.filter(user=anna).count() == 1
        assert client.get(URL).status_code == 401
        assert [k["name"] for k in with_key(new_key).get(URL).json()] == ["issue_token"]


class TestRefusals:
    def test_a_sixth_key_is_refused_with_a_sentence(self, anna):
        client = client_for(anna)  # the first key
        for number in range(4):
            assert make_key(client, f"key {number}").status_code == 201
        response = make_key(client, "one too many")
        # A state of the person, not a bad request: 409, as every such refusal.
        assert (response.status_code, response.json()["code"]) == (409, "conflict")
        assert "5 API keys" in response.json()["detail"]
        assert ApiToken.objects.filter(user=anna).count() == 5

    @pytest.mark.parametrize(
        "body",
        [
            {},
            {"name": ""},
            {"name": "  "},
            {"name": "x" * 61},
            {"name": 5},
            {"name": "a\u0007b"},
            {"name": "a\u200bb"},
        ],
    )
    def test_a_bad_name_is_refused(self, anna, body):
        response = client_for(anna).post(URL, body, format="json")
        assert response.status_code == 400
        assert response.json()["code"] == "invalid"
        assert ApiToken.objects.filter(user=anna).count() == 1

    def test_an_unknown_field_is_refused(self, anna):
        response = client_for(anna).post(URL, {"name": "a", "scope": "all"}, format="json")
        assert response.status_code == 400
        assert "scope" in response.json()["detail"]

    def test_another_players_key_cannot_be_deleted(self, anna, bert):
        theirs = make_key(client_for(bert)).json()
        response = client_for(anna).delete(f"{URL}{theirs['id']}/")
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"
        assert ApiToken.objects.filter(pk=theirs["id"]).exists()

    def test_anonymous_is_refused(self, db):
        assert APIClient().get(URL).status_code == 401
        assert APIClient().post(URL, {"name": "x"}, format="json").status_code == 401

    def test_a_suspended_player_is_refused(self, anna):
        client = client_for(anna)
        anna.suspended_at = timezone.now()
        anna.save()
        response = make_key(client)
        assert response.status_code == 403
        assert response.json()["code"] == "suspended"
