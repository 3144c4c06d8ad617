"""Webhook test helpers: a real HTTP receiver on 127.0.0.1, and a game with webhooks."""

import json
import socket
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from games import actions
from games.models import Game
from tests.webhooks.tarpit import Tarpit
from webhooks.actions import do_add_webhook


@dataclass
class Received:
    path: str
    headers: dict
    body: bytes

    @property
    def json(self):
        return json.loads(self.body)


@dataclass
class Receiver:
    """An HTTP server on 127.0.0.1 in a thread. Each POST is recorded in ``posts`` and
    answered with the next status of ``answers`` (200 once they run out)."""

    server: ThreadingHTTPServer
    posts: list[Received] = field(default_factory=list)
    answers: list[int] = field(default_factory=list)

    @property
    def port(self) -> int:
        return self.server.server_address[1]

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"


@pytest.fixture
def receiver():
    holder = {}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            length = int(self.headers.get("Content-Length", 0))
            recv = holder["receiver"]
            recv.posts.append(Received(self.path, dict(self.headers), self.rfile.read(length)))
            status = recv.answers.pop(0) if recv.answers else 200
            self.send_response(status)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args):  # quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    holder["receiver"] = recv = Receiver(server)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield recv
    server.shutdown()
    server.server_close()


class BlackHole:
    """A socket on 127.0.0.1 that accepts connections and never answers: a dead endpoint."""

    def __init__(self):
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.port = self.socket.getsockname()[1]
        self.accepted: list[socket.socket] = []
        self.socket.settimeout(0.1)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self):
        while not self._stop.is_set():
            try:
                connection, _ = self.socket.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.accepted.append(connection)

    def close(self):
        self._stop.set()
        self._thread.join()
        for connection in self.accepted:
            connection.close()
        self.socket.close()


@pytest.fixture
def tarpit():
    pit = Tarpit()
    yield pit
    pit.close()


@pytest.fixture
def black_hole():
    hole = BlackHole()
    yield hole
    hole.close()


@pytest.fixture(autouse=True)
def _webhook_settings(settings):
    settings.WEBHOOKS_ALLOW_INSECURE_LOCALHOST = True
    settings.SITE_URL = "https://piratz.example"
    settings.WEBHOOK_TIMEOUT_SECONDS = 2
    settings.WEBHOOK_TOTAL_TIMEOUT_SECONDS = 5


def add_webhook(game: Game, user, kind: str, url: str):
    """``do_add_webhook``: the webhook and its secret."""
    return do_add_webhook(game.id, user, kind=kind, url=url)


def play(game: Game, action: dict) -> Game:
    """The current player plays ``action`` (through the action, as the API does)."""
    seat = next(s for s in game.seats.select_related("user") if s.seat == game.current_seat)
    actions.do_play_move(game.id, seat.user, game.version, action)
    game.refresh_from_db()
    return game


def play_some(game: Game) -> Game:
    """The player to move reveals if they may, else ends their turn, else plays their first
    legal action."""
    legal = game.rules.legal_actions(game.load_state(), game.current_seat)
    for kind in ("reveal", "end_turn"):
        for action in legal:
            if action["action"] == kind:
                return play(game, action)
    return play(game, legal[0])
