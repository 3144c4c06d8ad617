"""One log line per event, tagged with the id of the request it happened in.

- ``RequestIdMiddleware`` gives every request an id: the proxy's ``X-Request-ID`` when it
  is well formed (so one id follows a request through nginx and the service), else a new
  one; it is echoed in the answer's ``X-Request-ID`` header.
- ``RequestIdFilter`` (a handler filter, like ``redaction.RedactingFilter``) puts that id
  on every record as ``request_id`` ("-" outside a request: tasks, commands).
- ``JsonFormatter`` writes a record as one JSON object per line (``LOG_FORMAT=json``).

This module imports nothing from the apps: logging is configured before they load.
"""

import json
import logging
import re
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from datetime import UTC, datetime

from django.http import HttpRequest, HttpResponse

HEADER = "X-Request-ID"
NO_REQUEST = "-"
# What we accept from a proxy: what nginx's $request_id (32 hex digits), a UUID or a
# similar token looks like. Anything else (too long, spaces, a newline to forge a log
# line, an address) is replaced, never logged.
_WELL_FORMED = re.compile(r"[A-Za-z0-9._-]{8,64}")

# A context variable, not a thread-local: each gthread worker thread and each asyncio
# task sees its own request's id.
_current: ContextVar[str] = ContextVar("request_id", default=NO_REQUEST)


def current_request_id() -> str:
    """The id of the request being served here, or ``"-"`` outside a request."""
    return _current.get()


def request_id_from(header: str | None) -> str:
    """The proxy's id if well formed, else a new random one (32 hex digits)."""
    if header and _WELL_FORMED.fullmatch(header):
        return header
    return uuid.uuid4().hex


class RequestIdMiddleware:
    """Set the request's id for its log lines and echo it in ``X-Request-ID``.

    First in ``MIDDLEWARE``: the lines every other middleware logs carry the id, and the
    header is set on the answer that leaves, even one another middleware replaced.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = request_id_from(request.headers.get(HEADER))
        request.request_id = request_id  # type: ignore[attr-defined]
        token = _current.set(request_id)
        try:
            response = self.get_response(request)
        finally:
            _current.reset(token)
        response[HEADER] = request_id
        return response


class RequestIdFilter(logging.Filter):
    """A handler filter: the record gets ``request_id``; it is never dropped."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = _current.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ``time`` (UTC, ISO 8601), ``level``, ``logger``,
    ``message``, ``request_id``, and ``exception`` when there is one.

    Put the "redact" filter on the same handler: the message and exception text arrive
    here already redacted (``RedactingFilter`` runs before formatting). Newlines inside
    the message are escaped by JSON, so one event stays one line.
    """

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, tz=UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", NO_REQUEST),
        }
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = record.stack_info
        return json.dumps(entry, ensure_ascii=False, default=str)
