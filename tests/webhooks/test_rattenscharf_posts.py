"""Rattenscharf webhook posts: each placement in words (public, R33), the strips the next
player drew, the result with a rat loss (R23); never a strip still in the pile."""

import re

import pytest

from games.kinds.rattenscharf import rules as rattenscharf
from games.models import GameStatus
from tests.factories import start_game
from webhooks import delivery

from .conftest import add_webhook, play

pytestmark = pytest.mark.django_db

# docs/rules/rattenscharf.md, Example 5 (game R): green loses to the rats on turn 4.
GAME_R = [17, 20, 18, 24, 33, 41, 42]
MOVES = [
    (17, 2, 0, "h"),
    (20, -1, 1, "h"),
    (18, 2, 1, "h"),
    (24, -1, 2, "h"),
    (33, 1, 0, "h"),
    (41, 2, 2, "h"),
    (42, 5, 0, "v"),
]


def test_placements_and_the_rat_loss_are_posted_in_words(anna, bert, receiver):
    order = GAME_R + [s for s in rattenscharf.STRIPS if s and s not in GAME_R]
    game = start_game([anna, bert], game="rattenscharf", order=order)
    add_webhook(game, anna, "discord", receiver.url("/discord"))
    add_webhook(game, anna, "json", receiver.url("/json"))
    piles = []
    for strip, x, y, orientation in MOVES:
        action = {"action": "place", "strip": strip, "x": x, "y": y}
        game = play(game, {**action, "orientation": orientation, "flip": False})
        piles.append(set(game.load_state().pile))
    assert game.status == GameStatus.FINISHED
    delivery.send_due_deliveries()

    chat = [p.json["content"] for p in receiver.posts if p.path == "/discord"]
    data = [p.json for p in receiver.posts if p.path == "/json"]
    assert chat[0].startswith(f"Rattenscharf game {str(game.id)[:8]}: Anna placed strip 17 (")
    assert "at (2, 0), horizontal, on level 1: nothing scored. Bert drew strip 20 (" in chat[0]
    assert "Now it is Bert's turn." in chat[0]
    # Example 5: 33@(1,0)h is laid on level 2 and its jalapeno pairs up for green.
    assert (
        "Anna placed strip 33 (red cinnamon, green jalapeno, empty) at (1, 0), horizontal, "
        "on level 2: green scored 1 for jalapeno." in chat[4]
    )
    assert chat[-1].endswith(
        "The game is over. Won by: Anna. Bert lost to the rats (rule R23).\n"
        f"https://piratz.example/games/{game.id}/"
    )
    # The JSON posts carry each placement and the hand it revealed (public, R33).
    moves = [d["move"] for d in data if d["move"] is not None]
    assert [m["action"]["strip"] for m in moves] == [m[0] for m in MOVES]
    assert [s["id"] for s in moves[0]["revealed"]] == [20, 18]
    assert data[-1]["result"]["rat_loser"] == 1
    # Never a strip still in the pile at the time of the post.
    for post, pile in zip(chat, piles, strict=False):
        named = {int(n) for n in re.findall(r"strip (\d+)", post)}
        assert not named & pile
