"""Creating games, invitations, and reading games through the API (docs/api.md "Games, moves
and versions")."""

import pytest

from games.models import Game, GameStatus
from tests.factories import TOY_KIND, client_for, start_toy_game

pytestmark = pytest.mark.django_db


def create(client, players, **extra):
    """POST /api/games/: a game of Piratz unless ``extra`` names another ``game``."""
    return client.post(
        "/api/games/", {"game": "piratz", "players": players, **extra}, format="json"
    )


class TestCreate:
    def test_host_creates_game_and_invites_the_others(
        self, anna, bert, mailoutbox, django_capture_on_commit_callbacks
    ):
        with django_capture_on_commit_callbacks(execute=True):
            response = create(client_for(anna), [anna.email, bert.email, "new@example.com"])

        assert response.status_code == 201, response.json()
        body = response.json()
        assert body["status"] == "invited"
        assert body["state"] is None
        assert body["deadline"] is None
        assert body["you"] == 0
        assert body["turn_hours"] == 72 and body["blind"] is False
        assert [(s["seat"], s["name"], s["accepted"]) for s in body["seats"]] == [
            (0, "Anna", True),
            (1, "Bert", False),
            (2, "new", False),
        ]
        assert sorted(m.to[0] for m in mailoutbox) == ["bert@example.com", "new@example.com"]
        invitation = mailoutbox[0]
        assert "Anna invites you" in invitation.subject
        assert "/invitations/" in invitation.body
        assert invitation.alternatives, "the invitation has an HTML body too"

    def test_seat_names_never_show_addresses(self, anna, bert):
        response = create(client_for(anna), [anna.email, "someone.private@example.com"])
        assert "someone.private@example.com" not in response.content.decode()

    @pytest.mark.parametrize(
        ("players", "extra", "field"),
        [
            (["anna@example.com"], {}, "players"),
            (["anna@example.com", "a@x.org", "b@x.org", "c@x.org", "d@x.org"], {}, "players"),
            (["anna@example.com", "not-an-address"], {}, "players"),
            (["anna@example.com", "bert@example.com"], {"turn_hours": 0}, "turn_hours"),
            (["anna@example.com", "bert@example.com"], {"turn_hours": 721}, "turn_hours"),
            (["anna@example.com", "bert@example.com"], {"turn_hours": "72"}, "turn_hours"),
            (["anna@example.com", "bert@example.com"], {"blind": "yes"}, "blind"),
            (["anna@example.com", "bert@example.com"], {"game": "chess"}, "game"),
            (["anna@example.com", "bert@example.com"], {"colour": "red"}, "colour"),
        ],
    )
    def test_malformed_requests_are_invalid_and_create_nothing(self, anna, players, extra, field):
        response = create(client_for(anna), players, **extra)
        assert response.status_code == 400
        assert response.json()["code"] == "invalid"
        assert field in response.json()["detail"]
        assert not Game.objects.exists()

    @pytest.mark.parametrize(
        ("players", "message"),
        [
            (["bert@example.com", "carla@example.com"], "Your own address"),
            (["anna@example.com", "ANNA@example.com "], "only one seat"),
        ],
    )
    def test_rule_violations_are_invalid(self, anna, players, message):
        response = create(client_for(anna), players)
        assert response.status_code == 400
        assert response.json()["code"] == "invalid"
        assert message in response.json()["detail"]
        assert not Game.objects.exists()

    def test_daily_game_cap(self, anna, settings):
        settings.GAMES_PER_USER_PER_DAY = 2
        client = client_for(anna)
        for n in range(2):
            assert create(client, [anna.email, f"p{n}@example.com"]).status_code == 201
        response = create(client, [anna.email, "p9@example.com"])
        assert response.status_code == 429
        assert response.json()["code"] == "throttled"
        assert Game.objects.count() == 2

    def test_daily_invitation_cap(self, anna, settings):
        settings.INVITATIONS_PER_USER_PER_DAY = 4
        client = client_for(anna)
        assert create(client, [anna.email, "a@x.org", "b@x.org", "c@x.org"]).status_code == 201
        response = create(client, [anna.email, "d@x.org", "e@x.org"])
        assert response.status_code == 429
        assert "invite at most 4" in response.json()["detail"]

    def test_pending_invitations_per_address_cap(self, anna, bert, settings):
        settings.PENDING_INVITATIONS_PER_ADDRESS = 1
        assert create(client_for(anna), [anna.email, "busy@x.org"]).status_code == 201
        response = create(client_for(bert), [bert.email, "busy@x.org"])
        assert response.status_code == 429
        detail = response.json()["detail"]
        # The host learns that one address cannot be invited, not which, nor its count.
        assert "One of these addresses cannot be invited" in detail
        assert "busy" not in detail and "1" not in detail and "unanswered" not in detail

    def test_anonymous_cannot_create(self, db):
        response = create(client_for(None), ["a@x.org", "b@x.org"])
        assert response.status_code == 401
        assert response.json()["code"] == "not_authenticated"


def toy_invitation(host, guests) -> str:
    """The id of a toy game ``host`` created through the API, inviting ``guests``."""
    emails = [host.email, *(guest.email for guest in guests)]
    return create(client_for(host), emails, game=TOY_KIND).json()["id"]


