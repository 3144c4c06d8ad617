"""Benchmark of the table streams: one uvicorn process holding many open streams.

Steps: (re)create the bench database, migrate, create two-player games and a signed-in
session per seat in-process, start a redis-server of our own (the news bus and the
cache, as production keeps them) and one uvicorn process (``piratz_site.asgi``), open
``--streams`` streams (``GET /games/<id>/events``, one per seat) from this process over
127.0.0.1, then report the uvicorn process's memory, its CPU while every stream sits idle
for ``--idle-seconds``, and how long moves committed here take to reach both streams of
their game (through the Redis layer). See BENCHMARKS.md ("Table streams").
"""

import argparse
import asyncio
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api import (  # noqa: E402  (standard library only until setup_django)
    DEFAULT_DATABASE_URL,
    cpu_model,
    django_on_fresh_database,
    percentile,
)
from tests import servers  # noqa: E402

HOST = servers.HOST
OPENING_AT_ONCE = 50  # streams being opened at the same time


def process_rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def process_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def create_seats(games: int) -> list[tuple[str, int, str]]:
    """``games`` active two-player games: (game id, seat, session cookie) per seat."""
    from django.test import Client

    from accounts.models import User
    from games import actions

    seats = []
    for number in range(games):
        users = [User.objects.create_user(f"s-{number}-{seat}@bench.invalid") for seat in (0, 1)]
        game = actions.do_create_game(users[0], [user.email for user in users])
        actions.do_accept_invitation(game.id, users[1])
        for seat, user in enumerate(users):
            client = Client()
            client.force_login(user)
            seats.append((str(game.id), seat, client.cookies["sessionid"].value))
    return seats


class Streams:
    """Open streams read in this process's event loop; when each table event arrived."""

    def __init__(self, port: int):
        self.port = port
        self.opened = 0
        self.failed = 0
        self.arrivals: dict[tuple[str, int], float] = {}  # (game id, version) -> last arrival
        self.events = 0  # table events read, on every stream
        self.readers: list[asyncio.Task] = []

    async def open(self, game_id: str, session: str, gate: asyncio.Semaphore) -> None:
        async with gate:
            try:
                reader, writer = await asyncio.open_connection(HOST, self.port)
                writer.write(
                    (
                        f"GET /games/{game_id}/events HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n"
                        f"Cookie: sessionid={session}\r\nAccept: text/event-stream\r\n\r\n"
                    ).encode()
                )
                await writer.drain()
                head = await asyncio.wait_for(reader.readuntil(b"event: table"), 30)
            except (OSError, TimeoutError, asyncio.IncompleteReadError):
                self.failed += 1
                return
            if b" 200 " not in head.split(b"\r\n", 1)[0]:
                self.failed += 1
                return
            self.opened += 1
        self.readers.append(asyncio.create_task(self.read(game_id, reader, writer)))

    async def read(self, game_id: str, reader, writer) -> None:
        try:
            while True:
                line = await reader.readline()
                if not line:
                    return
                if line.startswith(b"id: "):
                    self.arrivals[(game_id, int(line[4:]))] = time.monotonic()
                    self.events += 1
        finally:
            writer.close()


