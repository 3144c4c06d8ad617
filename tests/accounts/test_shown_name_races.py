"""Two people at once cannot end up shown by one name (PostgreSQL): newcomers of one
address name, and a newcomer against a person choosing that name."""

import pytest
from django.utils import timezone

from accounts import preferences
from accounts.models import User
from core.errors import ServiceError
from tests.concurrency import at_once

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]


def test_newcomers_of_one_address_name_at_once_get_a_name_each():
    emails = [f"sam@{number}.example" for number in range(6)]
    people = at_once(
        [lambda email=email: User.objects.get_or_create_for_email(email) for email in emails]
    )
    names = sorted(person.public_name for person in people)
    assert names == ["sam", "sam 2", "sam 3", "sam 4", "sam 5", "sam 6"]


def test_a_newcomer_and_a_chooser_of_their_name_at_once():
    chooser = User.objects.create_user("eve@example.com")

    def choose():
        try:
            preferences.do_update_settings(chooser, {"display_name": "sam"}, now=timezone.now())
        except ServiceError as refused:
            return refused.detail
        return "chosen"

    outcome, newcomer = at_once(
        [choose, lambda: User.objects.get_or_create_for_email("sam@x.example")]
    )
    chooser.refresh_from_db()
    keys = {chooser.public_name.casefold(), newcomer.public_name.casefold()}
    assert len(keys) == 2  # never both "sam"
    assert outcome == "chosen" or "is taken" in outcome
