"""Simultaneous vacation requests of one person cannot overrun the allowance (PostgreSQL)."""

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from accounts import preferences
from accounts.models import Vacation
from games.errors import GameError

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL"),
    pytest.mark.django_db(transaction=True),
]


def test_simultaneous_vacations_respect_the_allowance(player, settings):
    # Each fits the 21 days alone; any two together do not. Checked one at a time (the
    # person's row is locked), exactly one is accepted.
    settings.VACATION_DAYS_PER_YEAR = 21
    now = timezone.now()
    starts = [now + timedelta(days=1 + 20 * i) for i in range(4)]
    start = threading.Barrier(len(starts))
    accepted, refused, errors = [], [], []

    def declare(begin):
        try:
            start.wait()
            preferences.do_add_vacation(player, begin, begin + timedelta(days=15), now=now)
            accepted.append(begin)
        except GameError as refusal:
            refused.append(refusal.detail)
        except Exception as exc:  # surfaced below; a thread's exception is otherwise lost
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=declare, args=(begin,)) for begin in starts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert len(accepted) == 1
    assert len(refused) == 3 and all("allowance" in detail for detail in refused)
    assert Vacation.objects.filter(user=player).count() == 1