async def run(args, seats, port: int, pid: int) -> None:
    from games import actions
    from games.models import Game

    streams = Streams(port)
    gate = asyncio.Semaphore(OPENING_AT_ONCE)
    rss_before = process_rss_mib(pid)
    started = time.monotonic()
    await asyncio.gather(*(streams.open(game, session, gate) for game, _, session in seats))
    opening = time.monotonic() - started
    print(f"streams: {streams.opened} open, {streams.failed} refused, in {opening:.1f} s")
    await asyncio.sleep(2)  # the connects' presence news settle
    rss_open = process_rss_mib(pid)
    cpu_before = process_cpu_seconds(pid)
    await asyncio.sleep(args.idle_seconds)
    idle_cpu = process_cpu_seconds(pid) - cpu_before
    print(
        f"uvicorn memory: {rss_before:.0f} MiB before, {rss_open:.0f} MiB with the streams "
        f"({(rss_open - rss_before) * 1024 / max(streams.opened, 1):.1f} KiB per stream)"
    )
    print(
        f"idle CPU over {args.idle_seconds} s: {idle_cpu:.2f} s "
        f"({100 * idle_cpu / args.idle_seconds:.2f}% of a core; keepalive every 20 s)"
    )

    latencies = []
    games = sorted({game for game, _, _ in seats})[: args.moves]
    # uvicorn's CPU for what the moves send: each is one table event to each stream of its
    # game (issue 34: what an open stream costs a move).
    events_before, cpu_before = streams.events, process_cpu_seconds(pid)
    for game_id in games:
        game = await asyncio.to_thread(Game.objects.get, id=game_id)
        action = game.rules.legal_actions(game.load_state(), game.current_seat)[0]
        player = await asyncio.to_thread(lambda g=game: g.seats.get(seat=g.current_seat).user)
        await asyncio.to_thread(actions.do_play_move, game.id, player, game.version, action)
        committed = time.monotonic()
        key = (game_id, game.version + 1)
        while key not in streams.arrivals and time.monotonic() - committed < 10:
            await asyncio.sleep(0.002)
        latencies.append(streams.arrivals.get(key, float("inf")) - committed)
    await asyncio.sleep(0.2)  # the last move's other streams
    delivered = streams.events - events_before
    moves_cpu = process_cpu_seconds(pid) - cpu_before
    print(
        f"uvicorn CPU while the moves went out: {moves_cpu * 1000:.0f} ms for {delivered} "
        f"stream events, {moves_cpu * 1000 / max(delivered, 1):.2f} ms an event (idle "
        "keepalives included)"
    )
    print(
        f"a move reaching its streams (after commit, {len(latencies)} moves): "
        f"median {1000 * percentile(latencies, 50):.1f} ms, "
        f"p99 {1000 * percentile(latencies, 99):.1f} ms, max {1000 * max(latencies):.1f} ms"
    )
    for task in streams.readers:
        task.cancel()


def raise_open_files() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


async def hold(port: int) -> None:
    """``--hold``: the streams ``bench/api.py --streams-per-seat`` keeps open while it plays.

    Reads ``<game id> <session cookie>`` lines on stdin up to a line ``go``, opens a stream
    for each, prints ``open <n> refused <m>``, then reads them until stdin closes and prints
    ``events <k>``: the table events they carried (a separate process, so that reading the
    streams never takes the playing threads' interpreter lock).
    """
    loop = asyncio.get_running_loop()
    wanted = []
    while (line := (await loop.run_in_executor(None, sys.stdin.readline)).strip()) != "go":
        if not line:
            return  # stdin closed before "go": nothing to hold
        game_id, session = line.split()
        wanted.append((game_id, session))
    streams = Streams(port)
    gate = asyncio.Semaphore(OPENING_AT_ONCE)
    await asyncio.gather(*(streams.open(game, session, gate) for game, session in wanted))
    print(f"open {streams.opened} refused {streams.failed}", flush=True)
    await loop.run_in_executor(None, sys.stdin.read)  # until the bench closes stdin
    print(f"events {streams.events}", flush=True)
    for task in streams.readers:
        task.cancel()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument(
        "--hold",
        type=int,
        metavar="PORT",
        help="only hold streams for bench/api.py on this uvicorn port (seats read on stdin)",
    )
    parser.add_argument("--idle-seconds", type=int, default=30)
    parser.add_argument("--moves", type=int, default=50)
    parser.add_argument(
        "--database-url", default=DEFAULT_DATABASE_URL.replace("piratz_bench", "piratz_streams")
    )
    args = parser.parse_args(argv)
    raise_open_files()
    if args.hold:
        asyncio.run(hold(args.hold))
        return 0
    redis = servers.RedisServer().start()
    try:
        with django_on_fresh_database(args.database_url, redis.url) as django:
            seats = create_seats(args.streams // 2)
            uvicorn = servers.Uvicorn(django.env, limit_concurrency=args.streams + 100).start()
            try:
                program = str(Path(sys.executable).parent / "uvicorn")
                version = subprocess.run([program, "--version"], capture_output=True, text=True)
                print(f"machine: {os.cpu_count()} cores {cpu_model()!r}; {version.stdout.strip()}")
                asyncio.run(run(args, seats, uvicorn.port, uvicorn.process.pid))
            finally:
                uvicorn.stop(grace=30)
    finally:
        redis.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
