"""Rattenscharf's deadlines in the service: a passed deadline plays the rest of the turn with
R35's placements (R34), the sweep acts once, and a game nobody plays abandons itself (R36)."""

import threading
from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.db.models import Count
from django.utils import timezone

from audit.models import AuditAction, AuditEntry
from games import actions, sweeps
from games.kinds.rattenscharf import rules as rattenscharf
from games.kinds.rattenscharf.rules.strips import STRIP_IDS
from games.models import Actor, EndReason, Game, GameStatus, Move
from tests.factories import start_game

pytestmark = pytest.mark.django_db

# docs/rules/rattenscharf.md, Example 5's game R: red's first strip, then green's hand [20, 18].
GAME_R = [17, 20, 18, 24, 33, 41, 42]
RED_OPENS = {"action": "place", "strip": 17, "x": 2, "y": 0, "orientation": "h", "flip": False}
GREEN_FIRST = {"action": "place", "strip": 20, "x": -1, "y": 1, "orientation": "h", "flip": False}


def order(*first: int) -> list[int]:
    return [*first, *(s for s in STRIP_IDS if s not in first)]


@pytest.fixture
def duel(anna, bert) -> Game:
    """Game R after red's opening: green (Bert) to move with two strips, turn 2."""
    game = start_game([anna, bert], game="rattenscharf", order=order(*GAME_R))
    return actions.do_play_move(game.id, anna, 0, RED_OPENS)


def engine(game: Game):
    return rattenscharf.load(Game.objects.get(id=game.id).state)


def after_deadline(game: Game, minutes: int = 1):
    """A time machine parked just after ``game``'s deadline."""
    deadline = Game.objects.get(id=game.id).deadline
    return time_machine.travel(deadline + timedelta(minutes=minutes), tick=False)


def test_r34_a_deadline_at_turn_start_plays_both_strips_each_its_own_version(duel, anna):
    state = engine(duel)
    first = rattenscharf.timeout_action(state)
    second = rattenscharf.timeout_action(rattenscharf.apply(state, 1, first))
    with after_deadline(duel):
        assert sweeps.play_due_timeouts() == 1
        duel.refresh_from_db()
        assert duel.deadline > timezone.now()  # red's new turn has a fresh clock
    moves = list(Move.objects.filter(game=duel, number__gt=1).order_by("number"))
    assert [(m.number, m.seat, m.action) for m in moves] == [(2, 1, first), (3, 1, second)]
    assert all(m.automatic and m.actor == Actor.SERVICE for m in moves)
    assert duel.version == 3 and duel.current_seat == 0 and duel.round == 3
    # R33: only the move that ended the turn revealed the next hand.
    assert moves[0].revealed is None and moves[1].revealed == list(engine(duel).hand)


def test_r34_the_first_placement_does_not_renew_the_deadline(duel, bert):
    deadline = Game.objects.get(id=duel.id).deadline
    with time_machine.travel(deadline - timedelta(hours=1), tick=False):
        game = actions.do_play_move(duel.id, bert, 1, GREEN_FIRST)
    assert game.deadline == deadline and game.current_seat == 1
    expected = rattenscharf.timeout_action(engine(duel))
    assert expected["strip"] == 18  # the strip left in green's hand
    with time_machine.travel(deadline - timedelta(minutes=1), tick=False):
        assert sweeps.play_due_timeouts() == 0  # not due yet
    with after_deadline(duel):
        assert sweeps.play_due_timeouts() == 1
    automatic = Move.objects.get(game=duel, automatic=True)
    assert (automatic.number, automatic.seat, automatic.action) == (3, 1, expected)
    assert Game.objects.get(id=duel.id).current_seat == 0


def test_the_sweep_run_twice_plays_the_turn_once(duel):
    with after_deadline(duel):
        assert sweeps.play_due_timeouts() == 1
        assert sweeps.play_due_timeouts() == 0
    with after_deadline(duel, minutes=2):
        version = Game.objects.get(id=duel.id).version
        # A sweep that read the game before it moved acts not at all (the version guard).
        assert actions.do_play_timeout(duel.id, expected_version=1) is None
    assert Game.objects.get(id=duel.id).version == version == 3
    assert Move.objects.filter(game=duel, automatic=True).count() == 2


