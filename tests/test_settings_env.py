"""Settings from the environment: typed readers that fail loudly, the secret key's rules,
and how each entry point (manage.py, WSGI, gunicorn, Celery, make run) starts or stops."""

import ipaddress
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from core.env import (
    CONFIGURATION_ERROR_STATUS,
    DEV_SECRET_KEY,
    Env,
    secret_key,
    url_host,
)

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
GOOD_KEY = "a-long-random-production-key-" + "k" * 30


# --- The typed readers -------------------------------------------------------------------


@pytest.mark.parametrize("value", ["maybe", "2", "tru", "enabled"])
def test_a_bad_boolean_names_the_variable(value):
    with pytest.raises(ImproperlyConfigured, match=rf"DEBUG='{value}' is not a boolean"):
        Env({"DEBUG": value}).bool("DEBUG", False)


@pytest.mark.parametrize(
    ("value", "expected"),
    [("1", True), ("YES", True), (" on ", True), ("0", False), ("off", False), ("", False)],
)
def test_booleans_read_the_documented_spellings(value, expected):
    assert Env({"DEBUG": value}).bool("DEBUG", not expected) is expected
    assert Env({}).bool("DEBUG", True) is True


@pytest.mark.parametrize("value", ["seven", "7.5", "1e3", "0x10"])
def test_a_bad_int_names_the_variable(value):
    with pytest.raises(ImproperlyConfigured, match=rf"INVITATION_DAYS='{value}' is not a whole"):
        Env({"INVITATION_DAYS": value}).int("INVITATION_DAYS", 7)


def test_an_int_below_its_minimum_is_refused():
    with pytest.raises(ImproperlyConfigured, match="INVITATION_DAYS=0 must be at least 1"):
        Env({"INVITATION_DAYS": "0"}).int("INVITATION_DAYS", 7, min_value=1)
    assert Env({"INVITATION_DAYS": " 3 "}).int("INVITATION_DAYS", 7, min_value=1) == 3
    assert Env({"INVITATION_DAYS": ""}).int("INVITATION_DAYS", 7, min_value=1) == 7


@pytest.mark.parametrize("value", ["piratz.example.org", "ftp://piratz.example.org", "//x"])
def test_a_url_without_an_allowed_scheme_is_refused(value):
    with pytest.raises(ImproperlyConfigured, match=r"SITE_URL must be a URL starting with"):
        Env({"SITE_URL": value}).url("SITE_URL", "http://127.0.0.1:8000", schemes=("http", "https"))


def test_http_urls_lose_their_trailing_slash():
    env = Env({"SITE_URL": "https://piratz.example.org/"})
    assert env.url("SITE_URL", "", schemes=("https",)) == "https://piratz.example.org"


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mysql://db/piratz", "must be a URL starting with"),
        ("sqlite://", "names no SQLite file"),
        ("postgres://user@host:5432/", "names no database"),
    ],
)
def test_a_bad_database_url_is_refused(url, message, tmp_path):
    with pytest.raises(ImproperlyConfigured, match=message):
        Env({"DATABASE_URL": url}).database("DATABASE_URL", "sqlite:///x", base_dir=tmp_path)


def test_database_urls_are_read(tmp_path):
    env = Env({"DATABASE_URL": "postgres://u:p%40ss@db.internal:6543/piratz?sslmode=require"})
    database = env.database("DATABASE_URL", "", base_dir=tmp_path)
    assert (database["NAME"], database["USER"], database["PASSWORD"]) == ("piratz", "u", "p@ss")
    assert (database["HOST"], database["PORT"]) == ("db.internal", "6543")
    assert database["OPTIONS"] == {
        "server_side_binding": True,
        "prepare_threshold": 5,
        "sslmode": "require",
    }
    relative = Env({}).database("X", "sqlite:///var/x.sqlite3", base_dir=tmp_path)
    assert relative["NAME"] == str(tmp_path / "var" / "x.sqlite3")


def test_postgresql_prepares_statements_unless_told_not_to(tmp_path):
    # On: PostgreSQL plans a repeated query once per connection (BENCHMARKS.md, API);
    # off for a pooler that cannot keep a session's prepared statements.
    url = {"DATABASE_URL": "postgres://u@db/piratz"}
    options = Env(url).database("DATABASE_URL", "", base_dir=tmp_path)["OPTIONS"]
    assert options == {"server_side_binding": True, "prepare_threshold": 5}
    off = Env({**url, "DATABASE_PREPARED_STATEMENTS": "false"})
    assert off.database("DATABASE_URL", "", base_dir=tmp_path)["OPTIONS"] == {}
    sqlite = Env({}).database("X", "sqlite:///var/x.sqlite3", base_dir=tmp_path)
    assert "prepare_threshold" not in sqlite["OPTIONS"]


