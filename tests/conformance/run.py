"""API conformance: schemathesis (all checks, every phase) against a real gunicorn.

    .venv/bin/python tests/conformance/run.py [extra schemathesis run options]

Sets up a database (``CONFORMANCE_DATABASE_URL``: a PostgreSQL URL, whose database is
dropped and created afresh, or by default a new SQLite file), migrates it, seeds a player
with an API key and games in every state (``seed.py``), serves it with gunicorn on a free
port of 127.0.0.1 with production settings (DEBUG off), runs ``schemathesis run`` with
``schemathesis.toml`` and exits with its status: non-zero on any server error, schema
violation or other failed check. CI runs it (``.ci/run``); docs/api.md "Conformance".
"""

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.servers import Gunicorn, free_port  # noqa: E402

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
# Generous limits: the run must reach the API's answers, not the anti-spam refusals.
UNTHROTTLED = {
    "API_THROTTLE_ANON": "100000/min",
    "API_THROTTLE_USER": "100000/min",
    "API_THROTTLE_LOGIN_LINK": "100000/min",
    "API_AUTH_FAILURES_PER_ADDRESS": "1000000",  # schemathesis sends bad keys on purpose
    "API_THROTTLE_REPORTS": "100000/min",
    "API_THROTTLE_WEBHOOKS": "100000/min",
    "API_THROTTLE_PUSH_SUBSCRIPTIONS": "100000/min",
    "TALK_MESSAGES_PER_HOUR": "100000",
    "GAMES_PER_USER_PER_DAY": "100000",
    "INVITATIONS_PER_USER_PER_DAY": "100000",
    "PENDING_INVITATIONS_PER_ADDRESS": "100000",
    "LOGIN_LINKS_PER_ADDRESS_PER_HOUR": "100000",
    "SEEKS_PER_HOUR": "100000",
    # Not anti-spam, but a cap the run would reach on the seeded games after a few
    # additions, answering 409 ever after: the additions are to reach the host checks.
    "WEBHOOKS_PER_GAME": "100000",
}


def fresh_postgres_database(url: str) -> None:
    """Drop and create the database ``url`` names (on the server it names)."""
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def drop_postgres_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{parts.path.lstrip("/")}" WITH (FORCE)')


def main(extra: list[str]) -> int:
    work = Path(tempfile.mkdtemp(prefix="piratz-conformance-"))
    database = os.environ.get("CONFORMANCE_DATABASE_URL") or f"sqlite:///{work}/db.sqlite3"
    postgres = database.startswith("postgres")
    port = free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"CACHE_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(
        UNTHROTTLED,
        DEBUG="false",
        SECRET_KEY="conformance-run-key-not-used-anywhere-else-0123456789abcdef",
        SITE_URL=f"http://127.0.0.1:{port}",
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=database,
        CELERY_BROKER_DIR=str(work / "celery"),  # queued email tasks: written, never run
        EMAIL_FILE_PATH=str(work / "mail"),
        LOG_LEVEL="ERROR",  # the server log shown on failure: tracebacks, not every 4xx
        PYTHONPATH=str(ROOT),
    )
    if postgres:
        fresh_postgres_database(database)
    manage = [str(BIN / "python"), "manage.py"]
    for command in (["migrate", "--noinput", "-v", "0"], ["createcachetable"]):
        subprocess.run(manage + command, cwd=ROOT, env=env, check=True)
    seed = work / "seed.json"
    subprocess.run(
        [str(BIN / "python"), "-m", "tests.conformance.seed", str(seed)],
        cwd=ROOT,
        env=env,
        check=True,
    )
    import json

    env["CONFORMANCE_KEY"] = json.loads(seed.read_text())["key"]
    env["CONFORMANCE_SEED"] = str(seed)
    env["CONFORMANCE_URL"] = f"http://127.0.0.1:{port}"  # the hooks read the live games

    server = Gunicorn(env, workers=2, threads=1, worker_class="sync", port=port).start()
    try:
        command = [
            str(BIN / "schemathesis"),
            "--config-file",
            str(HERE / "schemathesis.toml"),
            "run",
            f"http://127.0.0.1:{port}/api/schema/",
            "--url",
            f"http://127.0.0.1:{port}",
            "--report-dir",
            str(work / "report"),
            *extra,
        ]
        print("$", " ".join(command), flush=True)
        status = subprocess.run(command, cwd=ROOT, env=env).returncode
    finally:
        server.stop()
        if server.process is not None and server.process.returncode not in (0, None):
            print("gunicorn's log:\n" + server.log_tail(), flush=True)
    if status != 0:
        print("server log (tail):\n" + server.log_tail(), flush=True)
    if postgres:
        drop_postgres_database(database)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
