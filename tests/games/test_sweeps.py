"""The deadline sweep: overdue games get their automatic move once, the others are left alone."""

import logging
import threading
import time
from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from games import actions, sweeps, tasks
from games.models import Actor, EndReason, Game, GameStatus, Move
from piratz_site.celery import app
from tests.factories import make_user, start_game

pytestmark = pytest.mark.django_db

needs_postgres = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks and query plans are PostgreSQL's"
)


def make_overdue(*games: Game, by: timedelta = timedelta(minutes=1)) -> None:
    for game in games:
        Game.objects.filter(id=game.id).update(deadline=timezone.now() - by)


def versions(*games: Game) -> list[int]:
    return [Game.objects.get(id=game.id).version for game in games]


class TestPlayDueTimeouts:
    def test_each_overdue_game_gets_one_automatic_move(self, anna, bert, carla):
        overdue = [start_game([anna, bert]) for _ in range(3)]
        waiting = start_game([anna, carla])
        make_overdue(*overdue)

        assert sweeps.play_due_timeouts() == 3
        assert sweeps.play_due_timeouts() == 0  # the moves set new deadlines

        assert versions(*overdue, waiting) == [1, 1, 1, 0]
        moves = Move.objects.filter(game__in=overdue)
        assert {(m.automatic, m.actor, m.seat) for m in moves} == {(True, Actor.SERVICE, 0)}

    def test_limit_takes_the_most_overdue_first(self, anna, bert):
        games = [start_game([anna, bert]) for _ in range(3)]
        for hours, game in zip([1, 3, 2], games, strict=True):
            make_overdue(game, by=timedelta(hours=hours))

        assert sweeps.play_due_timeouts(limit=2) == 2
        assert versions(*games) == [0, 1, 1]
        assert sweeps.play_due_timeouts(limit=2) == 1
        assert versions(*games) == [1, 1, 1]

    def test_games_that_are_not_active_are_left_alone(self, anna, bert):
        finished, invited = start_game([anna, bert]), start_game([anna, bert])
        past = timezone.now() - timedelta(hours=1)
        Game.objects.filter(id=finished.id).update(status=GameStatus.FINISHED, deadline=past)
        Game.objects.filter(id=invited.id).update(status=GameStatus.INVITED, deadline=past)

        assert sweeps.play_due_timeouts() == 0
        assert not Move.objects.exists()

    def test_a_failing_game_is_logged_and_does_not_block_the_others(
        self, anna, bert, monkeypatch, caplog
    ):
        broken, *others = [start_game([anna, bert]) for _ in range(3)]
        make_overdue(broken, by=timedelta(hours=2))  # the first one claimed
        make_overdue(*others)
        real = actions.do_play_timeout

        def fails_for_broken(game_id, **kwargs):
            if game_id == broken.id:
                raise RuntimeError("corrupt state")
            return real(game_id, **kwargs)

        monkeypatch.setattr(sweeps.actions, "do_play_timeout", fails_for_broken)
        with caplog.at_level(logging.ERROR, logger="games.sweeps"):
            assert sweeps.play_due_timeouts() == 2

        assert versions(broken, *others) == [0, 1, 1]
        assert str(broken.id) in caplog.text and "corrupt state" in caplog.text
        monkeypatch.setattr(sweeps.actions, "do_play_timeout", real)
        assert sweeps.play_due_timeouts() == 1  # left for the next sweep, not lost

    def test_the_periodic_task_runs_the_sweep(self, anna, bert):
        game = start_game([anna, bert])
        make_overdue(game)
        assert tasks.play_due_timeouts() == 1
        assert versions(game) == [1]

    def test_a_full_batch_sends_the_task_again_until_the_backlog_is_gone(
        self, anna, bert, monkeypatch
    ):
        games = [start_game([anna, bert]) for _ in range(5)]
        make_overdue(*games)
        monkeypatch.setattr(tasks, "DEADLINE_SWEEP_BATCH_SIZE", 2)
        runs = []
        sweep = sweeps.play_due_timeouts
        monkeypatch.setattr(sweeps, "play_due_timeouts", lambda **kw: runs.append(1) or sweep(**kw))

        # Tasks run eagerly in the tests: the follow-up tasks run inside this call.
        assert tasks.play_due_timeouts.delay().get() == 2
        assert versions(*games) == [1] * 5
        assert len(runs) == 3  # 2 + 2 + 1: the last batch was not full, no fourth run

    def test_a_game_nobody_plays_runs_on_by_itself_and_ends_abandoned(self, anna, bert):
        # Rules P24: each passed deadline plays the automatic move; P25: when a whole round
        # went by without a single move by a player, the game is aborted as abandoned.
        # Only the clock and the sweep act here.
        game = start_game([anna, bert], turn_hours=24)
        sweeps_run = 0
        while game.status == GameStatus.ACTIVE and sweeps_run < 500:
            with time_machine.travel(game.deadline + timedelta(seconds=1), tick=False):
                assert sweeps.play_due_timeouts() == 1
                assert sweeps.play_due_timeouts() == 0
            sweeps_run += 1
            game.refresh_from_db()

        assert (game.status, game.end_reason) == (GameStatus.ABORTED, EndReason.ABANDONED)
        moves = list(Move.objects.filter(game=game).order_by("number"))
        assert len(moves) == sweeps_run == game.version
        assert {(m.automatic, m.actor) for m in moves} == {(True, Actor.SERVICE)}
        assert {m.seat for m in moves} == {0, 1}  # both players' turns were played for them
        assert moves[-1].round == 1  # the first round without a player move ends it
        # A day per move: the clock moved by each turn's length, not more.
        assert moves[-1].at - moves[0].at == timedelta(hours=24, seconds=1) * (len(moves) - 1)


