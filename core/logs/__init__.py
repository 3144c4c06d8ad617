"""What the service writes about itself, each line redacted (``core.redaction``): log
lines tagged with their request's id (``request_log``), gunicorn's own lines
(``server_log``) and error reports to Sentry (``error_reports``). Loaded by the settings
and gunicorn before any app."""
