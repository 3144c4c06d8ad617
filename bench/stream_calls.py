"""Python calls per table stream event in the stream server: what each open stream costs a
move, in a count the machine's load does not change (BENCHMARKS.md "Table streams").

Sets up as ``bench/streams.py`` does (a fresh PostgreSQL database, a ``redis-server`` of its
own for the news bus and the cache, two-player games with a signed-in stream per seat),
but serves ``piratz_site.asgi`` with uvicorn inside a child process of this script
(``--serve``) whose event loop thread carries a ``sys.setprofile`` hook. While ``--moves``
moves are committed here and their events read back, the hook counts every Python and C
call of the server's loop; the script prints the calls per delivered stream event, and the
modules they were made in.

    .venv/bin/python bench/stream_calls.py [--streams 200] [--streams-per-seat 1] [--moves 60]
        [--idle-seconds 0] [--functions 20] [--database-url ...]
"""

import argparse
import asyncio
import json
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api import DEFAULT_DATABASE_URL, django_on_fresh_database  # noqa: E402
from bench.streams import OPENING_AT_ONCE, Streams, create_seats, raise_open_files  # noqa: E402
from tests import servers  # noqa: E402

# Where a call was made, by the first of these found in its file's path (else "other").
AREAS = (
    ("redis/", "redis client (the news bus's receive)"),
    ("django/core/handlers/", "Django's ASGI handler"),
    ("django/http/", "Django's response"),
    ("/games/", "the stream (games.views.live)"),
    ("uvicorn/", "uvicorn"),
    ("h11/", "h11"),
    ("asyncio/", "asyncio"),
    ("asgiref/", "asgiref"),
)


# Libraries whose calls are counted as their caller's.
OWNED = ("asyncio/", "redis/", "/typing.py", "/contextlib.py", "/abc.py", "/functools.py")


class CallCounter:
    """A ``sys.setprofile`` hook counting calls by area while ``on``."""

    def __init__(self):
        self.on = False
        self.calls: Counter = Counter()
        self.functions: Counter = Counter()
        self.owners: Counter = Counter()

    @staticmethod
    def _owner(frame) -> str:
        """The innermost caller on the stack outside asyncio and the redis client: whose
        work the call is (the event loop's own when there is none)."""
        while frame is not None:
            code = frame.f_code
            path = code.co_filename
            if not any(part in path for part in OWNED):
                return f"{Path(path).parent.name}/{Path(path).name}:{code.co_name}"
            frame = frame.f_back
        return "the event loop"

    def __call__(self, frame, event, arg):
        if not self.on or event not in ("call", "c_call"):
            return
        path = frame.f_code.co_filename
        area = next((name for part, name in AREAS if part in path), "other")
        self.calls[area] += 1
        self.owners[self._owner(frame)] += 1
        if event == "call":
            where = f"{Path(path).parent.name}/{Path(path).name}"
            self.functions[f"{where}:{frame.f_code.co_name}"] += 1
        else:
            self.functions[f"{area} C: {getattr(arg, '__qualname__', arg)}"] += 1


def serve(port: int, report: str) -> None:
    """``--serve``: uvicorn in this process's main thread, counting between SIGUSR1 and
    SIGUSR2 (which writes the counts to ``report`` as JSON)."""
    import uvicorn

    counter = CallCounter()

    def start(signum, frame):
        counter.calls.clear()
        counter.functions.clear()
        counter.owners.clear()
        counter.on = True

    def stop(signum, frame):
        counter.on = False
        Path(report).write_text(
            json.dumps(
                {
                    "calls": counter.calls,
                    "functions": counter.functions.most_common(40),
                    "owners": counter.owners.most_common(40),
                }
            )
        )

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    config = uvicorn.Config(
        "piratz_site.asgi:application",
        host=servers.HOST,
        port=port,
        access_log=False,
        proxy_headers=False,
        log_level="warning",
        lifespan="off",
    )
    sys.setprofile(counter)
    uvicorn.Server(config).run()


async def play(args, seats, port: int, server: subprocess.Popen, report: Path) -> None:
    from games import actions
    from games.models import Game

    streams = Streams(port)
    gate = asyncio.Semaphore(OPENING_AT_ONCE)
    await asyncio.gather(
        *(
            streams.open(game, session, gate)
            for game, _, session in seats
            for _ in range(args.streams_per_seat)
        )
    )
    print(f"streams: {streams.opened} open, {streams.failed} refused")
    await asyncio.sleep(2 + args.idle_seconds)  # the connects' presence news settle
    games = sorted({game for game, _, _ in seats})[: args.moves]
    events_before = streams.events
    server.send_signal(signal.SIGUSR1)
    await asyncio.sleep(0.2)
    for game_id in games:
        game = await asyncio.to_thread(Game.objects.get, id=game_id)
        action = game.rules.legal_actions(game.load_state(), game.current_seat)[0]
        player = await asyncio.to_thread(lambda g=game: g.seats.get(seat=g.current_seat).user)
        await asyncio.to_thread(actions.do_play_move, game.id, player, game.version, action)
        key, committed = (game_id, game.version + 1), time.monotonic()
        while key not in streams.arrivals and time.monotonic() - committed < 10:
            await asyncio.sleep(0.002)
    await asyncio.sleep(0.3)  # the last move's other stream
    server.send_signal(signal.SIGUSR2)
    delivered = streams.events - events_before
    for _ in range(100):
        if report.stat().st_size:
            break
        await asyncio.sleep(0.05)
    counts = json.loads(report.read_text())
    total = sum(counts["calls"].values())
    print(f"{len(games)} moves, {delivered} stream events delivered")
    print(f"calls per stream event in the server's loop: {total / max(delivered, 1):.0f}")
    for area, calls in sorted(counts["calls"].items(), key=lambda item: -item[1]):
        print(f"  {area:40} {calls / max(delivered, 1):8.1f}")
    if args.functions:
        print("whose work (innermost caller outside asyncio and redis):")
        for name, calls in counts["owners"][: args.functions]:
            print(f"  {calls / max(delivered, 1):7.1f}  {name}")
        print("most called:")
        for name, calls in counts["functions"][: args.functions]:
            print(f"  {calls / max(delivered, 1):7.1f}  {name}")
    for task in streams.readers:
        task.cancel()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument(
        "--idle-seconds", type=int, default=0, help="wait so long with the streams open first"
    )
    parser.add_argument(
        "--streams-per-seat", type=int, default=1, help="each seat's stream opened N times"
    )
    parser.add_argument("--functions", type=int, default=0, help="list the N most called")
    parser.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)
    parser.add_argument("--report", help=argparse.SUPPRESS)
    parser.add_argument(
        "--database-url",
        default=DEFAULT_DATABASE_URL.replace("piratz_bench", "piratz_stream_calls"),
    )
    args = parser.parse_args(argv)
    raise_open_files()
    if args.serve:
        serve(args.serve, args.report)
        return 0
    redis = servers.RedisServer().start()
    try:
        with (
            tempfile.NamedTemporaryFile(suffix=".json") as report,
            django_on_fresh_database(args.database_url, redis.url) as django,
        ):
            seats = create_seats(args.streams // 2 // args.streams_per_seat)
            port = servers.free_port()
            command = [sys.executable, __file__, "--serve", str(port), "--report", report.name]
            server = subprocess.Popen(command, cwd=ROOT, env=django.env, start_new_session=True)
            try:
                servers.wait_until(
                    lambda: servers._accepts_connections(port), 30, "the counting uvicorn"
                )
                asyncio.run(play(args, seats, port, server, Path(report.name)))
            finally:
                server.terminate()
                server.wait(30)
    finally:
        redis.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
