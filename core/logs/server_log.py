"""gunicorn's own log lines (its start, its workers, the request time limit) as the service's.

gunicorn sets up its loggers (``gunicorn.error``, ``gunicorn.access``) itself, in the master
and before Django's ``LOGGING`` exists, with plain formatters and no filters; Django never
touches them. ``ServerLogger`` (``logger_class`` in gunicorn.conf.py) lets gunicorn make its
handlers as ever, so its options (``--error-logfile``, ``--access-logfile``, ``--log-level``,
syslog) keep working, then gives each of them the service's filters and, with
``LOG_FORMAT=json``, its JSON formatter: every line on standard error is one JSON object.
"""

import logging
import logging.handlers

from gunicorn.glogging import Logger

from core.env import Env
from core.logs.request_log import JsonFormatter, RequestIdFilter
from core.redaction import RedactingFilter


class ServerLogger(Logger):
    """gunicorn's logger, its handlers redacted, tagged with the request id (``-`` for
    gunicorn's own events) and, with ``LOG_FORMAT=json``, writing JSON lines.

    gunicorn's log had no redacting filter: an access log (``--access-logfile``) would
    write login links' paths, which are credentials, as they came. A syslog handler keeps
    gunicorn's format, which starts with the tag syslog reads; it is redacted too.
    """

    def setup(self, cfg) -> None:
        # gunicorn calls this at start and on every reload (SIGHUP), with new handlers.
        super().setup(cfg)
        json_lines = Env().str("LOG_FORMAT", "plain") == "json"
        for handler in (*self.error_log.handlers, *self.access_log.handlers):
            if not any(isinstance(known, RedactingFilter) for known in handler.filters):
                handler.addFilter(RedactingFilter())
                handler.addFilter(RequestIdFilter())
            if json_lines and not isinstance(handler, logging.handlers.SysLogHandler):
                handler.setFormatter(JsonFormatter())
