"""Benchmark of a league's creation: a 20-player round robin (190 games), server time.

Times, on a fresh SQLite test database (``piratz_site.settings_test``), in-process:
``do_create_league`` for 20 players (19 invitations), and the last acceptance, which makes
the schedule (190 ``LeagueGame`` rows) and starts the first games: with ``max_running``
1 (10 games start), 2 (20) and 19 (all 190, the worst case). Wall and CPU seconds, the
median of ``--runs`` runs each. See BENCHMARKS.md ("Leagues"). Not a test.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "piratz_site.settings_test")

import django  # noqa: E402

django.setup()

from django.test.utils import setup_databases, teardown_databases  # noqa: E402

from accounts.models import User  # noqa: E402
from leagues import actions  # noqa: E402
from leagues.models import LeagueGame  # noqa: E402

PLAYERS = 20


def one_run(number: int, max_running: int) -> tuple[float, float, float, float, int, int]:
    """Create a league and accept it; (create wall, create CPU, start wall, start CPU,
    schedule rows, games started)."""
    people = [User.objects.create_user(f"p{number}-{i}@example.com") for i in range(PLAYERS)]
    wall, cpu = time.perf_counter(), time.process_time()
    league = actions.do_create_league(
        people[0],
        name=f"Bench {number}",
        players=[p.email for p in people],
        max_running=max_running,
    )
    create = (time.perf_counter() - wall, time.process_time() - cpu)
    members = list(league.members.filter(accepted_at=None))
    for member in members[:-1]:
        actions.do_answer_invitation(member.pk, True)
    wall, cpu = time.perf_counter(), time.process_time()
    actions.do_answer_invitation(members[-1].pk, True)
    start = (time.perf_counter() - wall, time.process_time() - cpu)
    rows = LeagueGame.objects.filter(league=league)
    return (*create, *start, rows.count(), rows.filter(status="started").count())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    old = setup_databases(verbosity=0, interactive=False)
    try:
        number = 0
        for max_running in (1, 2, 19):
            results = []
            for _ in range(args.runs):
                number += 1
                # A fresh organiser each run: the daily cap counts leagues per organiser.
                results.append(one_run(number, max_running))
            med = [statistics.median(r[i] for r in results) for i in range(4)]
            print(
                f"max_running={max_running:2d}: create {med[0] * 1000:7.1f} ms "
                f"(CPU {med[1] * 1000:7.1f}); start {med[2] * 1000:7.1f} ms "
                f"(CPU {med[3] * 1000:7.1f}); {results[0][4]} scheduled, "
                f"{results[0][5]} started"
            )
    finally:
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    main()
