"""The page of a game not started yet (games/_waiting.html): the host sees who has
accepted, who has not answered and who declined, and when the invitations expire, in
their own zone (issue 24)."""

import re
from datetime import UTC, datetime

import pytest
import time_machine
from django.test import Client

from accounts import preferences
from games import actions
from games.models import Game

pytestmark = pytest.mark.django_db

CREATED = datetime(2026, 11, 26, 10, 0, tzinfo=UTC)
EXPIRES = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)


@pytest.fixture
def waiting(anna, bert, carla) -> Game:
    """Anna's game with Bert, Carla and a bot (seated as accepted): Bert has accepted,
    Carla has not answered; Anna reads Berlin time."""
    preferences.do_update_settings(anna, {"time_zone": "Europe/Berlin"}, now=CREATED)
    game = actions.do_create_game(anna, [anna.email, bert.email, carla.email, "bot:careful"])
    actions.do_accept_invitation(game.id, bert)
    Game.objects.filter(id=game.id).update(invitation_expires_at=EXPIRES)
    return game


def seat_lines(user, game, language="en") -> tuple[list[str], str]:
    """The waiting page as ``user`` reads it: its seat lines (tags and spaces folded) and
    the whole page."""
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    body = client.get(f"/games/{game.id}/").content.decode()
    items = re.findall(r"<li>(.*?)</li>", body.split("<ol>", 1)[1].split("</ol>", 1)[0], re.S)
    return [" ".join(re.sub(r"<[^>]+>", "", item).split()) for item in items], body


@time_machine.travel(CREATED, tick=False)
def test_the_host_sees_who_accepted_who_has_not_and_when_the_invitations_expire(waiting, anna):
    lines, body = seat_lines(anna, waiting)
    assert lines[0] == "Anna (you) — accepted"
    assert lines[1] == "Bert — accepted"
    assert lines[2] == "carla — not answered yet"
    assert lines[3].endswith(" · bot — accepted")
    # 10:00 UTC is 11:00 in Berlin (CET), said as the table says its deadline.
    assert (
        "The invitations are open until Sunday 29 November, 11:00 CET: if not everyone has "
        "accepted by then, the game is cancelled." in body
    )


@time_machine.travel(CREATED, tick=False)
def test_the_waiting_page_in_german(waiting, anna):
    lines, body = seat_lines(anna, waiting, "de")
    assert lines[1:3] == ["Bert — zugesagt", "carla — noch nicht geantwortet"]
    assert (
        "Die Einladungen gelten bis Sonntag, 29. November, 11:00 CET: Hat bis dahin nicht "
        "jeder zugesagt, wird das Spiel abgesagt." in body
    )


def test_a_decline_is_shown_on_the_cancelled_game(waiting, anna, carla):
    with time_machine.travel(CREATED, tick=False):
        actions.do_decline_invitation(waiting.id, carla)
        lines, body = seat_lines(anna, waiting)
    assert lines[2] == "carla — declined"
    assert "The invitations are open" not in body  # cancelled: nothing expires any more


def test_past_its_expiry_the_page_says_the_game_will_not_take_place(waiting, anna):
    with time_machine.travel(datetime(2026, 11, 30, tzinfo=UTC), tick=False):
        _lines, body = seat_lines(anna, waiting)
    assert (
        "The invitations expired on Sunday 29 November, 11:00 CET: the game will not take "
        "place." in body
    )
