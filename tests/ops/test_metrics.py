"""/metrics: Prometheus's text format (checked by its own parser), who may read it, and
what each number counts."""

import ipaddress
from datetime import timedelta

import pytest
from django.db import DatabaseError
from django.test import override_settings
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from games.models import Game
from notifications.models import OutboundEmail
from ops import metrics
from piratz_site.celery import app as celery_app
from tests.factories import TOY_KIND, play_toy_moves
from webhooks.models import Webhook, WebhookDelivery

pytestmark = pytest.mark.django_db


def scrape(client, **headers) -> dict:
    """``{(sample name, frozenset(labels)): value}`` of one scrape, parsed by Prometheus's
    own parser (which raises on anything not in its text format)."""
    response = client.get("/metrics", **headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain; version=")
    samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return samples


def value(samples: dict, name: str, **labels) -> float:
    return samples[(name, frozenset(labels.items()))]


def test_moves_are_counted_by_game_and_actor(client, toy_game, anna, bert):
    play_toy_moves(toy_game, [anna, bert], [5, 1])
    samples = scrape(client)
    assert value(samples, "piratz_moves_applied_total", game=TOY_KIND, actor="player") == 2
    assert value(samples, "piratz_database_up") == 1


def queue(template: str = "turn", **fields) -> OutboundEmail:
    return OutboundEmail.objects.create(
        to="x@example.com", subject="s", body_text="b", body_html="", template=template, **fields
    )


def test_emails_are_counted_by_kind_and_status(client):
    for status in ("sent", "sent", "failed", "pending"):
        queue("turn", status=status)
    queue("invitation", status="sent")
    samples = scrape(client)
    assert value(samples, "piratz_emails", kind="turn", status="sent") == 2
    assert value(samples, "piratz_emails", kind="turn", status="failed") == 1
    assert value(samples, "piratz_emails", kind="turn", status="pending") == 1
    assert value(samples, "piratz_emails", kind="invitation", status="sent") == 1
    # The addresses are not in the metrics, whatever they count.
    assert b"example.com" not in client.get("/metrics").content


def test_backlogs_give_the_age_of_the_oldest_due_item(client, toy_game, anna):
    OutboundEmail.objects.all().delete()  # the game's own (unsent: no commit in a test)
    now = timezone.now()
    for minutes in (15, 3):
        queue(send_after=now - timedelta(minutes=minutes))
    queue(send_after=now + timedelta(minutes=5))  # a retry waiting for its backoff: not due
    queue(status="sent", send_after=now - timedelta(hours=1))  # done: not due
    webhook = Webhook.objects.create(
        game=toy_game, owner=anna, kind="json", url="https://hooks.example.com/x"
    )
    WebhookDelivery.objects.create(
        webhook=webhook, event="move", body={}, next_attempt_at=now - timedelta(minutes=20)
    )
    samples = scrape(client)
    assert value(samples, "piratz_email_backlog") == 2
    assert 15 * 60 <= value(samples, "piratz_email_backlog_oldest_seconds") < 16 * 60
    assert value(samples, "piratz_webhook_backlog") == 1
    assert 20 * 60 <= value(samples, "piratz_webhook_backlog_oldest_seconds") < 21 * 60


def test_sweep_lag_is_how_late_the_most_overdue_unpaused_game_is(client, toy_game, anna, bert):
    now = timezone.now()
    Game.objects.filter(id=toy_game.id).update(deadline=now - timedelta(minutes=7))
    assert 7 * 60 <= value(scrape(client), "piratz_deadline_sweep_lag_seconds") < 8 * 60
    # A paused game's clock stands still: it is not late.
    Game.objects.filter(id=toy_game.id).update(paused_at=now)
    assert value(scrape(client), "piratz_deadline_sweep_lag_seconds") == 0


@celery_app.task(name="tests.ops.always_fails")
def always_fails():
    raise ValueError("boom")


def test_celery_task_failures_are_counted_across_processes(client):
    """Counted in the database by the task_failure signal, so any worker's failure counts."""
    for _ in range(2):
        # Run here as a worker runs it: the error is recorded, not raised to the caller.
        assert always_fails.apply(throw=False).failed()
    samples = scrape(client)
    assert value(samples, "piratz_celery_task_failures_total", task="tests.ops.always_fails") == 2


def test_request_latency_is_labelled_by_route_name_never_the_path(client):
    client.get("/healthz")
    client.get("/no/such/page-with-a-secret-token/")
    response = client.get("/metrics")
    text = response.content.decode()
    assert "page-with-a-secret-token" not in text
    samples = scrape(client)
    name = "piratz_http_request_duration_seconds_count"
    assert value(samples, name, route="healthz", method="GET", status="2xx") >= 1
    assert value(samples, name, route="unmatched", method="GET", status="4xx") >= 1


def test_a_database_outage_leaves_a_parseable_scrape_that_says_so(client, monkeypatch):
    def down():
        raise DatabaseError("gone")

    monkeypatch.setattr(metrics, "_counts", down)
    samples = scrape(client)
    assert value(samples, "piratz_database_up") == 0
    assert not any(name == "piratz_email_backlog" for name, _ in samples)


@override_settings(METRICS_COUNTS_CACHE_SECONDS=30)
def test_whole_table_counts_are_cached_between_scrapes(client):
    queue(status="sent")
    assert value(scrape(client), "piratz_emails", kind="turn", status="sent") == 1
    queue(status="sent")
    assert value(scrape(client), "piratz_emails", kind="turn", status="sent") == 1


# --- Who may read them ------------------------------------------------------------------


def test_with_nothing_set_only_this_machine_may_read_them(client):
    assert client.get("/metrics").status_code == 200  # the test client is 127.0.0.1
    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3").status_code == 403


@override_settings(TRUSTED_PROXIES=[ipaddress.ip_network("127.0.0.1/32")])
def test_a_client_relayed_by_a_proxy_on_this_machine_is_not_this_machine(client):
    assert client.get("/metrics").status_code == 200  # the scraper itself, no proxy
    assert client.get("/metrics", HTTP_X_FORWARDED_FOR="203.0.113.9").status_code == 403


@pytest.mark.parametrize(
    "header",
    ["HTTP_X_FORWARDED_FOR", "HTTP_FORWARDED", "HTTP_X_REAL_IP", "HTTP_X_FORWARDED_PROTO"],
)
def test_a_client_relayed_by_an_unlisted_proxy_on_this_machine_is_not_this_machine(client, header):
    # TRUSTED_PROXIES is empty: the proxy's headers are dropped before the view, but
    # their presence still says the loopback connection is a proxy's, not the scraper's.
    assert client.get("/metrics", **{header: "203.0.113.9"}).status_code == 403


@override_settings(METRICS_TOKEN="s3cret-metrics-token")
def test_a_token_must_come_as_bearer(client):
    refused = client.get("/metrics")
    assert refused.status_code == 401
    assert refused["WWW-Authenticate"].startswith("Bearer")
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 401
    allowed = client.get(
        "/metrics", REMOTE_ADDR="10.1.2.3", HTTP_AUTHORIZATION="Bearer s3cret-metrics-token"
    )
    assert allowed.status_code == 200


@override_settings(METRICS_ALLOWED_ADDRESSES=[ipaddress.ip_network("10.0.0.0/8")])
def test_allowed_addresses_let_their_networks_in(client):
    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="192.168.1.1").status_code == 403
    assert client.get("/metrics").status_code == 403  # loopback is not in the list


@override_settings(
    METRICS_TOKEN="s3cret-metrics-token",
    METRICS_ALLOWED_ADDRESSES=[ipaddress.ip_network("10.0.0.0/8")],
)
def test_with_both_set_both_must_hold(client):
    token = "Bearer s3cret-metrics-token"
    assert (
        client.get("/metrics", REMOTE_ADDR="10.1.2.3", HTTP_AUTHORIZATION=token).status_code == 200
    )
    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3").status_code == 401
    assert (
        client.get("/metrics", REMOTE_ADDR="8.8.8.8", HTTP_AUTHORIZATION=token).status_code == 403
    )
