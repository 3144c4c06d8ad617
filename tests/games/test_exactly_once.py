"""Exactly once with real processes: several workers and beats, and a worker killed mid-sweep.

The workers and beats are real ``celery`` processes with the production settings, on a
real Redis broker (``TEST_REDIS_URL``) and the live PostgreSQL test database; emails go
over SMTP to a sink on 127.0.0.1. Every timeout must be played once and every email sent
once, however many sweeps run at the same time.
"""

from datetime import timedelta
from types import SimpleNamespace

import pytest
import redis
from django.db import connection
from django.db.models import Count
from django.utils import timezone

from games.models import Game, Move
from notifications.models import SENDING_TIMEOUT, OutboundEmail
from notifications.outbox import requeue_stuck_emails
from tests.factories import start_game
from tests.processes import (
    CeleryProcess,
    SmtpSink,
    clone_games,
    create_cache_table,
    service_env,
    stop_together,
    wait_until,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="several worker processes share one database: PostgreSQL (the CI's first run)",
    ),
]

Status = OutboundEmail.Status


@pytest.fixture
def machinery(redis_url, tmp_path):
    """Start workers and beats with ``start(kind, name, ...)``; all stopped at the end."""
    broker = redis.Redis.from_url(redis_url)
    broker.flushdb()  # a queue left by an aborted run would name rows of another test
    sink = SmtpSink().start()
    env = service_env(broker_url=redis_url, smtp_port=sink.port)
    create_cache_table(env)
    started: list[CeleryProcess] = []

    def start(kind: str, name: str, **options) -> CeleryProcess:
        process = getattr(CeleryProcess, kind)(name, env, tmp_path, **options).start()
        started.append(process)
        return process

    try:
        yield SimpleNamespace(start=start, sink=sink)
    finally:
        stop_together(started, grace=3)
        sink.stop()
        broker.flushdb()


def overdue_games(anna, bert, count: int) -> list:
    """``count`` active two-player games whose deadline passed a minute ago."""
    template = start_game([anna, bert], seed=None)
    games = clone_games(template, count - 1, deadline=timezone.now() - timedelta(minutes=1))
    Game.objects.filter(id=template.id).update(deadline=timezone.now() - timedelta(minutes=1))
    return [template.id, *(game.id for game in games)]


def played(game_ids) -> int:
    return Game.objects.filter(id__in=game_ids, version__gt=0).count()