@pytest.mark.usefixtures("toy_games")
class TestInvitations:
    """Answering an invitation is the same for any game: here the toy's."""

    def test_game_starts_when_everyone_has_accepted(self, anna, bert, carla):
        game_id = toy_invitation(anna, [bert, carla])

        first = client_for(bert).post(f"/api/games/{game_id}/accept/")
        assert first.status_code == 200
        assert first.json()["status"] == "invited"

        last = client_for(carla).post(f"/api/games/{game_id}/accept/")
        body = last.json()
        assert body["status"] == "active"
        assert body["version"] == 0
        assert body["you"] == 2
        assert body["deadline"] is not None
        assert body["state"]["current_seat"] == 0
        assert body["state"]["players"] == 3
        assert all(seat["accepted"] for seat in body["seats"])

    def test_accepting_twice_is_harmless(self, anna, bert):
        game_id = toy_invitation(anna, [bert])
        client = client_for(bert)
        assert client.post(f"/api/games/{game_id}/accept/").json()["status"] == "active"
        again = client.post(f"/api/games/{game_id}/accept/")
        assert again.status_code == 200
        assert again.json()["version"] == 0

    def test_decline_cancels_and_tells_the_others(
        self, anna, bert, carla, mailoutbox, django_capture_on_commit_callbacks
    ):
        game_id = toy_invitation(anna, [bert, carla])
        mailoutbox.clear()
        with django_capture_on_commit_callbacks(execute=True):
            response = client_for(bert).post(f"/api/games/{game_id}/decline/")

        assert response.status_code == 200
        assert response.json()["status"] == "cancelled"
        assert sorted(m.to[0] for m in mailoutbox) == [anna.email, carla.email]
        assert "Bert declined" in mailoutbox[0].body

    def test_cannot_accept_a_cancelled_game(self, anna, bert, carla):
        game_id = toy_invitation(anna, [bert, carla])
        client_for(bert).post(f"/api/games/{game_id}/decline/")
        response = client_for(carla).post(f"/api/games/{game_id}/accept/")
        assert response.status_code == 409
        assert response.json()["code"] == "game_not_active"

    def test_outsider_cannot_answer(self, anna, bert, outsider):
        game_id = toy_invitation(anna, [bert])
        for verb in ("accept", "decline"):
            response = client_for(outsider).post(f"/api/games/{game_id}/{verb}/")
            assert response.status_code == 404
            assert response.json()["code"] == "not_found"
        assert Game.objects.get(id=game_id).status == GameStatus.INVITED


class TestRead:
    def test_player_sees_their_own_view(self, toy_game, bert):
        body = client_for(bert).get(f"/api/games/{toy_game.id}/").json()
        assert body["you"] == 1
        assert body["state"]["seat"] == 1
        assert body["state"]["legal_actions"] == []  # Anna is to move

    def test_player_to_move_sees_legal_actions(self, toy_game, anna):
        body = client_for(anna).get(f"/api/games/{toy_game.id}/").json()
        assert {"action": "mark", "cell": 5} in body["state"]["legal_actions"]

    def test_staff_sees_any_game_as_a_spectator(self, toy_game, moderator):
        body = client_for(moderator).get(f"/api/games/{toy_game.id}/").json()
        assert body["you"] is None
        assert body["state"]["seat"] is None
        assert body["state"]["legal_actions"] == []

    def test_outsider_gets_404(self, toy_game, outsider):
        response = client_for(outsider).get(f"/api/games/{toy_game.id}/")
        assert response.status_code == 404
        assert response.json() == {
            "code": "not_found",
            "detail": "No such game, or you are not a player of it.",
        }

    def test_unknown_game_gets_the_same_404(self, outsider):
        response = client_for(outsider).get("/api/games/00000000-0000-0000-0000-000000000000/")
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"

    def test_anonymous_gets_401(self, toy_game):
        response = client_for(None).get(f"/api/games/{toy_game.id}/")
        assert response.status_code == 401
        assert response.json()["code"] == "not_authenticated"

    def test_bad_token_gets_401(self, toy_game):
        client = client_for(None)
        client.credentials(HTTP_AUTHORIZATION="Token pz_nonsense")
        response = client.get(f"/api/games/{toy_game.id}/")
        assert response.status_code == 401
        assert response.json()["code"] == "not_authenticated"

    def test_list_is_the_callers_games_newest_first_paginated(
        self, toy_games, anna, bert, carla, outsider
    ):
        older = start_toy_game([anna, bert])
        newer = start_toy_game([carla, anna])
        start_toy_game([bert, carla])  # not Anna's

        body = client_for(anna).get("/api/games/").json()
        assert body["count"] == 2
        assert [g["id"] for g in body["results"]] == [str(newer.id), str(older.id)]
        assert body["results"][0]["you"] == 1

        assert client_for(outsider).get("/api/games/").json()["count"] == 0

    def test_list_pages(self, toy_games, anna, bert, monkeypatch):
        from rest_framework.pagination import PageNumberPagination

        monkeypatch.setattr(PageNumberPagination, "page_size", 2)
        for _ in range(3):
            start_toy_game([anna, bert])
        client = client_for(anna)
        first = client.get("/api/games/").json()
        assert (first["count"], len(first["results"])) == (3, 2)
        second = client.get(first["next"]).json()
        assert len(second["results"]) == 1
