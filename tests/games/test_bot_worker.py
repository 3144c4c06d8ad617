"""A game with three bots and one human runs to its end through the service and a real
Celery worker: each move that hands the turn to a bot publishes the bot's task after
commit (Redis, ``TEST_REDIS_URL``), the worker plays it and publishes the next one.

PostgreSQL only: the worker process shares the test database (the CI's first run).
"""

from types import SimpleNamespace

import pytest
import redis
from django.db import connection

from games import actions
from games.models import Actor, Game, GameStatus, Move
from tests.processes import (
    CeleryProcess,
    SmtpSink,
    celery_app_on,
    create_cache_table,
    service_env,
    wait_until,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="a worker process shares the test database: PostgreSQL (the CI's first run)",
    ),
]


@pytest.fixture
def worker(redis_url, tmp_path):
    broker = redis.Redis.from_url(redis_url)
    broker.flushdb()
    sink = SmtpSink().start()
    env = service_env(broker_url=redis_url, smtp_port=sink.port, BOT_MOVE_DELAY_SECONDS="0")
    create_cache_table(env)
    process = CeleryProcess.worker("bots", env, tmp_path).start()
    try:
        process.wait_ready()
        with celery_app_on(redis_url):  # this process publishes to the worker's broker
            yield SimpleNamespace(process=process)
    finally:
        process.stop()
        sink.stop()
        broker.flushdb()


def anna_plays_until_the_end(worker, game: Game, anna, choose, *, turns: int) -> None:
    """Anna (seat 0) plays ``choose(row)`` on each of her turns while the worker plays the
    bots', until the game ends (at most ``turns`` of hers); the game finished, with one move
    per version (no task acted twice)."""

    def waits_for_anna_or_ended() -> bool:
        row = Game.objects.get(id=game.id)
        return row.status != GameStatus.ACTIVE or row.current_seat == 0

    for _ in range(turns):
        wait_until(waits_for_anna_or_ended, 30, "the bots to play up to Anna's turn")
        row = Game.objects.get(id=game.id)
        if row.status != GameStatus.ACTIVE:
            break
        actions.do_play_move(game.id, anna, row.version, choose(row))
    row = Game.objects.get(id=game.id)
    assert row.status == GameStatus.FINISHED, worker.process.output()[-3000:]
    assert Move.objects.filter(game=game).count() == row.version  # no task acted twice


def test_three_bots_and_a_human_play_a_whole_game_with_a_worker(worker, anna):
    game = actions.do_create_game(anna, [anna.email, "bot:careful", "bot:random", "bot:strong"])

    def anna_passes_when_she_can(row: Game) -> dict:  # the game moves on quickly
        legal = row.rules.legal_actions(row.load_state(), 0)
        return next((a for a in legal if a["action"] in ("pass", "resolve_alarm")), legal[0])

    anna_plays_until_the_end(worker, game, anna, anna_passes_when_she_can, turns=500)
    moves = Move.objects.filter(game=game)
    bot_moves = moves.exclude(seat=0)
    assert bot_moves.count() > 0
    assert set(bot_moves.values_list("actor", "automatic").distinct()) == {(Actor.BOT, False)}
    assert set(moves.filter(seat=0).values_list("actor", flat=True)) == {Actor.PLAYER}


def test_a_rattenscharf_bot_plays_its_two_strip_turns_with_a_worker(worker, anna):
    """A strong bot's turn is two moves: the worker plays the first, which schedules the
    second (R17, R34); Anna lays R35's choice for her strips."""
    game = actions.do_create_game(anna, [anna.email, "bot:strong"], game="rattenscharf")

    # 42 strips at most; Anna lays R35's choice.
    anna_plays_until_the_end(
        worker, game, anna, lambda row: row.rules.timeout_action(row.load_state()), turns=60
    )
    moves = Move.objects.filter(game=game)
    bot_moves = moves.filter(seat=1)
    assert set(bot_moves.values_list("actor", "automatic").distinct()) == {(Actor.BOT, False)}
    turns = list(bot_moves.values_list("round", flat=True))
    assert any(turns.count(turn) == 2 for turn in set(turns))  # whole two-strip turns
