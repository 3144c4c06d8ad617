"""The probes and the metrics: plain answers for machines, no pages, no personal data.

None of them uses the session, the user or a throttle: a load balancer or Prometheus may
ask every few seconds, and ``/healthz`` must answer while the database is down.
"""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from prometheus_client import CONTENT_TYPE_LATEST

from ops import access, metrics, readiness


@never_cache
@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """200 "ok": the process is up and answers. Touches no database, cache or broker."""
    return HttpResponse("ok\n", content_type="text/plain; charset=utf-8")


@never_cache
@require_safe
def readyz(request: HttpRequest) -> JsonResponse:
    """200 when the database, the cache and the broker all answer, else 503; the body
    says each one's state: ``{"database": "ok", "cache": "unreachable", "broker": "ok"}``."""
    outcomes = readiness.check_all()
    ready = all(outcome == readiness.OK for outcome in outcomes.values())
    return JsonResponse(outcomes, status=200 if ready else 503)


@never_cache
@require_safe
def metrics_view(request: HttpRequest) -> HttpResponse:
    """The Prometheus text format, to whoever ``ops.access`` allows (401/403 otherwise)."""
    verdict = access.metrics_access(request)
    if verdict == access.NO_TOKEN:
        response = HttpResponse("unauthorized\n", status=401, content_type="text/plain")
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    if verdict != access.ALLOWED:
        return HttpResponse("forbidden\n", status=403, content_type="text/plain")
    return HttpResponse(metrics.render(), content_type=CONTENT_TYPE_LATEST)
