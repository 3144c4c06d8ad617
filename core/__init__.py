"""The floor below every app: what every app uses and that knows no app.

The service's error type (``errors``), the REST API's shared plumbing (``api/``), the
outbound transport (``outbound/``), the one rule for typed text (``text``), tasks by name
(``tasks``); and the helpers the settings, gunicorn and Celery load before any app:
typed readers of the environment (``env``), redaction of credentials and addresses
(``redaction``), which forwarded headers to believe (``proxies``), a Redis outage
(``cache_outage``), the zero-setup broker (``file_broker``) and the service's log lines
and error reports (``logs/``).

Nothing here imports an app (accounts, games, notifications, ...); the apps import it
(docs/architecture.md "The floors"; `lint-imports` enforces it).
"""
