"""Substitutes (docs/players.md "Substitutes"): the host offers an absent player's seat, by
address or in the lobby, and a person takes it over from the stand-in bot."""

import json

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts import erasure, personal_data
from core.errors import ServiceError
from games import actions, bots
from games.actions import substitutes
from games.models import Game, GameStatus, Move, Seat, SeatChange, SeatOffer
from notifications.models import OutboundEmail
from people.models import Block
from ratings.models import RatingChange
from ratings.service import rate_game
from tests.factories import (
    client_for,
    make_user,
    play_toy_moves,
    start_game,
    start_toy_game,
)


@pytest.fixture
def table(toy_games, anna, bert, carla) -> Game:
    """A toy game of three: Anna hosts (seat 0, to move), Bert, and Carla (seat 2) away: a
    bot stands in for her after her timeouts."""
    game = start_toy_game([anna, bert, carla])
    _stand_in(game, 2, bots.WHY_TIMEOUTS)
    return game


def _stand_in(game: Game, seat: int, why: str) -> None:
    with transaction.atomic():
        locked = actions.common.lock_game_with_seats(game.id)
        row = next(s for s in locked.seats.all() if s.seat == seat)
        bots.hand_to_bot(locked, row, why=why, now=timezone.now(), level="random")


def _refused(call) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        call()
    return caught.value


def _seat(game: Game, number: int) -> Seat:
    return Seat.objects.select_related("user").get(game=game, seat=number)


class TestWhoMayOffer:
    def test_the_host_offers_a_stand_ins_seat_in_the_lobby(self, table, anna):
        offer, token = substitutes.do_offer_seat(table.id, anna, 2, lobby=True)
        assert offer.in_lobby and token is None and offer.closed == ""
        assert offer.expires_at > timezone.now()

    def test_another_player_may_not(self, table, bert):
        assert _refused(lambda: substitutes.do_offer_seat(table.id, bert, 2, lobby=True)).code == (
            "not_host"
        )
        assert not SeatOffer.objects.exists()

    def test_a_seat_its_player_plays_is_refused(self, table, anna):
        refusal = _refused(lambda: substitutes.do_offer_seat(table.id, anna, 1, lobby=True))
        assert refusal.code == "conflict"

    def test_a_resigned_seat_is_refused_with_p26(self, table, anna, bert):
        actions.do_resign(table.id, bert, table.version)  # a bot plays Bert's seat on
        refusal = _refused(lambda: substitutes.do_offer_seat(table.id, anna, 1, lobby=True))
        assert refusal.code == "conflict" and "P26" in refusal.detail
        assert not SeatOffer.objects.exists()

    def test_an_erased_players_seat_may_be_offered(self, toy_games, anna, bert, carla):
        game = start_toy_game([anna, bert, carla])
        erasure.erase_user(carla.pk)
        offer, _token = substitutes.do_offer_seat(game.id, anna, 2, lobby=True)
        assert offer.seat == 2

    def test_one_open_offer_per_seat_and_a_stale_version(self, table, anna):
        substitutes.do_offer_seat(table.id, anna, 2, lobby=True)
        again = _refused(lambda: substitutes.do_offer_seat(table.id, anna, 2, email="x@ex.com"))
        assert again.code == "conflict"
        stale = _refused(
            lambda: substitutes.do_offer_seat(table.id, anna, 2, lobby=True, version=5)
        )
        assert stale.code == "stale_version"
        assert SeatOffer.objects.count() == 1

    def test_withdrawn_nobody_can_take_it(self, table, anna, dirk):
        offer, _token = substitutes.do_offer_seat(table.id, anna, 2, lobby=True)
        substitutes.do_withdraw_seat_offer(table.id, anna, 2)
        assert _refused(lambda: substitutes.do_take_seat_offer(offer.pk, dirk)).code == (
            "not_found"
        )
        assert _seat(table, 2).bot == "random"