@needs_postgres
class TestOnPostgres:
    @pytest.mark.django_db
    def test_the_claim_reads_the_partial_index(self):
        # Another partial index covers active games too (game_active_current_seat): with an
        # empty table the two cost the same and the planner may take either. Active games
        # whose deadlines are far off, analysed, make the table what production's is: the
        # deadline index finds the due ones without reading the rest.
        later, host = timezone.now() + timedelta(days=30), make_user("host@example.com")
        Game.objects.bulk_create(
            Game(game="piratz", status=GameStatus.ACTIVE, deadline=later, current_seat=0, host=host)
            for _ in range(500)
        )
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE games_game")
        queryset = sweeps.due_games(timezone.now()).select_for_update(skip_locked=True)
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_seqscan = off")
            plan = queryset.explain()
        assert "game_active_deadline" in plan

    @pytest.mark.django_db(transaction=True)
    def test_a_game_another_sweep_holds_is_skipped_not_waited_for(self, anna, bert):
        held, free = start_game([anna, bert]), start_game([anna, bert])
        make_overdue(held, by=timedelta(hours=2))
        make_overdue(free)
        locked, release = threading.Event(), threading.Event()

        def other_sweep_holds_it():
            try:
                with transaction.atomic():
                    Game.objects.select_for_update().get(id=held.id)
                    locked.set()
                    release.wait(timeout=30)
            finally:
                connection.close()

        holder = threading.Thread(target=other_sweep_holds_it)
        holder.start()
        try:
            assert locked.wait(timeout=10)
            started = time.monotonic()
            assert sweeps.play_due_timeouts() == 1
            assert time.monotonic() - started < 5  # did not queue behind the held row
            assert versions(held, free) == [0, 1]
        finally:
            release.set()
            holder.join(timeout=30)
        assert sweeps.play_due_timeouts() == 1
        assert versions(held, free) == [1, 1]


class TestBeatSchedule:
    def test_every_sweep_is_scheduled_and_expires_by_its_next_run(self):
        schedule = settings.CELERY_BEAT_SCHEDULE
        app.loader.import_default_modules()  # autodiscovers every app's tasks.py
        for name, entry in schedule.items():
            assert entry["task"] in app.tasks, name
            assert 0 < entry["options"]["expires"] <= entry["schedule"], name
        scheduled = {entry["task"] for entry in schedule.values()}
        assert {
            "games.tasks.play_due_timeouts",
            "games.tasks.send_due_reminders",
            "games.tasks.send_due_digests",
            "games.tasks.cancel_expired_invitations",
            "notifications.tasks.send_due_emails",
        } <= scheduled
        every = {name: entry["schedule"] for name, entry in schedule.items()}
        assert every["play-due-timeouts"] == every["send-due-reminders"] == 60
        assert every["send-due-emails"] == 60 and every["send-due-digests"] == 5 * 60

    def test_the_reminder_and_digest_tasks_run_their_sweeps(self, monkeypatch):
        calls = []
        monkeypatch.setattr(sweeps, "send_due_reminders", lambda: calls.append("r") or 2)
        monkeypatch.setattr(sweeps, "send_due_digests", lambda: calls.append("d") or 3)
        assert (tasks.send_due_reminders(), tasks.send_due_digests()) == (2, 3)
        assert calls == ["r", "d"]
