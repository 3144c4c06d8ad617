"""The table stream under faults (issue 34): a dropped stream, a restarted stream server and a
restarted Redis lose no update. The stack's gunicorn plays the moves over the API; a
uvicorn process of our own (``piratz_site.asgi``, the same environment: the news bus on
the stack's Redis) serves Bert's stream, read over a raw socket. Every (re)connect
must first say the game's current version (the catch-up); while connected, a move arrives
pushed through Redis."""

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

from django.test import Client

from tests.servers import HOST, ROOT, free_port, wait_until

READ_TIMEOUT = 10


class Uvicorn:
    """uvicorn serving ``piratz_site.asgi`` on a fixed port: stopped and started at will."""

    def __init__(self, env: dict[str, str]):
        self.env, self.port, self.process = env, free_port(), None

    def start(self) -> "Uvicorn":
        command = [str(Path(sys.executable).parent / "uvicorn"), "piratz_site.asgi:application"]
        command += ["--host", HOST, "--port", str(self.port), "--no-access-log"]
        command += ["--timeout-graceful-shutdown", "1", "--log-level", "warning"]
        self.process = subprocess.Popen(command, cwd=ROOT, env=self.env, start_new_session=True)
        wait_until(self._answers, 30, f"uvicorn on port {self.port}")
        return self

    def _answers(self) -> bool:
        try:
            socket.create_connection((HOST, self.port), timeout=1).close()
            return True
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=30)
            self.process = None


class Stream:
    """Bert's table stream, read event by event over a raw socket."""

    def __init__(self, port: int, game_id, session: str):
        self.sock = socket.create_connection((HOST, port), timeout=READ_TIMEOUT)
        self.sock.sendall(
            f"GET /games/{game_id}/events HTTP/1.1\r\nHost: {HOST}\r\n"
            f"Cookie: sessionid={session}\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        self.buffer = b""

    def next_table(self) -> dict | None:
        """The next ``table`` event's data; None when the server ended the stream."""
        deadline = time.monotonic() + READ_TIMEOUT
        while time.monotonic() < deadline:
            while b"\n\n" in self.buffer:
                block, self.buffer = self.buffer.split(b"\n\n", 1)
                lines = dict(
                    line.split(": ", 1) for line in block.decode().splitlines() if ": " in line
                )
                if lines.get("event") == "table":
                    return json.loads(lines["data"])
            chunk = self.sock.recv(4096)
            if not chunk:
                return None
            self.buffer += chunk
        raise AssertionError(f"no table event within {READ_TIMEOUT} s")

    def ends_telling_nothing_newer_than(self, version: int) -> bool:
        """Whether the server ends the stream, having sent no news past ``version``. News
        of a move committed just before the connect may come once more after the connect's
        catch-up (the stream joins first and reads second: twice, never lost)."""
        while (event := self.next_table()) is not None:
            assert event["version"] <= version, event
        return True

    def close(self) -> None:
        self.sock.close()


def test_a_dropped_stream_a_restarted_server_and_redis_lose_no_update(
    stack, table_of, two_player_games, bert, settings
):
    [game_id] = two_player_games(1)
    the_stack = stack(worker=False, beat=False)
    table = table_of(the_stack)
    # Bert's browser session, signed as the stack's processes sign (their SECRET_KEY).
    settings.SECRET_KEY = the_stack.env["SECRET_KEY"]
    client = Client()
    client.force_login(bert)
    session = client.cookies["sessionid"].value
    server = Uvicorn(the_stack.env).start()
    seen = []

    def connect() -> Stream:
        stream = Stream(server.port, game_id, session)
        seen.append(stream.next_table())
        return stream

    def move() -> int:
        answer = table.play_one(game_id)
        assert answer is not None and answer.status == 200, answer
        return answer.body["version"]

    try:
        # Connected: a move arrives pushed through Redis.
        stream = connect()
        assert seen[-1]["version"] == 0 and seen[-1]["what"] == "connect"
        version = move()
        assert stream.next_table() == {"version": version, "status": "active", "what": "move"}

        # Dropped by the network: moves meanwhile; the reconnect says where the game is.
        stream.close()
        move()
        version = move()
        stream = connect()
        assert seen[-1]["version"] == version

        # The stream server restarted: the stream ends; the reconnect catches up.
        server.stop()
        assert stream.ends_telling_nothing_newer_than(version)
        version = move()
        server.start()
        stream = connect()
        assert seen[-1]["version"] == version

        # Redis restarted (empty): news sent meanwhile is lost, the stream ends with its
        # subscriber connection; the reconnect catches up, and moves are pushed again after.
        the_stack.redis.stop()
        before = version
        version = move()
        assert stream.ends_telling_nothing_newer_than(before)  # the bus's Redis went away
        the_stack.redis.start()
        stream = connect()
        assert seen[-1]["version"] == version
        version = move()
        assert stream.next_table() == {"version": version, "status": "active", "what": "move"}
        stream.close()
        print(f"\ntable stream under faults: connects {[event['version'] for event in seen]}")
    finally:
        server.stop()
