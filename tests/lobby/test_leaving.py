"""Leaving an open game before it starts (lobby.actions.do_leave_open_game,
games.actions.open_seats.do_leave_open_seat): the seat is open again, the seats stay in
turn order, the host cannot leave, a refusal changes nothing; the API and the page."""

import pytest

from core.errors import ServiceError
from games.models import Game, GameStatus, Seat
from lobby import actions
from lobby.models import LeftSeat, OpenGame
from notifications.models import OutboundEmail
from tests.factories import client_for, make_user

pytestmark = pytest.mark.django_db


def _open(host, **options) -> OpenGame:
    return actions.do_create_open_game(host, **{"game": "piratz", "seats": 2, **options})


def _refused(call) -> ServiceError:
    with pytest.raises(ServiceError) as refusal:
        call()
    return refusal.value


def _seats(open_game: OpenGame) -> list[tuple[int, object, str]]:
    return [
        (seat.seat, seat.user, seat.bot)
        for seat in Seat.objects.filter(game_id=open_game.pk).order_by("seat")
    ]


class TestLeaving:
    def test_the_seat_is_open_again_and_later_seats_move_up(self, anna, bert, carla):
        dora = make_user("dora@example.com")
        open_game = _open(anna, seats=4)
        for joiner in (bert, carla):
            actions.do_join_open_game(open_game.pk, joiner)
        actions.do_leave_open_game(open_game.pk, bert)
        assert _seats(open_game) == [(0, anna, ""), (1, carla, "")]
        assert OpenGame.objects.get(pk=open_game.pk).is_open
        # Nobody is emailed, as nobody is when someone joins.
        assert not OutboundEmail.objects.exists()
        # The seat is open again: two more people fill the game, which starts.
        actions.do_join_open_game(open_game.pk, dora)
        _open_game, started = actions.do_join_open_game(open_game.pk, bert)
        assert started
        assert _seats(open_game) == [(0, anna, ""), (1, carla, ""), (2, dora, ""), (3, bert, "")]
        assert Game.objects.get(pk=open_game.pk).status == GameStatus.ACTIVE

    def test_a_bots_seat_keeps_its_place(self, anna, bert, carla):
        open_game = _open(anna, seats=4, bots=["careful"])
        actions.do_join_open_game(open_game.pk, bert)
        actions.do_leave_open_game(open_game.pk, bert)
        assert _seats(open_game) == [(0, anna, ""), (1, None, "careful")]
        actions.do_join_open_game(open_game.pk, carla)
        assert _seats(open_game) == [(0, anna, ""), (1, None, "careful"), (2, carla, "")]

    def test_the_host_cannot_leave_and_nothing_changes(self, anna, bert):
        open_game = _open(anna, seats=3)
        actions.do_join_open_game(open_game.pk, bert)
        assert _refused(lambda: actions.do_leave_open_game(open_game.pk, anna)).code == "not_host"
        assert _seats(open_game) == [(0, anna, ""), (1, bert, "")]
        assert OpenGame.objects.get(pk=open_game.pk).is_open

    def test_no_seat_no_game_or_twice_is_not_found(self, anna, bert, carla):
        open_game = _open(anna, seats=3)
        actions.do_join_open_game(open_game.pk, bert)
        assert _refused(lambda: actions.do_leave_open_game(open_game.pk, carla)).code == (
            "not_found"
        )
        actions.do_leave_open_game(open_game.pk, bert)
        assert _refused(lambda: actions.do_leave_open_game(open_game.pk, bert)).code == (
            "not_found"
        )
        assert _refused(lambda: actions.do_leave_open_game("not-a-game", bert)).code == (
            "not_found"
        )
        assert LeftSeat.objects.count() == 1

    def test_a_started_or_withdrawn_game_cannot_be_left(self, anna, bert, carla):
        started = _open(anna)
        actions.do_join_open_game(started.pk, bert)
        assert _refused(lambda: actions.do_leave_open_game(started.pk, bert)).code == (
            "game_not_active"
        )
        assert Seat.objects.filter(game_id=started.pk, user=bert).exists()
        withdrawn = _open(anna, seats=3)
        actions.do_join_open_game(withdrawn.pk, carla)
        actions.do_withdraw_open_game(withdrawn.pk, anna)
        assert _refused(lambda: actions.do_leave_open_game(withdrawn.pk, carla)).code == (
            "game_not_active"
        )
        assert not LeftSeat.objects.exists()

    def test_a_seat_left_still_counts_against_joins_per_hour(self, anna, bert, settings):
        settings.LOBBY_JOINS_PER_HOUR = 2
        open_game = _open(anna, seats=3)
        actions.do_join_open_game(open_game.pk, bert)
        actions.do_leave_open_game(open_game.pk, bert)
        actions.do_join_open_game(open_game.pk, bert)
        actions.do_leave_open_game(open_game.pk, bert)
        assert _refused(lambda: actions.do_join_open_game(open_game.pk, bert)).code == ("throttled")


class TestApiAndPage:
    def test_leave_by_api(self, anna, bert, carla):
        open_game = _open(anna, seats=3)
        client_for(bert).post(f"/api/lobby/{open_game.pk}/join/", format="json")
        left = client_for(bert).post(f"/api/lobby/{open_game.pk}/leave/")
        assert left.status_code == 200, left.json()
        assert left.json()["status"] == "open" and left.json()["taken"] == 1
        assert not left.json()["seated"]
        host = client_for(anna).post(f"/api/lobby/{open_game.pk}/leave/")
        assert (host.status_code, host.json()["code"]) == (403, "not_host")
        again = client_for(bert).post(f"/api/lobby/{open_game.pk}/leave/")
        assert (again.status_code, again.json()["code"]) == (404, "not_found")
        actions.do_withdraw_open_game(open_game.pk, anna)
        actions_game = _open(anna)
        client_for(carla).post(f"/api/lobby/{actions_game.pk}/join/", format="json")
        late = client_for(carla).post(f"/api/lobby/{actions_game.pk}/leave/")
        assert (late.status_code, late.json()["code"]) == (409, "game_not_active")

    def test_the_leave_button_on_the_lobby_page(self, client, anna, bert):
        open_game = _open(anna, seats=3)
        actions.do_join_open_game(open_game.pk, bert)
        client.force_login(anna)
        assert b"Leave Anna" not in client.get("/lobby/").content  # the host withdraws
        client.force_login(bert)
        assert b"Leave Anna's game of Piratz" in client.get("/lobby/").content
        answer = client.post(f"/lobby/{open_game.pk}/leave/", follow=True)
        assert b"You left the game; your seat is open again." in answer.content
        assert not Seat.objects.filter(game_id=open_game.pk, user=bert).exists()
        assert f"/lobby/{open_game.pk}/join/".encode() in answer.content

    def test_the_leave_button_in_german(self, client, anna, bert):
        open_game = _open(anna, seats=3)
        actions.do_join_open_game(open_game.pk, bert)
        bert.language = "de"
        bert.save()
        client.force_login(bert)
        answer = client.post(f"/lobby/{open_game.pk}/leave/", follow=True)
        assert '<html lang="de">' in answer.content.decode()