def test_connection_health_checks_are_off_unless_asked_for(tmp_path):
    # Off: no `SELECT 1` round trip before each request's first query (BENCHMARKS.md, API).
    url = {"DATABASE_URL": "postgres://u@db/piratz"}
    assert Env(url).database("DATABASE_URL", "", base_dir=tmp_path)["CONN_HEALTH_CHECKS"] is False
    on = Env({**url, "DATABASE_CONN_HEALTH_CHECKS": "true"})
    assert on.database("DATABASE_URL", "", base_dir=tmp_path)["CONN_HEALTH_CHECKS"] is True


def test_a_required_variable_that_is_missing_or_empty_is_named():
    for environ in ({}, {"SECRET_KEY": "  "}):
        with pytest.raises(ImproperlyConfigured, match="variable SECRET_KEY is required"):
            Env(environ).str("SECRET_KEY")


def test_lists_split_on_commas():
    assert Env({"ALLOWED_HOSTS": " a.example , b.example,,"}).list("ALLOWED_HOSTS", []) == [
        "a.example",
        "b.example",
    ]


def test_networks_read_addresses_and_cidrs_and_refuse_anything_else():
    env = Env({"TRUSTED_PROXIES": "10.0.0.1, 172.16.0.0/12,::1"})
    assert env.networks("TRUSTED_PROXIES", []) == [
        ipaddress.ip_network("10.0.0.1/32"),
        ipaddress.ip_network("172.16.0.0/12"),
        ipaddress.ip_network("::1/128"),
    ]
    with pytest.raises(ImproperlyConfigured, match=r"TRUSTED_PROXIES: 'proxy\.internal' is not"):
        Env({"TRUSTED_PROXIES": "10.0.0.1,proxy.internal"}).networks("TRUSTED_PROXIES", [])


def test_url_host_spells_hosts_as_allowed_hosts_does():
    assert url_host("http://0.0.0.0:8001") == "0.0.0.0"
    assert url_host("https://Piratz.example.org") == "piratz.example.org"
    assert url_host("http://[::1]:8000") == "[::1]"


# --- The secret key ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "environ",
    [
        {"PIRATZ_MANAGE_COMMAND": "simulate"},
        {"PIRATZ_MANAGE_COMMAND": "help"},
        {"PIRATZ_MANAGE_COMMAND": "runserver", "DEBUG": "1"},
    ],
)
def test_the_development_key_serves_debug_and_commands_that_serve_nothing(environ):
    env = Env(environ)
    assert secret_key(env, debug=env.bool("DEBUG", False)) == DEV_SECRET_KEY


def test_a_set_key_is_used():
    assert secret_key(Env({"SECRET_KEY": GOOD_KEY}), debug=False) == GOOD_KEY


@pytest.mark.parametrize(
    "environ",
    [
        {},  # gunicorn, Celery: no command named
        {"PIRATZ_MANAGE_COMMAND": "runserver"},
        {"SECRET_KEY": DEV_SECRET_KEY},  # the public key, copied into production
    ],
)
def test_serving_without_a_real_key_stops_with_one_line(environ, capsys):
    with pytest.raises(SystemExit) as stopped:
        secret_key(Env(environ), debug=False)
    assert stopped.value.code == CONFIGURATION_ERROR_STATUS
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("Configuration error: set SECRET_KEY")


# --- Entry points, as separate processes ----------------------------------------------------


def _environ(**overrides) -> dict[str, str]:
    """This process's environment without what the test settings put in it."""
    environ = {
        key: value
        for key, value in os.environ.items()
        if key not in {"SECRET_KEY", "DEBUG", "DJANGO_SETTINGS_MODULE", "PIRATZ_MANAGE_COMMAND"}
    }
    environ.update(overrides)
    return environ


def _run(args: list[str], **overrides) -> subprocess.CompletedProcess:
    return subprocess.run(
        args, cwd=ROOT, env=_environ(**overrides), capture_output=True, text=True, timeout=60
    )


def _assert_stopped_with_one_line(done: subprocess.CompletedProcess):
    assert done.returncode == CONFIGURATION_ERROR_STATUS, done.stderr
    assert "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if "Configuration error" in line]
    assert len(errors) == 1 and "set SECRET_KEY" in errors[0]


