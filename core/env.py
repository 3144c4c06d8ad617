"""Typed readers for settings that come from the environment; bad values fail loudly."""

import builtins
import ipaddress
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NoReturn
from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}

# Public (it is in this file): signs nothing that a real server would accept, as every
# serving process refuses to start on it unless DEBUG is on.
DEV_SECRET_KEY = "insecure-dev-key-for-local-runs-and-commands-only"
# manage.py puts the name of the command it runs here (see ``secret_key``).
MANAGE_COMMAND_VARIABLE = "PIRATZ_MANAGE_COMMAND"
# Management commands that serve requests: they need a real key like gunicorn does.
SERVING_COMMANDS = frozenset({"runserver", "testserver"})
# gunicorn's master stops on this worker exit status ("App failed to load") instead of
# starting new workers that would fail the same way forever.
CONFIGURATION_ERROR_STATUS = 4


def exit_for_configuration(message: str) -> NoReturn:
    """Stop the process with ``message`` as one line on stderr, and no traceback.

    For a mistake the operator must fix before anything can run, where a traceback
    through the import machinery of gunicorn, Celery or Django would bury the one line
    that matters.
    """
    sys.stderr.write(f"Configuration error: {message}\n")
    sys.stderr.flush()
    raise SystemExit(CONFIGURATION_ERROR_STATUS)


class Env:
    """Reads typed values from a mapping (``os.environ`` by default).

    Every reader takes the variable's name and a default; a variable that is set
    but cannot be read as the asked type raises ``ImproperlyConfigured`` naming it,
    so a typo in production stops the start-up instead of running misconfigured.
    """

    def __init__(self, environ: Mapping[str, str] | None = None):
        self.environ = os.environ if environ is None else environ

    def _raw(self, name: str) -> str | None:
        value = self.environ.get(name)
        return None if value is None else value.strip()

    def str(self, name: str, default: str | None = None) -> str:
        value = self._raw(name)
        if value is None or value == "":
            if default is None:
                raise ImproperlyConfigured(f"The environment variable {name} is required.")
            return default
        return value

    # From here on, ``str`` and ``list`` in an annotation would name the methods of this
    # class, not the types: hence ``builtins.``.
    def bool(self, name: builtins.str, default: bool) -> bool:
        value = self._raw(name)
        if value is None:
            return default
        if value.lower() in _TRUE:
            return True
        if value.lower() in _FALSE:
            return False
        raise ImproperlyConfigured(f"{name}={value!r} is not a boolean (use true or false).")

    def int(self, name: builtins.str, default: int, *, min_value: int | None = None) -> int:
        value = self._raw(name)
        if value is None or value == "":
            return default
        try:
            number = int(value)
        except ValueError:
            raise ImproperlyConfigured(f"{name}={value!r} is not a whole number.") from None
        if min_value is not None and number < min_value:
            raise ImproperlyConfigured(f"{name}={number} must be at least {min_value}.")
        return number

    def list(
        self, name: builtins.str, default: builtins.list[builtins.str]
    ) -> builtins.list[builtins.str]:
        value = self._raw(name)
        if value is None:
            return list(default)
        return [item.strip() for item in value.split(",") if item.strip()]

    def networks(
        self, name: builtins.str, default: Sequence[builtins.str]
    ) -> "builtins.list[IPNetwork]":
        """Comma-separated IP addresses or CIDR networks (``10.0.0.1,172.16.0.0/12``)."""
        networks = []
        for item in self.list(name, list(default)):
            try:
                networks.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                raise ImproperlyConfigured(
                    f"{name}: {item!r} is not an IP address or network (e.g. 10.0.0.0/8)."
                ) from None
        return networks

    def url(
        self, name: builtins.str, default: builtins.str, *, schemes: tuple[builtins.str, ...]
    ) -> builtins.str:
        value = self.str(name, default)
        scheme = urlsplit(value).scheme
        if scheme not in schemes:
            raise ImproperlyConfigured(
                f"{name} must be a URL starting with one of {', '.join(s + '://' for s in schemes)}"
                f"; got {value!r}."
            )
        return value.rstrip("/") if scheme in ("http", "https") else value

    def database(self, name: builtins.str, default: builtins.str, *, base_dir: Path) -> dict:
        """Parse ``sqlite:///relative/or//absolute.sqlite3`` or ``postgres://user:pw@host:port/db``."""
        url = self.url(name, default, schemes=("sqlite", "postgres", "postgresql"))
        parts = urlsplit(url)
        options = {key: values[-1] for key, values in parse_qs(parts.query).items()}
        if parts.scheme == "sqlite":
            path = unquote(parts.path)[1:]  # "sqlite:///var/x" is relative, "sqlite:////x" absolute
            if not path:
                raise ImproperlyConfigured(f"{name}={url!r} names no SQLite file.")
            file = Path(path) if Path(path).is_absolute() else base_dir / path
            # Zero-setup: the default file lives in var/, which a fresh clone lacks.
            file.parent.mkdir(parents=True, exist_ok=True)
            return {
                "ENGINE": "django.db.backends.sqlite3",
                "NAME": str(file),
                # Serialise writers at BEGIN instead of failing mid-transaction (Django 5.1+).
                "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
            }
        if not parts.path.strip("/"):
            raise ImproperlyConfigured(f"{name}={url!r} names no database.")
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": unquote(parts.path.strip("/")),
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(parts.port or ""),
            "CONN_MAX_AGE": self.int("DATABASE_CONN_MAX_AGE", 60, min_value=0),
            # Off by default: on, Django sends a `SELECT 1` before each request's first
            # query, one more round trip on every API call. Off, a connection that broke
            # while idle (a PostgreSQL restart) fails the one request that finds it, with
            # nothing written (its transaction never began), and is then replaced; a move
            # may simply be sent again (a repeated move is answered, not replayed).
            "CONN_HEALTH_CHECKS": self.bool("DATABASE_CONN_HEALTH_CHECKS", False),
            "OPTIONS": {**self._prepared_statements(), **_typed_psycopg_options(name, options)},
        }

    def _prepared_statements(self) -> dict:
        """psycopg's options for PostgreSQL to plan each of our queries once per connection.

        On by default: Django turns psycopg's prepared statements off (for poolers such as
        PgBouncer in transaction mode, which hand a session's statements to other
        sessions), so PostgreSQL parsed and planned every statement anew; a move's join of
        the game, its seats, users, settings and vacations cost more to plan than to run
        (BENCHMARKS.md: PostgreSQL's CPU per move 2.1 -> 1.2 ms). psycopg prepares a
        statement on its 5th run on a connection; preparing needs server-side binding of
        parameters. ``DATABASE_PREPARED_STATEMENTS=false`` behind such a pooler.
        """
        if not self.bool("DATABASE_PREPARED_STATEMENTS", True):
            return {}
        return {"server_side_binding": True, "prepare_threshold": 5}


