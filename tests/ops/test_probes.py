"""/healthz and /readyz: cheap, unthrottled, no personal data; 503 naming what is down."""

import logging

import pytest
from django.test import override_settings

from core.logs.request_log import RequestIdFilter
from ops import readiness
from piratz_site.celery import app as celery_app
from tests.processes import forget_broker_connections

UNREACHABLE_REDIS = "redis://127.0.0.1:1/0"  # port 1: refused at once


def test_healthz_answers_without_touching_the_database(client):
    """No ``db`` fixture: pytest-django refuses any query, so a 200 proves none was made."""
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok\n"
    assert "no-cache" in response["Cache-Control"]
    assert not response.cookies


@pytest.mark.django_db
def test_readyz_is_ready_when_database_cache_and_broker_answer(client):
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"database": "ok", "cache": "ok", "broker": "ok"}


@pytest.mark.django_db
def test_readyz_names_an_unreachable_cache(client):
    caches = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": UNREACHABLE_REDIS,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    with override_settings(CACHES=caches):
        response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json() == {"database": "ok", "cache": "unreachable", "broker": "ok"}
    # Only the states: no host, port or error text.
    assert b"127.0.0.1" not in response.content


@pytest.fixture
def unreachable_broker():
    saved = celery_app.conf["broker_url"]
    celery_app.conf.update(broker_url=UNREACHABLE_REDIS)
    forget_broker_connections()
    yield
    celery_app.conf.update(broker_url=saved)
    forget_broker_connections()


@pytest.mark.django_db
def test_readyz_names_an_unreachable_broker(client, unreachable_broker):
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json() == {"database": "ok", "cache": "ok", "broker": "unreachable"}


@pytest.mark.django_db
def test_readyz_names_an_unreachable_database(client, monkeypatch):
    def refuse():
        raise readiness.connection.Database.OperationalError("connection refused")

    monkeypatch.setitem(readiness.CHECKS, "database", refuse)
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["database"] == "unreachable"


def test_the_filesystem_broker_of_make_run_is_ready(tmp_path):
    """``make run``'s broker is kombu's filesystem transport: its folders are the broker."""
    for folder in ("messages", "control"):
        (tmp_path / folder).mkdir()
    options = {
        "data_folder_in": str(tmp_path / "messages"),
        "data_folder_out": str(tmp_path / "messages"),
        "control_folder": str(tmp_path / "control"),
    }
    saved = {key: celery_app.conf[key] for key in ("broker_url", "broker_transport_options")}
    celery_app.conf.update(broker_url="filesystem://", broker_transport_options=options)
    forget_broker_connections()
    try:
        readiness.check_broker()  # raises if not ready
    finally:
        celery_app.conf.update(saved)
        forget_broker_connections()


@pytest.mark.django_db
@override_settings(API_AUTH_FAILURES_PER_ADDRESS=1)
def test_probes_are_never_throttled(client):
    """A load balancer asks every few seconds: no throttle or auth-failure count applies."""
    for _ in range(5):
        assert client.get("/healthz").status_code == 200
        assert client.get("/readyz").status_code == 200


@pytest.mark.django_db
def test_probe_log_lines_carry_the_proxys_request_id(client):
    """A readiness warning logged during a request names that request's id."""
    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record)

    handler = Keep()
    handler.addFilter(RequestIdFilter())
    logger = logging.getLogger("ops.readiness")
    logger.addHandler(handler)
    caches = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": UNREACHABLE_REDIS,
        }
    }
    try:
        with override_settings(CACHES=caches):
            response = client.get("/readyz", HTTP_X_REQUEST_ID="proxy-id-1234")
    finally:
        logger.removeHandler(handler)
    assert response["X-Request-ID"] == "proxy-id-1234"
    assert [record.request_id for record in records] == ["proxy-id-1234"]
    assert "unreachable" in records[0].getMessage()
    assert "127.0.0.1" not in records[0].getMessage()


def test_probes_answer_head_and_refuse_writes(client):
    """Some balancers probe with HEAD; nothing here takes a POST."""
    assert client.head("/healthz").status_code == 200
    assert client.post("/healthz").status_code == 405
