"""The signals accounts asks the apps above it with (issue 33, decision 0006): each app's
files of a person's export (``export_asked``) and its part of an erasure
(``erasing_account``)."""

import pytest

from accounts import erasure, personal_data
from accounts.models import User
from tests.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def connected():
    """Connect a receiver for one test: ``connected(signal, receiver)``."""
    made = []

    def connect(signal, receiver):
        signal.connect(receiver, weak=False, dispatch_uid=f"test.{id(receiver)}")
        made.append((signal, receiver))

    yield connect
    for signal, receiver in made:
        signal.disconnect(dispatch_uid=f"test.{id(receiver)}")


def test_every_app_answers_its_files_sorted_after_accounts_own():
    names = list(personal_data.export_files(make_user("anna@example.com")))
    assert names[:3] == ["account.json", "settings.json", "emails.json"]
    assert names[3:] == sorted(names[3:]) and "games.json" in names


@pytest.mark.parametrize("taken", ["account.json", "games.json"])
def test_a_file_name_answered_twice_is_refused(connected, taken):
    connected(personal_data.export_asked, lambda sender, *, user, **kwargs: {taken: []})
    with pytest.raises(ValueError, match=taken):
        personal_data.export_files(make_user("anna@example.com"))


def test_an_eraser_that_raises_leaves_the_account_as_it_was(connected):
    anna = make_user("anna@example.com")

    def refuse(sender, *, user, now, **kwargs):
        raise RuntimeError("cannot erase now")

    connected(erasure.erasing_account, refuse)
    with pytest.raises(RuntimeError):
        erasure.erase_user(anna.pk)
    anna = User.objects.get(pk=anna.pk)
    assert anna.erased_at is None and anna.email == "anna@example.com"
