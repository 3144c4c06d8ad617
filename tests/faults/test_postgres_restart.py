"""PostgreSQL restarted during play: clean 503s while it is down, play resumes after.

A PostgreSQL cluster of our own (a temporary directory, a free port) serves a gunicorn;
players play over HTTP, moves keep being sent while the cluster is stopped (fast: sessions
cut off) and started again. While it is down every answer is a 503 with ``Retry-After``
(JSON with code ``unavailable`` under /api/, a plain page elsewhere), never a 500; after it,
the same requests work again on new connections, and every game's version equals its
number of logged moves (no half-applied move).
"""

import contextlib
import os
import subprocess
import sys
import threading
import time

import pytest

from tests.faults.conftest import require
from tests.faults.stack import Api, Table
from tests.servers import ROOT, Gunicorn, PostgresCluster, ServerError, postgres_bin_dir

GAMES = 3


def manage(env: dict, *args: str) -> str:
    completed = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr[-3000:]
    return completed.stdout


@pytest.fixture
def cluster(postgres_run):
    try:
        postgres_bin_dir()
    except ServerError as error:
        require(False, str(error))
    pg = PostgresCluster().init().start()
    try:
        yield pg
    finally:
        pg.destroy()


@pytest.fixture
def web_on(cluster, tmp_path):
    """gunicorn on a fresh database of ``cluster`` (persistent connections, as deployed)."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "CELERY_", "DATABASE_", "EMAIL_"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="piratz_site.settings",
        SECRET_KEY="fault-test-secret-key-" + "x" * 30,
        DATABASE_URL=cluster.url("postgres"),
        DEBUG="false",
        ALLOWED_HOSTS="127.0.0.1",
        API_THROTTLE_USER="1000000/min",
        API_THROTTLE_ANON="1000000/min",
        # No broker: publishing a send task fails fast (the emails stay in the outbox).
        CELERY_BROKER_URL="redis://127.0.0.1:1/0",
        EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend",
        LOG_LEVEL="CRITICAL",
        PYTHONWARNINGS="ignore:No directory at",
    )
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(env, "createcachetable")
    web = Gunicorn(env, workers=2, threads=4, worker_class="gthread").start()
    try:
        yield web, env
    finally:
        web.stop()


def new_player(env: dict, email: str) -> str:
    return manage(env, "issue_token", email).strip().splitlines()[-1].strip()


def test_requests_answer_503_while_postgres_is_down_and_play_resumes_after(cluster, web_on):
    web, env = web_on
    anna = Api(web.port, new_player(env, "anna@example.com"))
    bert = Api(web.port, new_player(env, "bert@example.com"))
    game_ids = []
    for _ in range(GAMES):
        created = anna.request(
            "POST", "/api/games/", {"game": "piratz", "players": [
                "anna@example.com", "bert@example.com"]}
        )  # fmt: skip
        assert created.status == 201, created.body
        game_ids.append(created.body["id"])
        assert bert.request("POST", f"/api/games/{created.body['id']}/accept/").status == 200
    table = Table([anna, bert])

    # Players keep playing from threads while the cluster stops and starts under them.
    answers, stop = [], threading.Event()

    def keep_playing(game_id):
        while not stop.is_set():
            with contextlib.suppress(OSError, KeyError, TypeError, ValueError):
                answer = table.play_one(game_id)
                if answer is None:
                    return
                answers.append(answer)  # a move's answer, or a failed fetch's
            time.sleep(0.02)

    players = [threading.Thread(target=keep_playing, args=(game_id,)) for game_id in game_ids]
    for thread in players:
        thread.start()
    time.sleep(1.5)
    cluster.stop()
    down = {
        "api": anna.request("GET", f"/api/games/{game_ids[0]}/"),
        "move": anna.move(game_ids[0], 0, {"action": "reveal"}),
        # A browser with a session cookie: reading the session needs the database.
        "page": Api(web.port).request(
            "GET", "/games/", headers={"Cookie": "sessionid=abcdefghijklmnopqrstuvwxyz012345"}
        ),
    }
    time.sleep(1.5)
    cluster.start()
    ok_at_restart = sum(answer.move and answer.status == 200 for answer in list(answers))
    time.sleep(1.5)
    stop.set()
    for thread in players:
        thread.join(timeout=60)

    after = anna.request("GET", f"/api/games/{game_ids[0]}/")
    fetches = [answer for answer in answers if not answer.move]
    answers = [answer for answer in answers if answer.move]
    statuses = sorted({answer.status for answer in answers + fetches})
    unavailable = [answer for answer in answers + fetches if answer.status == 503]
    print(
        f"\npostgres restart: moves sent {len(answers)}, ok"
        f" {sum(a.status == 200 for a in answers)}, 503 {len(unavailable)},"
        f" statuses {statuses}; while down: api {down['api'].status}"
        f" move {down['move'].status} page {down['page'].status}"
    )

    for answer in down.values():
        assert answer.status == 503
        assert answer.headers.get("Retry-After") == "5"
    for answer in (down["api"], down["move"], *unavailable):
        assert answer.body["code"] == "unavailable", answer.body
    assert isinstance(down["page"].body, str) and "Traceback" not in down["page"].body
    assert "<h1>" in down["page"].body
    assert after.status == 200
    assert sum(answer.status == 200 for answer in answers) > ok_at_restart  # play resumed
    assert unavailable, "some moves must have met the stopped cluster"
    assert set(statuses) <= {200, 409, 503}, statuses  # never a 500
    assert {answer.status for answer in fetches} <= {503}

    # No half-applied move: each game's version is its number of logged moves.
    applied = 0
    for game_id in game_ids:
        game = anna.game(game_id).body
        log = anna.request("GET", f"/api/games/{game_id}/moves/").body
        entries = log["results"] if isinstance(log, dict) else log
        assert game["version"] == len(entries)
        applied += game["version"]
    assert sum(answer.status == 200 for answer in answers) <= applied
    assert applied <= sum(answer.status in (200, 503) for answer in answers)
