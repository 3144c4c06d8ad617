"""The league API (/api/leagues/) and pages (/leagues/...), English and German."""

import re

from django.test import TestCase

from leagues.models import League, LeagueGame
from notifications.models import OutboundEmail
from tests.factories import client_for


def test_api_creates_lists_and_shows_a_league(anna, bert, outsider):
    api = client_for(anna)
    answer = api.post(
        "/api/leagues/",
        {"name": "Spring", "players": [anna.email, bert.email], "max_running": 1},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    league_id = answer.json()["id"]
    assert answer.json()["status"] == "invited" and answer.json()["games"] == []
    assert api.get("/api/leagues/").json()["results"][0]["id"] == league_id
    detail = client_for(bert).get(f"/api/leagues/{league_id}/")
    assert detail.status_code == 200 and detail.json()["standings"][0]["name"] == "Anna"
    assert client_for(outsider).get(f"/api/leagues/{league_id}/").json()["code"] == "not_found"


def test_api_refuses_in_the_callers_language(anna):
    answer = client_for(anna).post(
        "/api/leagues/",
        {
            "name": "X",
            "players": [anna.email, "bert@example.com"],
            "format": "groups",
            "game": "rattenscharf",
        },
        format="json",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert answer.status_code == 400 and answer.json()["code"] == "invalid"
    assert "wird nicht" in answer.json()["detail"]


def test_create_page_invitation_page_and_league_page(client, anna, bert):
    client.force_login(anna)
    assert client.get("/leagues/new/").status_code == 200
    answer = client.post(
        "/leagues/new/",
        {
            "name": "Autumn",
            "game": "piratz",
            "turn_hours": 48,
            "format": "round_robin",
            "group_size": 4,
            "max_running": 1,
            "players": f"{anna.email}\nBert\n",
        },
    )
    league = League.objects.get(name="Autumn")
    assert answer.status_code == 302 and answer["Location"] == f"/leagues/{league.id}/"
    mail = OutboundEmail.objects.get(template="league_invitation").rendered()
    path = re.search(r"https?://[^/]+(/leagues/invitation/[^/]+/)", mail.body_text).group(1)
    client.logout()
    assert b"Accept" in client.get(path).content  # GET changes nothing
    assert not LeagueGame.objects.exists()
    with TestCase.captureOnCommitCallbacks(execute=True):  # the task that starts games
        client.post(path, {"decision": "accept"})
    assert LeagueGame.objects.get(league=league).status == "started"
    client.force_login(bert)
    page = client.get(f"/leagues/{league.id}/", HTTP_ACCEPT_LANGUAGE="de")
    text = page.content.decode()
    assert page.status_code == 200 and "Tabelle" in text and "Anna" in text
    leave = client.post(f"/leagues/{league.id}/leave/")
    assert leave.status_code == 302
    league.refresh_from_db()
    assert league.status == "finished"  # its only game was resigned


def test_outsiders_get_404(client, anna, bert, outsider):
    client.force_login(anna)
    client.post(
        "/leagues/new/",
        {
            "name": "A",
            "game": "piratz",
            "turn_hours": 48,
            "format": "round_robin",
            "group_size": 4,
            "max_running": 1,
            "players": f"{anna.email}\n{bert.email}",
        },
    )
    league = League.objects.get()
    client.force_login(outsider)
    assert client.get(f"/leagues/{league.id}/").status_code == 404
    assert client.get("/leagues/invitation/nonsense/").status_code == 404


def test_my_games_links_to_my_leagues(client, anna):
    client.force_login(anna)
    page = client.get("/games/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<a href="/leagues/">Meine Ligen</a>' in page
