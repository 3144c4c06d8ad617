"""Substitutes wanted in the lobby (docs/lobby.md "Substitutes wanted"): the list, its API,
the one-click take, and one offer taken twice at the same moment."""

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from core.errors import ServiceError
from games import actions, bots
from games.actions import substitutes
from games.models import Game, Seat, SeatChange, SeatOffer
from notifications.models import OutboundEmail
from people.models import Block
from tests.concurrency import at_once
from tests.factories import TOY_PACKAGE, client_for, make_user, start_toy_game


def _offered(host, others) -> tuple[Game, SeatOffer]:
    """A toy game of three whose last player is away (a bot stands in), offered in the lobby."""
    game = start_toy_game([host, *others])
    with transaction.atomic():
        locked = actions.common.lock_game_with_seats(game.id)
        row = next(s for s in locked.seats.all() if s.seat == 2)
        bots.hand_to_bot(locked, row, why=bots.WHY_TIMEOUTS, now=timezone.now(), level="random")
    offer, _token = substitutes.do_offer_seat(game.id, host, 2, lobby=True)
    return game, offer


@pytest.fixture
def offered(toy_games, anna, bert, carla):
    return _offered(anna, [bert, carla])


class TestTheList:
    def test_the_api_lists_it_for_someone_who_may_take_it(self, offered, dirk):
        game, offer = offered
        rows = client_for(dirk).get("/api/lobby/substitutes/").json()["results"]
        assert [(r["id"], r["game_id"], r["seat"], r["can_take"]) for r in rows] == [
            (offer.pk, str(game.id), 2, True)
        ]

    def test_a_player_of_the_game_sees_it_but_cannot_take_it(self, offered, bert):
        rows = client_for(bert).get("/api/lobby/substitutes/").json()["results"]
        assert rows[0]["seated"] is True and rows[0]["can_take"] is False

    def test_someone_blocked_by_a_player_does_not_see_it(self, offered, bert, dirk):
        Block.objects.create(blocker=bert, blocked=dirk)
        assert client_for(dirk).get("/api/lobby/substitutes/").json()["results"] == []

    def test_an_emailed_offer_is_not_listed(self, toy_games, anna, bert, carla, dirk):
        game, _offer = _offered(anna, [bert, carla])
        substitutes.do_withdraw_seat_offer(game.id, anna, 2)
        substitutes.do_offer_seat(game.id, anna, 2, email="erik@example.com")
        assert client_for(dirk).get("/api/lobby/substitutes/").json()["results"] == []

    def test_the_page_lists_it_with_a_take_button(self, client, offered, dirk):
        _game, offer = offered
        client.force_login(dirk)
        page = client.get(reverse("lobby:lobby")).content.decode()
        assert f'data-seat-offer="{offer.pk}"' in page
        assert reverse("lobby:take-substitute", args=[offer.pk]) in page


class TestTaking:
    def test_one_call_takes_it_and_answers_the_game(self, offered, carla, dirk):
        game, offer = offered
        answer = client_for(dirk).post(f"/api/lobby/substitutes/{offer.pk}/take/")
        assert answer.status_code == 200 and answer.json()["you"] == 2
        assert Seat.objects.get(game=game, seat=2).user == dirk
        assert OutboundEmail.objects.filter(template="seat_lost", to=carla.email).count() == 1

    def test_taken_twice_the_second_is_told_it_is_gone(self, offered, dirk, outsider):
        _game, offer = offered
        client_for(dirk).post(f"/api/lobby/substitutes/{offer.pk}/take/")
        again = client_for(outsider).post(f"/api/lobby/substitutes/{offer.pk}/take/")
        assert again.status_code == 404 and again.json()["code"] == "not_found"

    def test_the_page_button_opens_the_table(self, client, offered, dirk):
        game, offer = offered
        client.force_login(dirk)
        answer = client.post(reverse("lobby:take-substitute", args=[offer.pk]))
        assert answer.status_code == 302 and answer["Location"] == f"/games/{game.id}/"

    def test_the_host_offers_and_withdraws_through_the_api(self, toy_games, anna, bert, carla):
        game, _offer = _offered(anna, [bert, carla])
        url = f"/api/games/{game.id}/seats/2/substitute/"
        withdrawn = client_for(anna).delete(url)
        assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"
        made = client_for(anna).post(url, {"email": "erik@example.com"}, format="json")
        assert made.status_code == 201 and made.json()["email"] == "erik@example.com"
        refused = client_for(bert).post(url, {"lobby": True}, format="json")
        assert refused.status_code == 403 and refused.json()["code"] == "not_host"


def _take_or_refusal(offer_id, user):
    try:
        substitutes.do_take_seat_offer(offer_id, user)
    except ServiceError as refused:
        return refused.code
    return True


@pytest.mark.postgres("row locks: two people take one offered seat at the same moment")
@pytest.mark.django_db(transaction=True)
def test_one_offer_taken_twice_at_once_is_taken_exactly_once(settings):
    settings.GAME_PACKAGES = [*settings.GAME_PACKAGES, TOY_PACKAGE]
    host = make_user("host@example.com")
    for round_number in range(3):
        others = [make_user(f"p{round_number}-{n}@example.com") for n in range(2)]
        game, offer = _offered(host, others)
        takers = [make_user(f"taker{round_number}-{n}@example.com") for n in range(2)]
        outcomes = at_once([lambda u=u, o=offer.pk: _take_or_refusal(o, u) for u in takers])
        assert sorted(outcomes, key=str) == sorted([True, "not_found"], key=str), outcomes
        seat = Seat.objects.get(game=game, seat=2)
        assert seat.user in takers and seat.bot == ""
        assert SeatChange.objects.filter(game=game, kind="substituted").count() == 1
        assert OutboundEmail.objects.filter(template="seat_lost", to=others[1].email).count() == 1
