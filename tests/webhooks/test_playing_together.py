"""Webhooks post the host's pause, resume and extension, and a resignation as a move."""

import pytest

from games import actions
from webhooks.models import WebhookDelivery

from .conftest import add_webhook

pytestmark = pytest.mark.django_db


def test_pause_resume_extend_and_resign_are_posted(game, anna, bert, receiver):
    # Piratz's game: a resigned seat's bot plays it to the end (P26), at a table of three.
    add_webhook(game, anna, "json", receiver.url())
    add_webhook(game, bert, "discord", receiver.url("/discord"))
    actions.do_pause_game(game.id, anna, "dinner")
    actions.do_resume_game(game.id, anna)
    actions.do_extend_turn(game.id, anna, 5)
    actions.do_resign(game.id, bert, 0)
    posted = [
        (row.event, row.body)
        for row in WebhookDelivery.objects.filter(webhook__kind="json").order_by("id")
    ]
    assert [event for event, _body in posted] == [
        "game_paused",
        "game_resumed",
        "deadline_extended",
        "move_applied",
    ]
    paused = posted[0][1]
    assert paused["paused"] is True and paused["paused_until"] is not None
    assert "dinner" not in str(paused)  # the host's reason goes to the players only
    assert posted[3][1]["move"]["action"] == {"action": "resign"}
    chat = WebhookDelivery.objects.filter(webhook__kind="discord").order_by("id")
    assert "paused the game" in chat[0].body["content"]
    # The person's name where the sentence says what happened; the short label elsewhere.
    assert "Bert resigned." in chat[3].body["content"]
    assert "resigned resigned" not in chat[3].body["content"]
    resigned = posted[3][1]["players"][1]
    assert (resigned["label"], resigned["role"]) == ("Bert · resigned", "resigned")
    assert resigned["name"] == "Bert (resigned; a careful bot plays on)"
