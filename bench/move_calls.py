"""Python calls per move, by step: where a move's work goes, in a count the machine's load
does not change (docs/decisions/0009-the-cost-of-a-move.md).

Plays ``--games`` four-player Piratz games in-process through the Django test client as
``bench/api.py``'s players do (each move's POST, and the next player's game GET when the
turn passes), on a fresh PostgreSQL database (dropped at the end) with the cache on Redis,
and counts every Python and C call made inside those requests under the innermost step on
the stack that ``STEPS`` names. Prints calls per move by step, and the thread's CPU time
per move measured in a second, unhooked pass over fresh games.

    .venv/bin/python bench/move_calls.py [--games 4] [--database-url postgres://...]
"""

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import api  # noqa: E402  (standard library until setup_django)

# (test on the function name and file, step): the innermost matching frame names the step.
STEPS = (
    (lambda name, path: "/games/kinds/" in path and "/rules/" in path, "engine"),
    (lambda name, path: name == "authenticate", "API key"),
    (lambda name, path: name == "check_throttles", "throttles"),
    (lambda name, path: name == "lock_game_with_seats", "lock the game, read its seats"),
    (lambda name, path: name == "get_viewing", "GET: read the game and its seats"),
    (lambda name, path: name == "_apply", "the move's writes, emails, events"),
    (lambda name, path: name == "start_turn", "next turn's deadline"),
    (lambda name, path: name == "queue_turn_email", "turn email's outbox row"),
    (lambda name, path: name == "do_play_move", "the move's checks"),
    (lambda name, path: name == "run_and_clear_commit_hooks", "on_commit hooks"),
    (lambda name, path: name == "game_representation", "the answer's view"),
    (lambda name, path: name == "rendered_content", "JSON rendering"),
    (lambda name, path: name == "resolve" and "django/urls" in path, "URL resolving"),
    (lambda name, path: name in ("process_request", "process_response"), "middleware"),
    (lambda name, path: name == "__call__" and "iddleware" in path, "middleware"),
    # The innermost middleware calls the view: what the view does outside the steps above
    # is DRF's and ours, not the middleware's.
    (lambda name, path: name == "dispatch" and "rest_framework" in path, "the view (other)"),
)


class StepCounter:
    """A ``sys.setprofile`` hook: calls counted under the innermost step on the stack."""

    def __init__(self):
        self.calls: Counter = Counter()
        self.stack: list[str | None] = []

    def _step_of(self, code) -> str | None:
        for test, step in STEPS:
            if test(code.co_name, code.co_filename):
                return step
        return None

    def _current(self) -> str:
        return next((step for step in reversed(self.stack) if step), "framework (other)")

    def __call__(self, frame, event, arg):
        if event == "call":
            self.stack.append(self._step_of(frame.f_code))
            self.calls[self._current()] += 1
        elif event == "return" and self.stack:
            self.stack.pop()
        elif event == "c_call":
            self.calls[self._current()] += 1

    def __enter__(self):
        self.stack.clear()
        sys.setprofile(self)

    def __exit__(self, *exc_info):
        sys.setprofile(None)


def play(games, counter: StepCounter | None, seed: int) -> tuple[int, float]:
    """Play ``games`` to their end; return the moves made and the thread CPU seconds spent
    in the requests (hooked by ``counter`` when given)."""
    from contextlib import nullcontext

    from django.test import Client

    from games.kinds.piratz.rules.bots import random_action

    rng, moves, cpu = random.Random(seed), 0, 0.0
    for game in games:
        clients = [
            Client(SERVER_NAME=api.HOST, headers={"Authorization": f"Token {key}"})
            for key in game.keys
        ]
        for client in clients:
            client.get("/api/games/")  # the key's hourly "last used" write, not counted
        detail = f"/api/games/{game.id}/"
        body = clients[0].get(detail).json()
        mover = body["state"]["current_seat"]
        while body["status"] == "active":
            action = random_action(body["state"]["legal_actions"], rng, 0.7)
            start = time.thread_time()
            with counter or nullcontext():
                answer = api.move_post(clients[mover], f"{detail}moves/", body["version"], action)
            cpu += time.thread_time() - start
            if answer.status_code != 200:
                raise api.BenchError(f"move refused: {answer.status_code} {answer.content!r}")
            moves += 1
            body = answer.json()
            following = body["state"]["current_seat"]
            if body["status"] == "active" and following != mover:
                mover = following
                start = time.thread_time()
                with counter or nullcontext():
                    body = api.next_player_get(clients[mover], detail).json()
                cpu += time.thread_time() - start
    return moves, cpu


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games per pass (default 4)")
    parser.add_argument(
        "--database-url", default="postgres://postgres@127.0.0.1:5432/piratz_bench_calls"
    )
    parser.add_argument("--cache-url", default="redis://127.0.0.1:6379/13")
    args = parser.parse_args(argv)
    with api.django_on_fresh_database(args.database_url, args.cache_url):
        counter = StepCounter()
        moves, _ = play(api.create_games(args.games, 4, "calls"), counter, seed=5)
        unhooked, cpu = play(api.create_games(args.games, 4, "cpu"), None, seed=6)
        total = sum(counter.calls.values())
        print(f"{moves} moves counted; Python calls per move (with its share of GETs):")
        for step, calls in counter.calls.most_common():
            print(f"  {step:40} {calls / moves:8.0f}  {calls / total:6.1%}")
        print(f"  {'total':40} {total / moves:8.0f}")
        print(f"thread CPU per move, unhooked ({unhooked} moves): {cpu / unhooked * 1000:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
