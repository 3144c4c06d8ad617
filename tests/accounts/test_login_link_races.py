"""Concurrent requests for one address cannot get past the per-address cap (PostgreSQL)."""

import pytest

from accounts.login_links import request_login_link
from accounts.models import LoginLink
from tests.concurrency import at_once

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]


def test_simultaneous_requests_respect_the_cap(settings):
    settings.LOGIN_LINKS_PER_ADDRESS_PER_HOUR = 1
    sent = at_once([lambda: request_login_link("anna@example.com")] * 6)

    assert sorted(sent) == [False] * 5 + [True]
    assert LoginLink.objects.count() == 1