class TestTakingOver:
    def test_the_substitute_plays_the_seat_and_the_history_stays(self, table, anna, carla, dirk):
        offer, _token = substitutes.do_offer_seat(table.id, anna, 2, lobby=True)
        version = Game.objects.get(pk=table.pk).version
        game = substitutes.do_take_seat_offer(offer.pk, dirk)
        row = _seat(game, 2)
        assert row.user == dirk and row.bot == ""
        change = SeatChange.objects.get(game=game, kind=SeatChange.Kind.SUBSTITUTED)
        assert (change.seat, change.actor_user, change.previous_user) == (2, dirk, carla)
        assert game.version == version  # a change of hands is no move
        offer.refresh_from_db()
        assert offer.closed == SeatOffer.Closed.TAKEN and offer.taken_by == dirk
        # Carla lost it: she cannot take it back, and is told by one email.
        assert _refused(lambda: actions.do_take_back_seat(game.id, carla)).code == "not_found"
        lost = OutboundEmail.objects.filter(template="seat_lost")
        assert [email.to for email in lost] == [carla.email]

    def test_moves_keep_their_seat_number(self, table, anna, bert, dirk):
        game = play_toy_moves(table, [anna, bert], [1, 2])  # Anna, Bert; the bot's turn now
        bot_moves = Move.objects.filter(game=game).count()
        offer, _token = substitutes.do_offer_seat(game.id, anna, 2, lobby=True)
        game = substitutes.do_take_seat_offer(offer.pk, dirk)
        assert Move.objects.filter(game=game).count() == bot_moves
        # The game waited for the bot's seat: the substitute's turn starts, with its email.
        assert game.current_seat == 2 and game.deadline is not None
        assert OutboundEmail.objects.filter(template="your_turn", to=dirk.email).exists()

    def test_someone_seated_cannot_take_another_seat(self, table, anna, bert):
        offer, _token = substitutes.do_offer_seat(table.id, anna, 2, lobby=True)
        assert _refused(lambda: substitutes.do_take_seat_offer(offer.pk, bert)).code == "conflict"
        assert _seat(table, 2).bot == "random"

    def test_a_suspended_person_cannot(self, table, anna, dirk):
        offer, _token = substitutes.do_offer_seat(table.id, anna, 2, lobby=True)
        dirk.suspended_at = timezone.now()
        dirk.save()
        assert _refused(lambda: substitutes.do_take_seat_offer(offer.pk, dirk)).code == (
            "suspended"
        )

    @pytest.mark.parametrize("blocker_is_player", [True, False])
    def test_a_block_with_any_player_refuses_without_saying_so(
        self, table, anna, bert, dirk, blocker_is_player
    ):
        offer, _token = substitutes.do_offer_seat(table.id, anna, 2, lobby=True)
        if blocker_is_player:
            Block.objects.create(blocker=bert, blocked=dirk)
        else:
            Block.objects.create(blocker=dirk, blocked=bert)
        refusal = _refused(lambda: substitutes.do_take_seat_offer(offer.pk, dirk))
        assert refusal.code == "not_found"
        assert _seat(table, 2).user_id != dirk.pk

    def test_the_player_taking_the_seat_back_voids_the_offer(self, table, anna, carla, dirk):
        offer, _token = substitutes.do_offer_seat(table.id, anna, 2, lobby=True)
        actions.do_take_back_seat(table.id, carla)
        offer.refresh_from_db()
        assert offer.closed == SeatOffer.Closed.VOID
        assert _refused(lambda: substitutes.do_take_seat_offer(offer.pk, dirk)).code == (
            "not_found"
        )

    def test_the_substitute_sees_their_seats_view_only(self, anna, bert, carla, dirk):
        # A blind Piratz game (P23): the seat's view, never the draw order or others' cards.
        game = start_game([anna, bert, carla], blind=True)
        with transaction.atomic():
            locked = actions.common.lock_game_with_seats(game.id)
            row = next(s for s in locked.seats.all() if s.seat == 2)
            bots.hand_to_bot(locked, row, why=bots.WHY_TIMEOUTS, now=timezone.now())
        offer, _token = substitutes.do_offer_seat(game.id, anna, 2, lobby=True)
        substitutes.do_take_seat_offer(offer.pk, dirk)
        body = client_for(dirk).get(f"/api/games/{game.id}/").json()
        game.refresh_from_db()
        assert body["you"] == 2
        assert body["state"] == json.loads(json.dumps(game.table_view(2)))
        assert body["state"] != json.loads(json.dumps(game.table_view(0)))
        assert game.server_seed not in json.dumps(body)


