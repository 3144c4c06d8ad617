"""Webhook posts say what a spectator may know: no draw order, no key, no blind collection."""

import json

import pytest

from games.kinds.piratz import rules as piratz
from games.kinds.piratz.words import describe_card
from games.models import GameStatus
from tests.factories import start_game
from webhooks import delivery
from webhooks.models import WebhookDelivery

from .conftest import add_webhook, play, play_some

pytestmark = pytest.mark.django_db

JSON_KEYS = {
    "event", "game_id", "game", "status", "version", "round", "blind", "players",
    "seat_to_move", "player_to_move", "deadline", "table_url", "move", "end_reason", "result",
    "paused", "paused_until",
}  # fmt: skip


def taking_pass(game) -> dict:
    """A pass naming the first face-up card's treasure: it collects cards."""
    view = piratz.view(game.load_state(), game.current_seat)
    wanted = next(iter(view["face_up"][0]["treasures"]))
    return next(
        a for a in view["legal_actions"] if a["action"] == "pass" and a["treasure"] == wanted
    )


def test_blind_game_posts_moves_by_their_kind_only(anna, bert, carla, receiver):
    game = start_game([anna, bert, carla], blind=True)
    add_webhook(game, anna, "json", receiver.url("/json"))
    add_webhook(game, bert, "discord", receiver.url("/discord"))
    revealed = []
    game = play(game, {"action": "reveal"})
    revealed.append(game.load_state().face_up[-1])
    game = play(game, taking_pass(game))
    for _ in range(4):
        game = play_some(game)
        revealed.extend(game.load_state().face_up)
    assert game.status == GameStatus.ACTIVE
    secret = game.state  # the full state: draw order, shuffle key, collections

    delivery.send_due_deliveries()

    assert len(receiver.posts) == 2 * WebhookDelivery.objects.filter(webhook__kind="json").count()
    for post in receiver.posts:
        text = post.body.decode()
        assert secret["key"] not in text
        assert "/enter/" not in text  # the table link signs nobody in
        if post.path == "/json":
            body = post.json
            assert set(body) == JSON_KEYS
            assert body["move"]["revealed"] is None
            assert set(body["move"]["action"]) == {"action"}  # no treasure, bury or keep
            assert body["result"] is None
            assert json.dumps(secret["draw"]) not in text
        else:
            content = post.json["content"]
            for card in revealed:
                assert describe_card(piratz.card(card)) not in content
            reduced = ("revealed a card.", "passed.", "ended their turn.", "resolved a rat alert.")
            assert any(sentence in content for sentence in reduced)


def test_a_finished_game_posts_its_public_result(anna, bert, receiver):
    game = start_game([anna, bert], blind=True)
    add_webhook(game, anna, "json", receiver.url())
    while game.status == GameStatus.ACTIVE:
        game = play_some(game)
    delivery.send_due_deliveries()
    last_move, end = receiver.posts[-2].json, receiver.posts[-1].json
    assert end["event"] == "game_ended"
    assert end["result"] == game.result
    assert end["status"] == "finished"
    # Once the game is over the log is open to all (P23), the last move included.
    assert last_move["move"]["action"] == game.moves.order_by("number").last().action
