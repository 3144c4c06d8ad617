"""A player deletes their account: the games' eraser (games.actions.erasure) takes them out
of their games, passes on the host's chair and ends a pause of theirs, and the game tells
an erased account nothing more. The whole deletion's own tests are
tests/api/test_personal_data_api.py."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from accounts import erasure
from core.errors import ServiceError
from games import actions
from games.models import EndReason, Game, GameStatus
from notifications.models import OutboundEmail
from tests.factories import client_for, start_game

pytestmark = pytest.mark.django_db

H = timedelta(hours=1)
START = datetime(2026, 12, 7, 10, 0, tzinfo=UTC)


def fresh(game: Game) -> Game:
    return Game.objects.get(id=game.id)


@pytest.fixture
def trio(anna, bert, carla):
    """A 3-player Piratz game with 72-hour turns, started at START: Anna hosts (seat 0)."""
    with time_machine.travel(START, tick=False):
        return start_game([anna, bert, carla])


def test_an_erased_hosts_chair_passes_on_and_their_pause_ends(anna, bert, carla, trio):
    with time_machine.travel(START + 2 * H, tick=False):
        actions.do_play_move(trio.id, anna, 0, {"action": "reveal"})
        game = fresh(trio)
        pass_move = next(
            a for a in game.rules.legal_actions(game.load_state(), 0) if a["action"] == "pass"
        )
        actions.do_play_move(trio.id, anna, 1, pass_move)  # Bert's turn, from START + 2 h
    with time_machine.travel(START + 10 * H, tick=False):
        actions.do_pause_game(trio.id, anna, "away")
    with time_machine.travel(START + 30 * H, tick=False):
        erasure.erase_user(anna.pk)
    game = fresh(trio)
    # Resumed as the host's resume would: Bert's turn gets back its 64 hours left.
    assert game.status == GameStatus.ACTIVE and game.paused_at is None
    assert game.deadline == START + 30 * H + 64 * H
    assert client_for(bert).get(f"/api/games/{trio.id}/").json()["host"] == 1
    told = OutboundEmail.objects.filter(template="clock_changed", to=carla.email).latest("id")
    assert "Bert holds the host's chair now." in told.rendered().body_text
    assert actions.do_pause_game(trio.id, bert).is_paused  # the chair is Bert's


def test_an_erased_players_seat_is_sent_no_more_game_news(anna, bert, carla, trio):
    erasure.erase_user(carla.pk)
    actions.do_resign(trio.id, bert, 0)
    assert OutboundEmail.objects.filter(template="resigned").count() == 1
    assert not OutboundEmail.objects.filter(to__endswith="@invalid").exists()


def test_a_game_ends_when_its_last_person_resigns_though_an_erased_seat_is_left(
    anna, bert, carla, trio
):
    erasure.erase_user(carla.pk)
    actions.do_resign(trio.id, bert, 0)
    assert fresh(trio).status == GameStatus.ACTIVE  # Anna still plays
    ended = actions.do_resign(trio.id, anna, 1)
    # Bots alone never play on (P26, as P25): Carla's stand-in is nobody.
    assert (ended.status, ended.end_reason) == (GameStatus.ABORTED, EndReason.ABANDONED)


def test_an_erased_account_is_never_seated_in_an_arranged_game(anna, bert):
    erasure.erase_user(bert.pk)
    bert.refresh_from_db()
    with pytest.raises(ServiceError) as refused:
        actions.do_create_arranged_game(anna, [anna, bert], game="piratz", turn_hours=72)
    assert refused.value.code == "invalid"
    assert refused.value.detail == "A player of this game has deleted their account."
    assert not Game.objects.exists()
