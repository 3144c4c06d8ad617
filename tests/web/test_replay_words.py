"""The replay page's sentences read right (issue 24): the reader's own spade is "your
spade", and the last round never claims an empty draw pile beside a counted one."""

import pytest
from django.test import Client

from tests.factories import start_game
from tests.web.test_replay import frames_for, page, play

pytestmark = pytest.mark.django_db


def test_a_card_under_the_readers_spade_is_under_your_spade(anna, bert):
    game = start_game([anna, bert], seed=5)
    play(game, 40, seed=5)
    frames = frames_for(game, 0)
    step = next(
        f["number"] for f in frames if f["buried"] and any(b["seat"] == 0 for b in f["buried"])
    )
    client = Client()
    client.force_login(anna)
    body = page(client, game, step)[1]
    assert "under your spade" in body
    assert "You's" not in body and "You&#x27;s" not in body
    client.cookies["django_language"] = "de"
    body = client.get(f"/games/{game.id}/replay/?step={step}", HTTP_ACCEPT_LANGUAGE="de").content
    assert "unter deinem Spaten" in body.decode()


def test_the_last_round_says_the_draw_pile_ran_out_in_this_round(anna, bert):
    """P18: the draw pile may be refilled from the discard pile in the last round, so the
    note must not say it "has run out" beside "Draw pile: 9 cards"."""
    game = start_game([anna, bert], seed=5)
    play(game, None, seed=5)
    frames = frames_for(game, 0)
    step = next(f["number"] for f in frames if f["last_round"])
    client = Client()
    client.force_login(anna)
    body = page(client, game, step)[1]
    assert "Last round: the draw pile ran out in this round, so the game ends with it" in body
    assert "has run out" not in body
