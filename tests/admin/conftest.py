"""Fixtures for the admin tests; the outbox's (emails, a failing server, a frozen clock) too."""

from tests.notifications.conftest import mail_server_fails, make_email, now  # noqa: F401
