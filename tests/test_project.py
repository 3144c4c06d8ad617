"""Project-wide checks: migrations are complete, Django's system checks pass (also the
deploy checks, with the production environment docs/operating.md documents)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_models_and_migrations_agree():
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


@pytest.mark.django_db
def test_system_checks_pass():
    call_command("check", fail_level="WARNING")


# What an operator sets in production (docs/operating.md "Running it for real"); .ci/run
# checks the same.
PRODUCTION_ENVIRONMENT = {
    "SECRET_KEY": "a-long-random-production-key-" + "k" * 30,
    "SITE_URL": "https://piratz.example.org",
    "ALLOWED_HOSTS": "piratz.example.org",
    "DATABASE_URL": "postgres://piratz@db.internal:5432/piratz",
    "CACHE_URL": "redis://redis.internal:6379/1",
    "CELERY_BROKER_URL": "redis://redis.internal:6379/0",
    "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
    "TRUSTED_PROXIES": "10.0.0.0/8",
    "SECURE_PROXY_SSL_HEADER": "true",
    "SECURE_SSL_REDIRECT": "true",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "true",
    "SECURE_HSTS_PRELOAD": "true",
}
_TEST_ONLY = {"SECRET_KEY", "DEBUG", "DJANGO_SETTINGS_MODULE", "DATABASE_URL", "CELERY_BROKER_URL"}


def _manage(*args: str, **environment: str) -> subprocess.CompletedProcess:
    environ = {key: value for key, value in os.environ.items() if key not in _TEST_ONLY}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=Path(__file__).resolve().parent.parent,
        env={**environ, **environment},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_deploy_checks_pass_with_the_production_environment():
    done = _manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION_ENVIRONMENT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_deploy_checks_fail_without_the_https_settings():
    environment = {
        key: value
        for key, value in PRODUCTION_ENVIRONMENT.items()
        if not key.startswith(("SECURE_SSL", "SECURE_HSTS"))
    }
    done = _manage("check", "--deploy", "--fail-level", "WARNING", **environment)
    assert done.returncode != 0
    assert "security.W004" in done.stderr and "security.W008" in done.stderr


def test_the_https_header_is_refused_without_trusted_proxies():
    environment = {**PRODUCTION_ENVIRONMENT, "TRUSTED_PROXIES": ""}
    done = _manage("check", **environment)
    assert done.returncode != 0
    assert "SECURE_PROXY_SSL_HEADER=true needs TRUSTED_PROXIES" in done.stderr


@pytest.mark.parametrize(
    ("cache_url", "backend"),
    [("", "django.core.cache.backends.db.DatabaseCache"), ("redis://r:6379/1", "RedisCache")],
)
def test_throttle_counters_are_shared_by_every_process_by_default(cache_url, backend):
    done = _manage(
        "shell",
        "-c",
        "from django.conf import settings; print(settings.CACHES)",
        CACHE_URL=cache_url,
    )
    assert done.returncode == 0, done.stderr
    assert backend in done.stdout and "LocMemCache" not in done.stdout
    if cache_url:  # a request never waits redis-py's 5 s on an unreachable Redis
        assert "'OPTIONS': {'socket_connect_timeout': 1, 'socket_timeout': 1}" in done.stdout