def _typed_psycopg_options(name: str, options: dict[str, str]) -> dict:
    """A URL's query options, with the two that Django and psycopg read themselves (not
    libpq, which takes strings) as the types they need: ``?prepare_threshold=`` a whole
    number or ``none`` (never prepare), ``?server_side_binding=`` true or false.

    Otherwise "0" would reach psycopg as a string and "false" would count as true.
    """
    typed: dict = dict(options)  # values become bool, int or None below
    if "server_side_binding" in typed:
        label = f"{name}'s ?server_side_binding"
        typed["server_side_binding"] = Env({label: typed["server_side_binding"]}).bool(label, False)
    if "prepare_threshold" in typed:
        value, label = typed["prepare_threshold"], f"{name}'s ?prepare_threshold"
        typed["prepare_threshold"] = (
            None if value.lower() == "none" else Env({label: value}).int(label, 5, min_value=0)
        )
    return typed


def secret_key(env: Env, *, debug: bool) -> str:
    """``SECRET_KEY`` from ``env``, or ``DEV_SECRET_KEY`` where a public key does no harm.

    The development key is used when ``SECRET_KEY`` is unset and either ``debug`` is on
    or the process is a management command that serves no requests (``manage.py`` names
    its command in ``PIRATZ_MANAGE_COMMAND``): ``--help``, ``simulate``, ``migrate`` work
    in a fresh checkout. Any serving process (gunicorn, a Celery worker, ``runserver``
    with DEBUG off) without a key of its own stops with one line, via
    ``exit_for_configuration``.
    """
    key = env.str("SECRET_KEY", "")
    command = env.str(MANAGE_COMMAND_VARIABLE, "")
    may_use_dev_key = debug or (command != "" and command not in SERVING_COMMANDS)
    if key and (key != DEV_SECRET_KEY or may_use_dev_key):
        return key
    if not key and may_use_dev_key:
        return DEV_SECRET_KEY
    exit_for_configuration(
        "set SECRET_KEY to a long random value (e.g. the output of "
        "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`); "
        "only DEBUG=true and management commands that serve nothing may run without one."
    )


def url_host(url: str) -> str:
    """The host of ``url`` as ``ALLOWED_HOSTS`` spells it (IPv6 in brackets)."""
    host = urlsplit(url).hostname or ""
    return f"[{host}]" if ":" in host else host
