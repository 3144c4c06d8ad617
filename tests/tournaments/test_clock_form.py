"""The tournament form offers the game create form's clock (one declaration,
``games.forms.ClockFields``, shared with the lobby's form), and a tournament's games then
run on that clock."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.forms import CLOCK_FIELD_NAMES
from games.models import ClockKind
from games.views.lobby import CreateGameForm
from lobby.forms import CreateOpenGameForm
from tests.factories import TOY_KIND
from tournaments import actions
from tournaments.models import Tournament
from tournaments.views import CreateTournamentForm

from .helpers import current_pairings, people, start

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_games")]


@pytest.mark.parametrize("form_class", [CreateGameForm, CreateOpenGameForm, CreateTournamentForm])
def test_every_create_form_offers_the_same_clock_right_after_the_hours_per_turn(form_class):
    fields = list(form_class().fields)
    at = fields.index("turn_hours")
    assert fields[at + 1 : at + 1 + len(CLOCK_FIELD_NAMES)] == list(CLOCK_FIELD_NAMES)
    assert [value for value, _label in form_class().fields["clock"].choices] == [
        "per_turn",
        "bank",
        "daily",
    ]


def _form(**changes) -> dict:
    starts = (timezone.now() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    return {
        "name": "Clock cup",
        "game": TOY_KIND,
        "format": "swiss",
        "rounds": 3,
        "starts_at": starts,
        "round_days": 7,
        "turn_hours": 48,
        "max_entrants": 16,
        "rated": "on",
        "signup": "open",
        "invitees": "",
        **changes,
    }


def test_a_time_bank_chosen_on_the_form_is_the_clock_of_the_tournaments_games(client):
    anna, bert, carla = people(3)
    client.force_login(anna)
    page = client.get("/tournaments/new/").content.decode()
    assert 'name="clock"' in page and 'name="increment_hours"' in page
    answer = client.post(
        "/tournaments/new/",
        _form(clock="bank", bank_hours="100", increment_hours="12", cap_hours="200"),
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    cup = Tournament.objects.get(name="Clock cup")
    assert cup.clock == {"kind": "bank", "bank_hours": 100, "increment_hours": 12, "cap_hours": 200}
    for person in (anna, bert, carla):
        actions.do_sign_up(cup.id, person)
    assert start(cup) == 1
    [game] = [pairing.game for pairing in current_pairings(cup) if pairing.game]  # and a bye
    assert (game.clock, game.bank_hours, game.increment_hours, game.cap_hours) == (
        ClockKind.BANK,
        100,
        12,
        200,
    )


def test_a_daily_deadline_from_the_form_and_a_bad_clock_refused(client):
    (anna,) = people(1)
    client.force_login(anna)
    answer = client.post("/tournaments/new/", _form(clock="daily", daily_hour="20"))
    assert answer.status_code == 302
    assert Tournament.objects.get().clock == {"kind": "daily", "hour": 20}
    bad = client.post("/tournaments/new/", _form(name="Bad", clock="bank", bank_hours="0"))
    assert bad.status_code == 400
    assert not Tournament.objects.filter(name="Bad").exists()


def test_the_clock_in_german(client):
    (anna,) = people(1)
    anna.language = "de"
    anna.save()
    client.force_login(anna)
    page = client.get("/tournaments/new/").content.decode()
    assert '<html lang="de">' in page and 'name="daily_hour"' in page
