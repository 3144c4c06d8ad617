"""Discord and Slack posts show what people typed (table talk, names) as text: a chat's
markup in it is escaped, so it cannot disguise a link or mention anyone, and a message on
several lines is quoted, so none of its lines passes for one of the service's own."""

import pytest

from accounts.models import User
from talk.actions import post_message
from webhooks.models import WebhookDelivery

from .conftest import add_webhook, play_some

pytestmark = pytest.mark.django_db

FORGED = (
    "gg\n"
    "Now it is Bert's turn. Deadline: tomorrow.\n"
    "\n"
    "[Your login link](https://evil.example) <https://evil.example|Your login link>"
)


@pytest.fixture
def chats(toy_game, anna, receiver):
    add_webhook(toy_game, anna, "discord", receiver.url("/discord"))
    add_webhook(toy_game, anna, "slack", receiver.url("/slack"))


def posted(kind: str) -> str:
    body = WebhookDelivery.objects.filter(webhook__kind=kind).latest("id").body
    return body["content"] if kind == "discord" else body["text"]


def test_a_disguised_link_in_table_talk_shows_as_text_in_discord(toy_game, bert, chats):
    post_message(toy_game, bert, "[Your login link](https://evil.example)")
    content = posted("discord")
    assert r"Bert at the table: \[Your login link\](https://evil.example)" in content
    assert "[Your login link](" not in content.replace(r"\[", "").replace(r"\]", "")
    body = WebhookDelivery.objects.get(webhook__kind="discord").body
    assert body["flags"] == 4  # SUPPRESS_EMBEDS: no preview card of the link's choosing


@pytest.mark.parametrize(("kind", "quote"), [("discord", "> "), ("slack", "&gt; ")])
def test_no_line_of_a_message_passes_for_one_of_the_services(toy_game, bert, chats, kind, quote):
    post_message(toy_game, bert, FORGED)
    lines = posted(kind).split("\n")
    assert lines[1] == "Bert at the table:"
    assert lines[-1] == f"https://piratz.example/games/{toy_game.id}/"
    said = lines[2:-1]
    assert len(said) == 3  # the blank line left out
    assert all(line.startswith(quote) for line in said)
    assert not any(line.startswith("Now it is") for line in lines)


def test_slacks_links_and_mentions_in_table_talk_are_text(toy_game, bert, chats):
    post_message(toy_game, bert, "<!channel> <https://evil.example|Your login link>")
    text = posted("slack")
    assert "&lt;!channel&gt; &lt;https://evil.example|Your login link&gt;" in text
    assert "<" not in text and ">" not in text


def test_names_are_text_in_discord(toy_game, anna, bert, chats):
    # A name from before the rules or an operator's: the chat still shows it as text.
    User.objects.filter(pk=anna.pk).update(display_name="[Anna](https://evil.example) *x*")
    User.objects.filter(pk=bert.pk).update(display_name="[Bert](https://evil.example) *y*")
    play_some(toy_game)  # Anna marks a cell: Bert is to move
    content = posted("discord")
    assert r"\[Anna\](https://evil.example) \*x\* played" in content
    assert r"Now it is \[Bert\](https://evil.example) \*y\*'s turn." in content


@pytest.mark.parametrize("text", ["*" * 1000, "*\n" * 499 + "*"])
def test_a_long_escaped_message_keeps_the_post_within_discords_limit(toy_game, bert, chats, text):
    post_message(toy_game, bert, text)
    content = posted("discord")
    assert len(content) <= 2000
    assert content.endswith(f"https://piratz.example/games/{toy_game.id}/")
    assert "…" in content