@pytest.mark.parametrize(
    "command",
    [
        ["--help"],
        ["help", "simulate"],
        ["simulate", "--games", "3", "--players", "2", "--seed", "1"],
    ],
)
def test_manage_py_commands_run_in_a_fresh_checkout(command):
    done = _run([sys.executable, "manage.py", *command])
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "settings are not properly configured" not in done.stdout


def test_runserver_without_debug_or_key_stops_with_one_line():
    _assert_stopped_with_one_line(
        _run([sys.executable, "manage.py", "runserver", "--noreload", "127.0.0.1:0"])
    )


def test_importing_the_wsgi_application_without_key_stops_with_one_line():
    _assert_stopped_with_one_line(_run([sys.executable, "-c", "import piratz_site.wsgi"]))


def test_gunicorn_without_key_stops_with_one_line_and_starts_no_worker():
    # gunicorn.conf.py's production settings with several workers: the master checks the
    # key before forking any (on_starting), so the line comes once and nothing respawns.
    done = _run(
        [str(BIN / "gunicorn"), "--no-control-socket", "-b", "127.0.0.1:0", "piratz_site.wsgi"],
        GUNICORN_WORKERS="3",
    )
    _assert_stopped_with_one_line(done)
    assert "Booting worker" not in done.stderr


def test_a_gunicorn_worker_freezes_what_it_loaded_out_of_the_collectors_reach():
    import gc
    import runpy

    hooks = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    frozen_before = gc.get_freeze_count()
    try:
        hooks["post_worker_init"](None)
        # Django, pytest and the app are loaded here: many thousands of objects.
        assert gc.get_freeze_count() > frozen_before + 10_000
    finally:
        gc.unfreeze()  # this test's process goes on collecting as before


def test_celery_worker_without_key_stops_with_one_line():
    _assert_stopped_with_one_line(
        _run(
            [str(BIN / "celery"), "-A", "piratz_site", "worker", "--pool", "solo"],
            CELERY_BROKER_URL="memory://",
        )
    )


# --- make run ----------------------------------------------------------------------------


@pytest.fixture
def make_run(tmp_path):
    """Run ``make run`` with a shell that only records each command line and SITE_URL."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    log = tmp_path / "commands.log"
    shell = tmp_path / "record-shell"
    shell.write_text(f'#!/bin/sh\nshift\nprintf "%s|%s\\n" "$SITE_URL" "$*" >> {log}\n')
    shell.chmod(0o755)

    def run(*args: str, **overrides) -> list[tuple[str, str]]:
        done = subprocess.run(
            ["make", "--no-print-directory", "run", f"SHELL={shell}", *args],
            cwd=ROOT,
            env=_environ(**overrides),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        lines = [line.split("|", 1) for line in log.read_text().splitlines()]
        log.unlink()
        return [(site_url, command) for site_url, command in lines]

    return run


def test_make_run_points_emailed_links_at_the_address_it_serves(make_run):
    commands = make_run("ADDR=127.0.0.1:8123")
    serving = [site_url for site_url, command in commands if "127.0.0.1:8123" in command]
    assert serving and set(serving) == {"http://127.0.0.1:8123"}
    assert {site_url for site_url, _ in commands} == {"http://127.0.0.1:8123"}


def test_make_run_keeps_a_site_url_that_is_set(make_run):
    commands = make_run("ADDR=0.0.0.0:8123", SITE_URL="https://piratz.example.org")
    assert {site_url for site_url, _ in commands} == {"https://piratz.example.org"}


def test_the_url_may_set_psycopgs_own_options_with_their_types(tmp_path):
    # Django and psycopg read these two themselves; libpq's options stay strings.
    def options(query: str) -> dict:
        url = {"DATABASE_URL": f"postgres://u@db/piratz?{query}"}
        return Env(url).database("DATABASE_URL", "", base_dir=tmp_path)["OPTIONS"]

    assert options("prepare_threshold=0&sslmode=require") == {
        "server_side_binding": True,
        "prepare_threshold": 0,
        "sslmode": "require",
    }
    assert options("prepare_threshold=none")["prepare_threshold"] is None
    assert options("server_side_binding=false")["server_side_binding"] is False
    with pytest.raises(ImproperlyConfigured, match="'often' is not a whole number"):
        options("prepare_threshold=often")
    with pytest.raises(ImproperlyConfigured, match="'maybe' is not a boolean"):
        options("server_side_binding=maybe")
