"""The time left until a deadline, as the table says it after "in" ("the turn ends … (in 2
days, 23 hours)"): in German the dative ("in 2 Tagen", "in 1 Tag"), never "in 2 Tage"."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import translation

from accounts.models import User
from games.templatetags.moments import time_left
from tests.web.test_rattenscharf_table import rattenscharf_game
from tests.web.test_table import table_url

NOW = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("left", "english", "german"),
    [
        (timedelta(days=2, hours=23, minutes=5), "2 days, 23 hours", "2 Tagen, 23 Stunden"),
        (timedelta(days=1, hours=1), "1 day, 1 hour", "1 Tag, 1 Stunde"),
        (timedelta(hours=5, minutes=1), "5 hours, 1 minute", "5 Stunden, 1 Minute"),
        (timedelta(minutes=42), "42 minutes", "42 Minuten"),
        (timedelta(days=9), "1 week, 2 days", "1 Woche, 2 Tagen"),
        (timedelta(days=14), "2 weeks", "2 Wochen"),
    ],
)
def test_the_time_left_reads_right_after_in(left, english, german):
    with time_machine.travel(NOW, tick=False):
        assert time_left(NOW + left).replace("\xa0", " ") == english
        with translation.override("de"):
            assert time_left(NOW + left).replace("\xa0", " ") == german


@pytest.mark.django_db
def test_the_rattenscharf_table_says_in_3_tagen(anna, bert):
    # The table's German says "(in %(left)s)": the time left in the dative.
    User.objects.filter(pk=anna.pk).update(language="de")
    with time_machine.travel(NOW, tick=False):
        game = rattenscharf_game(anna, bert)
        client = Client()
        client.force_login(User.objects.get(pk=anna.pk))
        page = client.get(table_url(game), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "(in 3\xa0Tagen)" in page and "Tage)" not in page
    assert time_left(None) == ""
