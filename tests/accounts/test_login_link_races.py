"""Concurrent requests for one address cannot get past the per-address cap (PostgreSQL)."""

import threading

import pytest
from django.db import connection, connections

from accounts.login_links import request_login_link
from accounts.models import LoginLink

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL"),
    pytest.mark.django_db(transaction=True),
]


def test_simultaneous_requests_respect_the_cap(settings):
    settings.LOGIN_LINKS_PER_ADDRESS_PER_HOUR = 1
    start = threading.Barrier(6)
    sent, errors = [], []

    def ask():
        try:
            start.wait()
            sent.append(request_login_link("anna@example.com"))
        except Exception as exc:  # surfaced below; a thread's exception is otherwise lost
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert sorted(sent) == [False] * 5 + [True]
    assert LoginLink.objects.count() == 1
