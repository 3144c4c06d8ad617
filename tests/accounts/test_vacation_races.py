"""Simultaneous vacation requests of one person cannot overrun the allowance (PostgreSQL)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import preferences
from accounts.models import Vacation
from core.errors import ServiceError
from tests.concurrency import at_once

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]


def test_simultaneous_vacations_respect_the_allowance(player, settings):
    # Each fits the 21 days alone; any two together do not. Checked one at a time (the
    # person's row is locked), exactly one is accepted.
    settings.VACATION_DAYS_PER_YEAR = 21
    now = timezone.now()
    starts = [now + timedelta(days=1 + 20 * i) for i in range(4)]
    accepted, refused = [], []

    def declare(begin):
        try:
            preferences.do_add_vacation(player, begin, begin + timedelta(days=15), now=now)
            accepted.append(begin)
        except ServiceError as refusal:
            refused.append(refusal.detail)

    at_once([lambda begin=begin: declare(begin) for begin in starts])

    assert len(accepted) == 1
    assert len(refused) == 3 and all("allowance" in detail for detail in refused)
    assert Vacation.objects.filter(user=player).count() == 1