class TestByEmail:
    def test_the_address_gets_a_link_whose_token_is_stored_hashed(self, table, anna):
        offer, token = substitutes.do_offer_seat(table.id, anna, 2, email="Erik@Example.com")
        assert offer.email == "erik@example.com"
        assert token not in offer.token_hash and offer.token_hash == SeatOffer.hash_token(token)
        email = OutboundEmail.objects.get(template="seat_offer")
        assert email.to == "erik@example.com"

    def test_the_link_page_takes_the_seat_for_the_address(self, client, table, anna):
        _offer, token = substitutes.do_offer_seat(table.id, anna, 2, email="erik@example.com")
        url = reverse("games:substitute", args=[token])
        page = client.get(url)
        assert page.status_code == 200 and "Take the seat over" in page.content.decode()
        assert _seat(table, 2).bot == "random"  # a GET changes nothing (mail scanners)
        answer = client.post(url)
        assert answer.status_code == 302 and answer["Location"] == f"/games/{table.id}/"
        assert _seat(table, 2).user.email == "erik@example.com"
        assert client.get(answer["Location"]).status_code == 200  # signed in for this game

    def test_a_lobby_offer_or_a_wrong_token_is_not_taken_by_link(self, client, table, anna, dirk):
        offer, token = substitutes.do_offer_seat(table.id, anna, 2, email="erik@example.com")
        assert _refused(lambda: substitutes.do_take_seat_offer(offer.pk, dirk)).code == (
            "not_found"
        )
        assert client.get(reverse("games:substitute", args=[token + "x"])).status_code == 404

    def test_a_blocked_address_is_refused_like_any_invitation(self, table, anna):
        erik = make_user("erik@example.com")
        Block.objects.create(blocker=erik, blocked=anna)
        refusal = _refused(lambda: substitutes.do_offer_seat(table.id, anna, 2, email=erik.email))
        assert refusal.code == "throttled"
        assert not SeatOffer.objects.exists()
        assert not OutboundEmail.objects.filter(template="seat_offer").exists()


class TestTheTablePage:
    def test_the_hosts_chair_offers_and_withdraws(self, client, table, anna):
        client.force_login(anna)
        page = client.get(reverse("games:game", args=[table.id])).content.decode()
        assert "data-substitute-chair" in page
        client.post(
            reverse("games:offer-seat", args=[table.id]),
            {"seat": 2, "version": table.version, "where": "lobby"},
        )
        assert SeatOffer.objects.get().in_lobby
        client.post(reverse("games:withdraw-offer", args=[table.id]), {"seat": 2})
        assert SeatOffer.objects.get().closed == SeatOffer.Closed.WITHDRAWN

    def test_the_others_read_who_took_over(self, client, table, anna, bert, dirk):
        offer, _token = substitutes.do_offer_seat(table.id, anna, 2, lobby=True)
        substitutes.do_take_seat_offer(offer.pk, dirk)
        client.force_login(bert)
        page = client.get(reverse("games:game", args=[table.id])).content.decode()
        assert f"{dirk.public_name} took over seat 3 from" in page


class TestRatingsAndPersonalData:
    def test_the_substituted_seat_is_rated_for_nobody(self, table, anna, bert, carla, dirk):
        offer, _token = substitutes.do_offer_seat(table.id, anna, 2, lobby=True)
        substitutes.do_take_seat_offer(offer.pk, dirk)
        Game.objects.filter(pk=table.pk).update(
            status=GameStatus.FINISHED,
            ended_at=timezone.now(),
            result={"winners": [0], "players": [{"seat": n, "score": 0} for n in range(3)]},
        )
        changes = rate_game(Game.objects.get(pk=table.pk))
        assert {change.user_id for change in changes} == {anna.pk, bert.pk}
        assert not RatingChange.objects.filter(user__in=[carla, dirk]).exists()

    def test_the_export_names_the_substitution_and_the_offers(self, table, anna, carla, dirk):
        offer, _token = substitutes.do_offer_seat(table.id, anna, 2, lobby=True)
        substitutes.do_take_seat_offer(offer.pk, dirk)
        lost = personal_data.export_files(carla)["substitutes.json"]
        assert lost["substitutions"][0]["took_over"] is False
        took = personal_data.export_files(dirk)["substitutes.json"]
        assert took["substitutions"][0]["took_over"] is True
        made = personal_data.export_files(anna)["substitutes.json"]
        assert made["seat_offers"][0]["offered_by_you"] is True

    def test_erasure_forgets_the_address_of_an_offer(self, table, anna):
        erik = make_user("erik@example.com")
        offer, _token = substitutes.do_offer_seat(table.id, anna, 2, email=erik.email)
        erasure.erase_user(erik.pk)
        offer.refresh_from_db()
        assert "erik" not in offer.email and offer.token_hash == ""
        assert offer.closed == SeatOffer.Closed.VOID
