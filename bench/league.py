"""Benchmark of a league's creation: a 20-player round robin (190 games), server time.

Times, on a fresh SQLite test database (``piratz_site.settings_test``), in-process, three
steps: ``do_create_league`` for 20 players (19 invitations); the last acceptance, the
request that makes the schedule (190 ``LeagueGame`` rows) and queues the start (the
task's ``delay`` is recorded, not run); and that task, ``advance_league``, which starts
the due games in batches of ``START_BATCH``, each its own transaction (the longest batch
is how long the league's row lock is held). With ``max_running`` 1 (10 games start), 2
(20) and 19 (all 190, the worst case). Emails are queued, not sent (as in production,
where a worker sends them). Wall and CPU seconds, the median of ``--runs`` runs each.
See BENCHMARKS.md ("Leagues"). Not a test.
"""

import argparse
import logging
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "piratz_site.settings_test")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.test.utils import setup_databases, teardown_databases  # noqa: E402

from accounts.models import User  # noqa: E402
from core.tasks import task_named  # noqa: E402
from leagues import actions  # noqa: E402
from leagues.models import LeagueGame  # noqa: E402

PLAYERS = 20


def _timed[T](call: Callable[..., T], *args, **kwargs) -> tuple[T, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = call(*args, **kwargs)
    return result, time.perf_counter() - wall, time.process_time() - cpu


def one_run(number: int, max_running: int) -> dict[str, float | int]:
    """Create a league, accept it, run the start task; the times and counts of each."""
    people = [User.objects.create_user(f"p{number}-{i}@example.com") for i in range(PLAYERS)]
    league, create_wall, create_cpu = _timed(
        actions.do_create_league,
        people[0],
        name=f"Bench {number}",
        players=[p.email for p in people],
        max_running=max_running,
    )
    members = list(league.members.filter(accepted_at=None))
    for member in members[:-1]:
        actions.do_answer_invitation(member.pk, True)
    task = task_named("leagues.tasks.advance_league")
    with mock.patch.object(task, "delay") as delay:
        _, accept_wall, accept_cpu = _timed(actions.do_answer_invitation, members[-1].pk, True)
    assert delay.call_count == 1, "the last acceptance queues the start once"
    scheduled = LeagueGame.objects.filter(league=league).count()
    batches: list[float] = []
    advance_once = actions._advance_once

    def timed_batch(*args):
        started, wall, _cpu = _timed(advance_once, *args)
        batches.append(wall)
        return started

    with mock.patch.object(actions, "_advance_once", timed_batch):
        started, start_wall, start_cpu = _timed(actions.advance_league, *delay.call_args.args)
    return {
        "create": create_wall,
        "create_cpu": create_cpu,
        "accept": accept_wall,
        "accept_cpu": accept_cpu,
        "start": start_wall,
        "start_cpu": start_cpu,
        "batch_max": max(batches),
        "batches": len(batches),
        "scheduled": scheduled,
        "started": started,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    # Queued emails stay queued (a worker sends them in production), not sent in-process.
    settings.OUTBOX_EAGER_SEND_ON_COMMIT = False
    logging.disable(logging.INFO)  # one "game started" line per game would drown the table
    old = setup_databases(verbosity=0, interactive=False)
    print(f"{PLAYERS} players, round robin, START_BATCH={actions.START_BATCH}, ms (CPU ms)")
    try:
        number = 0
        for max_running in (1, 2, 19):
            results = []
            for _ in range(args.runs):
                number += 1
                # A fresh organiser each run: the daily cap counts leagues per organiser.
                results.append(one_run(number, max_running))
            med = {key: statistics.median(r[key] for r in results) for key in results[0]}
            print(
                f"max_running={max_running:2d}: "
                f"create {med['create'] * 1000:6.1f} ({med['create_cpu'] * 1000:6.1f}); "
                f"last acceptance {med['accept'] * 1000:6.1f} ({med['accept_cpu'] * 1000:6.1f}),"
                f" {med['scheduled']:.0f} scheduled; "
                f"start task {med['start'] * 1000:7.1f} ({med['start_cpu'] * 1000:7.1f}), "
                f"{med['started']:.0f} started in {med['batches']:.0f} batches, "
                f"longest {med['batch_max'] * 1000:6.1f}"
            )
    finally:
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    main()
