"""The tournaments' API (/api/tournaments/) and pages (/tournaments/): shapes, refusals in
the one error shape, access, sign-up and withdrawal, in English and German."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories import TOY_KIND, client_for
from tournaments import actions
from tournaments.models import Entrant, Tournament, TournamentStatus

from .helpers import FIRST_WINS, people, play_round, start, tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_games")]


def _body(**fields):
    body = {
        "name": "Autumn Swiss",
        "game": TOY_KIND,
        "starts_at": (timezone.now() + timedelta(days=2)).isoformat(),
    }
    body.update(fields)
    return body


def test_create_and_read_a_tournament():
    (anna,) = people(1)
    api = client_for(anna)
    answer = api.post("/api/tournaments/", _body(rounds=4, round_days=7), format="json")
    assert answer.status_code == 201, answer.json()
    data = answer.json()
    assert data["status"] == "signup" and data["rounds"] == 4 and data["you"] == "none"
    assert data["standings"] == [] and data["rounds_played"] == []
    listed = api.get("/api/tournaments/", {"status": "signup"}).json()
    assert [t["id"] for t in listed["results"]] == [data["id"]]
    assert api.get(f"/api/tournaments/{data['id']}/").json()["name"] == "Autumn Swiss"


@pytest.mark.parametrize(
    "fields",
    [
        {"starts_at": "yesterday"},
        {"rounds": 0},
        {"rounds": "5"},
        {"format": "ladder"},
        {"surprise": 1},
        {"invitees": ["bert@example.com"]},
        {"clock": {"kind": "bank", "bank_hours": 0}},
        {"game": "chess"},
    ],
)
def test_bad_bodies_are_400_invalid_and_create_nothing(fields):
    (anna,) = people(1)
    answer = client_for(anna).post("/api/tournaments/", _body(**fields), format="json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid" and answer.json()["detail"]
    assert not Tournament.objects.exists()


def test_a_start_in_the_past_is_400():
    (anna,) = people(1)
    past = (timezone.now() - timedelta(hours=1)).isoformat()
    answer = client_for(anna).post("/api/tournaments/", _body(starts_at=past), format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "invalid"


def test_sign_up_and_withdraw_by_api():
    anna, bert, carla = people(3)
    t = tournament(anna)
    api = client_for(bert)
    answer = api.post(f"/api/tournaments/{t.id}/sign-up/")
    assert answer.status_code == 200 and answer.json()["you"] == "signed_up"
    assert answer.json()["players"] == ["P2"]
    assert api.post(f"/api/tournaments/{t.id}/sign-up/").status_code == 200  # harmless
    answer = api.post(f"/api/tournaments/{t.id}/withdraw/")
    assert answer.status_code == 200 and answer.json()["you"] == "withdrawn"
    again = client_for(carla).post(f"/api/tournaments/{t.id}/withdraw/")
    assert again.status_code == 409 and again.json()["code"] == "conflict"


def test_refusals_by_api():
    anna, bert, carla, dirk = people(4)
    private = tournament(anna, signup="invitation", invitees=[bert.email])
    for path in ("", "sign-up/", "withdraw/"):
        call = client_for(carla).get if not path else client_for(carla).post
        answer = call(f"/api/tournaments/{private.id}/{path}")
        assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    assert client_for(carla).get("/api/tournaments/not-a-uuid/").status_code == 404
    t = tournament(anna, name="Open")
    for person in (anna, bert, carla):
        actions.do_sign_up(t.id, person)
    start(t)
    late = client_for(dirk).post(f"/api/tournaments/{t.id}/sign-up/")
    assert late.status_code == 409 and late.json()["code"] == "conflict"
    assert client_for(dirk).get("/api/tournaments/", {"status": "nope"}).status_code == 400
    assert client_for(None).get("/api/tournaments/").status_code == 401


def test_detail_has_standings_and_rounds_once_running():
    players = people(4)
    t = tournament(players[0], rounds=2)
    for person in players:
        actions.do_sign_up(t.id, person)
    start(t)
    play_round(t, FIRST_WINS)
    data = client_for(players[1]).get(f"/api/tournaments/{t.id}/").json()
    assert data["status"] == "running" and data["current_round"] == 2
    assert len(data["standings"]) == 4 and {"buchholz", "score"} <= set(data["standings"][0])
    first = data["rounds_played"][0]["pairings"][0]
    assert first["result"] == "first" and first["advances"] is None
    assert data["rounds_played"][1]["pairings"][0]["result"] == "pending"


# --- Pages -----------------------------------------------------------------------------------


def test_the_pages_in_english_and_german(client):
    players = people(4)
    t = tournament(players[0], format="elimination")
    client.force_login(players[1])
    page = client.get("/tournaments/")
    assert page.status_code == 200 and "Spring open" in page.content.decode()
    page = client.get(f"/tournaments/{t.id}/")
    assert "data-sign-up" in page.content.decode()
    answer = client.post(f"/tournaments/{t.id}/sign-up/")
    assert answer.status_code == 302
    assert Entrant.objects.get(tournament=t, user=players[1]).is_in
    for person in players[2:]:
        actions.do_sign_up(t.id, person)
    actions.do_sign_up(t.id, players[0])
    start(t)
    page = client.get(f"/tournaments/{t.id}/", HTTP_ACCEPT_LANGUAGE="en")
    html = page.content.decode()
    assert "data-bracket" in html and "Final" in html and "data-withdraw" in html
    players[1].language = "de"
    players[1].save()
    client.cookies["django_language"] = "de"
    german = client.get(f"/tournaments/{t.id}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'lang="de"' in german
    client.post(f"/tournaments/{t.id}/withdraw/")
    assert Entrant.objects.get(tournament=t, user=players[1]).withdrawn_at is not None


def test_create_by_the_form(client):
    (anna,) = people(1)
    client.force_login(anna)
    assert client.get("/tournaments/new/").status_code == 200
    starts = (timezone.now() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    answer = client.post(
        "/tournaments/new/",
        {
            "name": "Form cup",
            "game": TOY_KIND,
            "format": "swiss",
            "rounds": 3,
            "starts_at": starts,
            "round_days": 7,
            "turn_hours": 48,
            "max_entrants": 16,
            "rated": "on",
            "signup": "open",
            "invitees": "",
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    made = Tournament.objects.get(name="Form cup")
    assert made.status == TournamentStatus.SIGNUP and made.rounds == 3
    bad = client.post("/tournaments/new/", {"name": "x", "game": TOY_KIND})
    assert bad.status_code == 400


def test_the_invitation_page_signs_up_without_a_login(client):
    anna, bert = people(2)
    t = tournament(anna, signup="invitation", invitees=[bert.email])
    entrant = Entrant.objects.get(tournament=t, user=bert)
    token = "known-token"
    entrant.token_hash = Entrant.hash_token(token)
    entrant.save()
    page = client.get(f"/tournaments/invitation/{token}/")
    assert page.status_code == 200 and "Spring open" in page.content.decode()
    client.post(f"/tournaments/invitation/{token}/", {"decision": "accept"})
    assert Entrant.objects.get(pk=entrant.pk).is_in
    assert client.get("/tournaments/invitation/nope/").status_code == 404
