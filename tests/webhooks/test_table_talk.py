"""Webhooks post table talk (issue 25): a ``message`` event per message, written in the
message's transaction; a refused message posts nothing, hiding one later posts nothing."""

import pytest
from django.test import override_settings

from core.errors import ServiceError
from talk.actions import do_hide_message, post_message
from webhooks.models import WebhookDelivery

from .conftest import add_webhook

pytestmark = pytest.mark.django_db


def posts(kind: str) -> list[WebhookDelivery]:
    return list(WebhookDelivery.objects.filter(webhook__kind=kind).order_by("id"))


def test_a_message_is_posted_as_its_own_event(toy_game, anna, bert, receiver, moderator):
    add_webhook(toy_game, anna, "json", receiver.url())
    add_webhook(toy_game, bert, "discord", receiver.url("/discord"))
    add_webhook(toy_game, bert, "slack", receiver.url("/slack"))
    message = post_message(toy_game, bert, "Hi @everyone <b>& you</b>")
    [json_post] = posts("json")
    assert json_post.event == "message"
    assert json_post.body["event"] == "message"
    said = json_post.body["message"]
    assert (said["id"], said["seat"], said["name"], said["text"]) == (
        message.pk,
        1,
        "Bert",
        "Hi @everyone <b>& you</b>",
    )
    assert said["at"].endswith("Z") and json_post.body["move"] is None
    [discord] = posts("discord")
    # Discord's markup escaped (tests/webhooks/test_chat_markup.py), and no pings anyway.
    assert r"Bert at the table: Hi \@everyone \<b\>& you\</b\>" in discord.body["content"]
    assert discord.body["allowed_mentions"] == {"parse": []}
    [slack] = posts("slack")
    assert "Bert at the table: Hi @everyone &lt;b&gt;&amp; you&lt;/b&gt;" in slack.body["text"]
    # Hidden later: the post already went, and hiding posts nothing more.
    do_hide_message(moderator, message.pk, "rude")
    assert WebhookDelivery.objects.count() == 3


@override_settings(TALK_MESSAGES_PER_HOUR=1)
def test_a_refused_message_posts_nothing(toy_game, anna, receiver):
    add_webhook(toy_game, anna, "json", receiver.url())
    post_message(toy_game, anna, "one")
    with pytest.raises(ServiceError):
        post_message(toy_game, anna, "two")
    assert [row.body["message"]["text"] for row in posts("json")] == ["one"]
