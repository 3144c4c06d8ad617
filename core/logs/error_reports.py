"""Optional error reporting to Sentry (``SENTRY_DSN``), with nothing a log may not hold.

``init_error_reports(dsn, ...)`` is called by the settings; with an empty DSN it does
nothing (no client, no network). An event leaves only through ``scrub_event``: every
string in it (message, exception values, breadcrumbs from log lines, the request's URL and
headers) passes ``redaction.redact_text``, so no credential nor readable address reaches
Sentry. Beyond that the client is told to send no personal data (``send_default_pii``), no
local variables (a frame's locals may hold a game's secret state: the draw order) and no
request bodies.

This module imports nothing from the apps: the settings call it before they load.
"""

from typing import Any

from core.redaction import redact_text


def scrub(value: Any) -> Any:
    """``value`` with ``redact_text`` applied to every string inside it (dict keys too)."""
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, dict):
        return {scrub(key): scrub(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [scrub(item) for item in value]
    return value


def scrub_event(event: Any, hint: Any = None) -> Any:
    """Sentry's ``before_send``: the event as it may leave, every string redacted."""
    return scrub(event)


def scrub_breadcrumb(crumb: Any, hint: Any = None) -> Any:
    """Sentry's ``before_breadcrumb``: a log line kept for a later event, redacted now."""
    return scrub(crumb)


def init_error_reports(dsn: str, *, environment: str = "", release: str = "") -> bool:
    """Start Sentry's client with the Django and Celery integrations when ``dsn`` is set.

    Returns whether it was started. Imports ``sentry_sdk`` only then: a service without a
    DSN loads none of it.
    """
    if not dsn:
        return False
    # deferred: only a service that reports errors loads the SDK and its integrations
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=dsn,
        environment=environment or None,
        release=release or None,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        send_default_pii=False,
        include_local_variables=False,
        max_request_body_size="never",
        before_send=scrub_event,
        before_breadcrumb=scrub_breadcrumb,
        # Errors only: no performance tracing unless an operator asks for it in code.
        traces_sample_rate=0.0,
    )
    return True
