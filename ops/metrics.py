"""Prometheus metrics: what the database says at scrape time, and request latencies.

Most numbers are read from the database when Prometheus scrapes (``ServiceCollector``),
so they are right whichever process (web, worker, beat, on any machine) did the work and
however often processes restart: moves applied, emails by kind and status, the email and
webhook backlogs with the age of their oldest due item, the deadline sweep's lag, and
Celery task failures (counted in the database as they happen: ``ops.models``). The
backlog and lag queries use the partial indexes the sweeps use; the two totals that count
whole tables (moves, emails) are cached for ``METRICS_COUNTS_CACHE_SECONDS``.

Request latency is measured in the process that served the request
(``RequestMetricsMiddleware``), per route name, never per raw path (a path holds game
ids and tokens). With several gunicorn workers set ``PROMETHEUS_MULTIPROC_DIR`` (an empty
folder at each start): prometheus_client then adds up every worker's histograms.
"""

import contextlib
import os
import time
from collections.abc import Callable, Iterator
from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError
from django.db.models import Count, Min
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from prometheus_client import CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from games.models import Game, GameStatus, Move
from notifications.models import OutboundEmail
from ops.models import TaskFailureCount
from webhooks.models import WebhookDelivery

PREFIX = "piratz"
COUNTS_CACHE_KEY = "ops:metrics:counts"

# Not registered in prometheus_client's global registry: each scrape builds its own
# (``render``), so nothing else a library registers there is published by accident.
REQUEST_LATENCY = Histogram(
    f"{PREFIX}_http_request_duration_seconds",
    "Time from the request's arrival to its answer, per route name, method and status class.",
    ["route", "method", "status"],
    registry=None,
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
)


def route_label(request: HttpRequest) -> str:
    """The route's name (``games:table``), or its pattern when unnamed; ``unmatched`` for
    a path no route matched. Bounded: never the path itself."""
    match = getattr(request, "resolver_match", None)
    if match is None:
        return "unmatched"
    return match.view_name or match.route or "unnamed"


class RequestMetricsMiddleware:
    """Time every request into ``REQUEST_LATENCY`` (near the top of ``MIDDLEWARE``, so
    the time includes the other middleware)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        REQUEST_LATENCY.labels(
            route=route_label(request),
            method=request.method if request.method in _METHODS else "other",
            status=f"{response.status_code // 100}xx",
        ).observe(time.perf_counter() - started)
        return response


# Methods outside these are labelled "other": a client may send any word as a method.
_METHODS = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}


def _age(oldest: datetime | None, now: datetime) -> float:
    return max(0.0, (now - oldest).total_seconds()) if oldest else 0.0


def _counts() -> dict:
    """Moves by game and actor, emails by kind and status: whole-table counts, cached."""
    try:
        cached = cache.get(COUNTS_CACHE_KEY)
    except Exception:  # no cache: count every time rather than fail the scrape
        cached = None
    if cached is not None:
        return cached
    counts = {
        "moves": [
            (row["game__game"], row["actor"], row["n"])
            for row in Move.objects.values("game__game", "actor").annotate(n=Count("id")).order_by()
        ],
        "emails": [
            (row["template"], row["status"], row["n"])
            for row in OutboundEmail.objects.values("template", "status")
            .annotate(n=Count("id"))
            .order_by()
        ],
    }
    with contextlib.suppress(Exception):  # no cache: served uncached until it is back
        cache.set(COUNTS_CACHE_KEY, counts, timeout=settings.METRICS_COUNTS_CACHE_SECONDS)
    return counts


class ServiceCollector(Collector):
    """The metrics read from the database at scrape time (see the module docstring).

    ``piratz_database_up`` is 0 when the database could not be read; the metrics that
    need it are then left out of the scrape rather than reported as zero.
    """

    def __init__(self, now: Callable[[], datetime] = timezone.now):
        self.now = now

    def collect(self) -> Iterator[Metric]:
        try:
            families = list(self._database_families(self.now()))
        except DatabaseError:
            families = []
        up = GaugeMetricFamily(
            f"{PREFIX}_database_up", "1 when the metrics could read the database, else 0."
        )
        up.add_metric([], 1 if families else 0)
        yield up
        yield from families

    def _database_families(self, now: datetime) -> Iterator[Metric]:
        counts = _counts()
        moves = CounterMetricFamily(
            f"{PREFIX}_moves_applied",
            "Moves applied, by kind of game and by who made them: a player, the service "
            "(automatic, the deadline passed), a moderator, a bot.",
            labels=["game", "actor"],
        )
        for game, actor, n in counts["moves"]:
            moves.add_metric([game, actor], n)
        yield moves

        emails = GaugeMetricFamily(
            f"{PREFIX}_emails",
            "Emails in the outbox by kind (template) and status: pending and sending are "
            "queued; sent, failed and dropped are done.",
            labels=["kind", "status"],
        )
        for kind, status, n in counts["emails"]:
            emails.add_metric([kind, status], n)
        yield emails

        yield from self._backlog("email", OutboundEmail, now)
        yield from self._backlog("webhook", WebhookDelivery, now)

        # Active, unpaused games whose deadline has passed: the sweep plays their timeout
        # within a minute, so a large value means the sweep (beat or worker) is not running.
        most_overdue = Game.objects.filter(
            status=GameStatus.ACTIVE, paused_at__isnull=True, deadline__lte=now
        ).aggregate(oldest=Min("deadline"))["oldest"]
        lag = GaugeMetricFamily(
            f"{PREFIX}_deadline_sweep_lag_seconds",
            "How late the most overdue active game's timeout is (0: none overdue).",
        )
        lag.add_metric([], _age(most_overdue, now))
        yield lag

        failures = CounterMetricFamily(
            f"{PREFIX}_celery_task_failures",
            "Celery tasks that raised, by task name, in every worker since the start.",
            labels=["task"],
        )
        for task, count in TaskFailureCount.objects.values_list("task", "count"):
            failures.add_metric([task], count)
        yield failures

    def _backlog(self, kind: str, model, now: datetime) -> Iterator[Metric]:
        due = model.objects.due(now).aggregate(n=Count("pk"), oldest=Min(model.DUE_FIELD))
        backlog = GaugeMetricFamily(
            f"{PREFIX}_{kind}_backlog",
            f"{kind.capitalize()}s due to be sent now and not yet sent (pending, due).",
        )
        backlog.add_metric([], due["n"])
        yield backlog
        oldest = GaugeMetricFamily(
            f"{PREFIX}_{kind}_backlog_oldest_seconds",
            f"How long the oldest due {kind} has been due (0: none).",
        )
        oldest.add_metric([], _age(due["oldest"], now))
        yield oldest


def registry() -> CollectorRegistry:
    """A registry for one scrape: the database's metrics and the request latencies."""
    scrape = CollectorRegistry(auto_describe=False)
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        MultiProcessCollector(scrape)  # every worker's histograms, from their files
    else:
        scrape.register(REQUEST_LATENCY)
    scrape.register(ServiceCollector())
    return scrape


def render() -> bytes:
    """The metrics in Prometheus's text exposition format."""
    return generate_latest(registry())