def writing_transactions() -> int:
    """Open transactions of other connections to this database that have written a row."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND backend_xid IS NOT NULL"
        )
        return cursor.fetchone()[0]


def moves_per_game(game_ids) -> dict:
    counts = Move.objects.filter(game_id__in=game_ids).values("game_id").annotate(n=Count("id"))
    return {row["game_id"]: row["n"] for row in counts}


def games_due_a_reminder(anna, bert, count: int) -> list:
    """``count`` active games whose deadline is an hour away, their reminders due (24 h, 2 h)."""
    template = start_game([anna, bert], seed=None)
    games = [template, *clone_games(template, count - 1)]
    ids = [game.id for game in games]
    Game.objects.filter(id__in=ids).update(
        deadline=timezone.now() + timedelta(hours=1),
        next_reminder_at=timezone.now() - timedelta(minutes=1),
        reminder_leads_sent=[],
    )
    return ids


def test_two_workers_and_two_beats_play_each_timeout_once_and_send_each_email_once(
    machinery, anna, bert, settings
):
    # The clones count as games Anna created and invitations she sent today.
    settings.GAMES_PER_USER_PER_DAY = settings.INVITATIONS_PER_USER_PER_DAY = 1000
    game_ids = overdue_games(anna, bert, 50)
    reminded_ids = games_due_a_reminder(anna, bert, 30)
    since = timezone.now()
    processes = [
        machinery.start("worker", "w1"),
        machinery.start("worker", "w2"),
        machinery.start("beat", "b1"),
        machinery.start("beat", "b2"),
    ]
    for process in processes:
        process.wait_ready()

    wait_until(lambda: played(game_ids) == len(game_ids), 45, "every timeout to be played")
    reminders = OutboundEmail.objects.filter(created_at__gte=since, template="reminder")
    wait_until(lambda: reminders.count() >= len(reminded_ids), 30, "every reminder")
    emails = OutboundEmail.objects.filter(created_at__gte=since)
    wait_until(
        lambda: (
            not emails.exclude(status=Status.SENT).exists()
            and machinery.sink.count() == emails.count()
        ),
        30,
        "every email to be sent",
    )
    # Both beats keep sending sweeps every second; they must find nothing more to do.
    sent_so_far = [
        beat.output().count("Sending due task play-due-timeouts") for beat in processes[2:]
    ]
    wait_until(
        lambda: all(
            beat.output().count("Sending due task play-due-timeouts") >= sent + 3
            for beat, sent in zip(processes[2:], sent_so_far, strict=True)
        ),
        15,
        "three more sweeps from each beat",
    )
    stop_together(processes, grace=20)  # warm: the asserts below read what they left

    assert moves_per_game(game_ids) == dict.fromkeys(game_ids, 1)
    assert set(Game.objects.filter(id__in=game_ids).values_list("version", flat=True)) == {1}
    # One reminder per game (both leads were due: one email covers them), none left due.
    assert sorted(reminders.values_list("topic", flat=True)) == sorted(
        f"game:{game_id}" for game_id in reminded_ids
    )
    assert not Game.objects.filter(id__in=reminded_ids, next_reminder_at__isnull=False).exists()
    assert moves_per_game(reminded_ids) == {}
    assert emails.count() >= len(game_ids) + len(reminded_ids)
    assert set(emails.values_list("status", "attempts")) == {(Status.SENT, 1)}
    assert machinery.sink.count() == emails.count()  # nothing sent twice
    # Both workers ran sweeps, and both beats sent them: the work really was shared.
    for worker in processes[:2]:
        assert "Task games.tasks.play_due_timeouts[" in worker.output()
    for beat in processes[2:]:
        assert "Sending due task play-due-timeouts" in beat.output()


def test_a_worker_killed_mid_sweep_loses_nothing_and_doubles_nothing(machinery, anna, bert):
    game_ids = overdue_games(anna, bert, 80)
    since = timezone.now()
    beat = machinery.start("beat", "b1")
    worker = machinery.start("worker", "w1", concurrency=1)
    beat.wait_ready()

    # SIGKILL the worker (and its pool) halfway through the sweep, at the worst moment: its
    # transaction for one game has written (the move) but not committed.
    at_kill = wait_until(
        lambda: (
            (0 < (count := played(game_ids)) < len(game_ids) - 20)
            and writing_transactions()
            and count
        ),
        45,
        "the sweep to be under way, a game's transaction written but not committed",
        every=0.002,
    )
    worker.kill()
    killed_at = timezone.now()
    after_kill = played(game_ids)
    assert at_kill <= after_kill < len(game_ids)  # the kill left work undone
    assert set(moves_per_game(game_ids).values()) == {1}  # and nothing half-done twice

    # A fresh worker: the next sweeps play everything left, once.
    machinery.start("worker", "w2")
    wait_until(lambda: played(game_ids) == len(game_ids), 45, "the rest of the timeouts")
    assert moves_per_game(game_ids) == dict.fromkeys(game_ids, 1)
    assert set(Game.objects.filter(id__in=game_ids).values_list("version", flat=True)) == {1}

    # Emails: one the killed worker was sending stays "sending" until the outbox's timeout
    # gives it back (at least once: it may have gone out); we jump past that timeout.
    emails = OutboundEmail.objects.filter(created_at__gte=since)
    wait_until(
        lambda: not emails.filter(status=Status.PENDING).exists(), 45, "the emails to be sent"
    )
    # The new worker may still be sending the last one it claimed (composing a turn email
    # takes it a few queries): only the killed worker's claims stay "sending".
    wait_until(
        lambda: not emails.filter(status=Status.SENDING, claimed_at__gte=killed_at).exists(),
        45,
        "the new worker's sends to end",
    )
    stuck = emails.filter(status=Status.SENDING).count()
    assert stuck <= 1  # concurrency 1: at most the one in hand at the kill
    requeue_stuck_emails(timezone.now() + SENDING_TIMEOUT + timedelta(seconds=1))
    wait_until(lambda: not emails.exclude(status=Status.SENT).exists(), 30, "the requeued email")
    assert emails.count() >= len(game_ids)
    assert emails.count() <= machinery.sink.count() <= emails.count() + stuck