def test_r36_a_game_nobody_plays_abandons_itself_after_two_automatic_turns(anna, bert):
    game = start_game([anna, bert], game="rattenscharf", seed=4)
    with after_deadline(game):
        assert sweeps.play_due_timeouts() == 1  # turn 1: red's one strip
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE and game.version == 1
    with after_deadline(game):
        assert sweeps.play_due_timeouts() == 1  # turn 2: green's two strips, then it ends
    game.refresh_from_db()
    assert game.status == GameStatus.ABORTED and game.end_reason == EndReason.ABANDONED
    assert game.version == 3 and game.deadline is None and game.result is None
    assert list(Move.objects.filter(game=game).values_list("automatic", flat=True)) == [True] * 3
    with time_machine.travel(timezone.now() + timedelta(days=30), tick=False):
        assert sweeps.play_due_timeouts() == 0


def test_r36_one_absent_player_does_not_end_the_game(anna, bert):
    """Bert never moves: every second turn is automatic, never two in a row."""
    game = start_game([anna, bert], game="rattenscharf", seed=1)
    while Game.objects.get(id=game.id).round < 8:
        game = Game.objects.get(id=game.id)
        assert game.status == GameStatus.ACTIVE
        if game.current_seat == 0:
            action = rattenscharf.timeout_action(engine(game))  # Anna plays, carefully
            actions.do_play_move(game.id, anna, game.version, action)
        else:
            with after_deadline(game):
                assert sweeps.play_due_timeouts() == 1
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    automatic = Move.objects.filter(game=game, automatic=True)
    assert set(automatic.values_list("seat", flat=True)) == {1}
    assert set(automatic.values_list("round", flat=True)) == {2, 4, 6}


def test_a_moderator_forcing_the_automatic_move_plays_the_whole_turn(duel, moderator):
    game = actions.do_force_automatic_move(duel.id, moderator, version=1, reason="Away.")
    assert game.version == 3 and game.current_seat == 0
    moves = Move.objects.filter(game=duel, automatic=True).order_by("number")
    assert [(m.number, m.actor) for m in moves] == [(2, Actor.MODERATOR), (3, Actor.MODERATOR)]
    entry = AuditEntry.objects.get(action=AuditAction.FORCE_AUTOMATIC_MOVE)
    assert entry.extra["version"] == 1 and entry.extra["moves"] == [2, 3]


def test_a_moderator_extends_and_aborts_a_rattenscharf_game(duel, moderator):
    before = Game.objects.get(id=duel.id).deadline
    game = actions.do_extend_deadline(duel.id, moderator, 24, version=1, reason="Ill.")
    assert game.deadline == before + timedelta(hours=24)
    game = actions.do_abort_game(duel.id, moderator, version=1, reason="Cheating.")
    assert game.status == GameStatus.ABORTED
    table = Game.objects.get(id=duel.id).table_view(1)
    assert table["status"] == "aborted" and table["current_seat"] is None
    assert table["legal_actions"] == [] and "phase" not in table


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks are PostgreSQL's")
@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_play_each_turn_once(anna, bert, settings):
    """Exactly once with two concurrent sweeps (SKIP LOCKED, the version guard): each game's
    two automatic placements are played once, by one of them."""
    settings.GAMES_PER_USER_PER_DAY = settings.INVITATIONS_PER_USER_PER_DAY = 1000
    games = []
    for _ in range(12):
        game = start_game([anna, bert], game="rattenscharf", order=order(*GAME_R))
        games.append(actions.do_play_move(game.id, anna, 0, RED_OPENS).id)
    Game.objects.filter(id__in=games).update(deadline=timezone.now() - timedelta(minutes=1))
    start, counts = threading.Barrier(2), []

    def sweep():
        try:
            start.wait(timeout=10)
            counts.append(sweeps.play_due_timeouts())
        finally:
            connection.close()

    threads = [threading.Thread(target=sweep) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sum(counts) == len(games)
    automatic = Move.objects.filter(game_id__in=games, automatic=True)
    per_game = automatic.values("game_id").annotate(n=Count("id"))
    assert {row["game_id"]: row["n"] for row in per_game} == dict.fromkeys(games, 2)
    assert set(Game.objects.filter(id__in=games).values_list("version", flat=True)) == {3}
