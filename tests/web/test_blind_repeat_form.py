"""The table's move form is no oracle for a blind game's hidden moves either (rules P23).

A form sent again from an older version is told "already played" when it repeats the
move played from there; in a blind game that may only be said of a move its player still
sees (their last), or the one guess told so among many told "the table changed" gives a
hidden pass or kept rat away. (tests/api/test_blind_repeat.py: the same through the API.)
"""

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.games.blind_repeats import play_own_move, play_until_seat_moves_again

pytestmark = pytest.mark.django_db

KINDS = ["pass", "resolve_alarm"]


def form_data(version: int, action: dict) -> dict:
    """The fields a move form of the table posts (games.tables.piratz.parse_move)."""
    data = {"version": str(version), "action": action["action"]}
    for name in ("treasure", "keep", "bury"):
        if name in action:
            data[name] = "" if action[name] is None else str(action[name])
    return data


def post_form(client: Client, game, version: int, action: dict) -> tuple:
    """What the player is shown: where they are sent, and the messages of that page (read
    there, so the next post starts with none)."""
    response = client.post(reverse("games:move", args=[game.id]), form_data(version, action))
    page = client.get(response["Location"])
    shown = tuple((m.level, m.message) for m in get_messages(page.wsgi_request))
    return response.status_code, response["Location"], shown


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("kind", KINDS)
def test_every_guess_at_a_hidden_own_move_is_told_the_same(anna, bert, kind):
    own = play_own_move([anna, bert], kind, blind=True)
    game = play_until_seat_moves_again(own, [anna, bert])
    client = signed_in([anna, bert][own.seat])

    shown = {post_form(client, game, own.version, guess) for guess in own.choices}

    [(status, location, messages)] = shown
    assert status == 302 and location == reverse("games:game", args=[game.id])
    assert "table changed before your move arrived" in str(messages)
    assert Game.objects.get(id=game.id).version == game.version


@pytest.mark.parametrize("blind", [True, False])
def test_a_form_repeating_the_last_move_is_still_told_already_played(anna, bert, blind):
    # Blind or not, a player sees their last move: a second click is told what happened.
    own = play_own_move([anna, bert], "pass", blind=blind)
    client = signed_in([anna, bert][own.seat])

    _, _, messages = post_form(client, own.game, own.version, own.played)

    assert "already been played" in str(messages)
    assert Game.objects.get(id=own.game.id).version == own.version + 1
