"""Table talk by email (issue 25): say-lines of a reply are posted as messages, with or
without a move; the answer says what became of each, and one never costs the other."""

import pytest
from anymail.inbound import AnymailInboundMessage

from accounts.models import User
from games.models import Game, Move
from games.reply_tokens import reply_address
from mailin.handler import Outcome, handle_message
from mailin.parser import command_line, say_lines
from moderation.actions import do_suspend_user
from notifications.models import OutboundEmail
from talk.models import Message
from tests.factories import start_game

from .conftest import build_reply, latest_reply_to, pipe

pytestmark = pytest.mark.django_db


@pytest.fixture
def duel(anna, bert):
    """Anna (seat 0) against Bert, seed 7: Anna is to move at version 0."""
    return start_game([anna, bert])


def answer_to(user):
    return OutboundEmail.objects.filter(to=user.email, template="mail_answer").last().rendered()


def reply(user, text: str) -> None:
    pipe(build_reply(user.email, latest_reply_to(user), text))


def texts(game) -> list[str]:
    return list(Message.objects.filter(game=game).values_list("text", flat=True))


def test_the_move_is_the_first_line_that_is_not_a_say_line():
    text = "Say good luck!\nreveal\nsag  viel Glück \n\nOn Monday, Piratz wrote:\n> say quoted"
    assert command_line(text) == "reveal"
    assert say_lines(text) == ["good luck!", "viel Glück"]
    assert command_line("say hi\nSAG hallo") == "" and say_lines("say hi\nSAG hallo") == [
        "hi",
        "hallo",
    ]
    # The word alone, or glued to the next, is no say-line.
    assert say_lines("say\nsaying hello\nsagen") == []
    assert say_lines("-- \nsay signature") == []


def test_a_move_and_a_say_line_do_both_and_the_answer_says_both(duel, anna):
    reply(anna, "reveal\nsay Good luck, Bert!\n\nOn Monday, Piratz wrote:\n> say not me")
    assert Game.objects.get(id=duel.id).version == 1
    message = Message.objects.get(game=duel)
    assert (message.text, message.author, message.seat) == ("Good luck, Bert!", anna, 0)
    answer = answer_to(anna)
    assert "Move played" in answer.subject
    assert "you wrote “reveal”, and it is played" in answer.body_text
    assert "“Good luck, Bert!”: posted." in answer.body_text


def test_say_lines_alone_post_each_line_and_refuse_no_move(duel, anna, bert):
    raw = build_reply(anna.email, latest_reply_to(anna), "say Hello\nsay how are you?\n\n> old")
    assert handle_message(AnymailInboundMessage.parse_raw_mime_bytes(raw)) == Outcome.TALKED
    assert texts(duel) == ["Hello", "how are you?"]
    assert Game.objects.get(id=duel.id).version == 0 and not Move.objects.exists()
    answer = answer_to(anna)
    assert answer.subject == "Table talk in Piratz with Bert"
    assert "nothing was played" not in answer.body_text
    assert "We found no move" not in answer.body_text
    assert "“Hello”: posted." in answer.body_text and "“how are you?”: posted." in answer.body_text
    # Still her move: what she may write, and a Reply-To that plays.
    assert "“reveal”" in answer.body_text and "Reply-To" in answer.headers
    # Bert, who is not to move, may talk by replying to a game email of his too.
    pipe(build_reply(bert.email, reply_address(duel.id, 1, bert.id, 0), "sag Hallo Anna"))
    assert texts(duel)[-1] == "Hallo Anna"


def test_a_refused_move_keeps_its_message(duel, anna):
    reply(anna, "say oops\nend")
    assert texts(duel) == ["oops"]
    answer = answer_to(anna)
    assert "Move refused" in answer.subject and "nothing was played" in answer.body_text
    assert "“oops”: posted." in answer.body_text
    assert not Move.objects.exists()


def test_a_refused_message_keeps_the_move_and_says_why(duel, anna):
    reply(anna, "reveal\nsay " + "x" * (Message.MAX_LENGTH + 1))
    assert Game.objects.get(id=duel.id).version == 1 and not Message.objects.exists()
    answer = answer_to(anna)
    assert "Move played" in answer.subject
    assert "”: not posted. A message can be at most 1000 characters" in answer.body_text
    assert "x" * 300 not in answer.body_text  # the echo is cut


def test_a_reply_to_an_older_email_still_posts_its_message(duel, anna):
    old = latest_reply_to(anna)
    pipe(build_reply(anna.email, old, "reveal"))
    pipe(build_reply(anna.email, old, "say still here"))
    assert texts(duel) == ["still here"]
    assert "Your reply answers an older email" not in answer_to(anna).body_text


def test_a_message_is_plain_text_escaped_in_the_html_answer(duel, anna):
    reply(anna, "say <b>bold</b> & <script>x</script>")
    assert texts(duel) == ["<b>bold</b> & <script>x</script>"]
    answer = answer_to(anna)
    assert "“<b>bold</b> & <script>x</script>”: posted." in answer.body_text
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; &lt;script&gt;" in answer.body_html
    assert "<script>" not in answer.body_html


def test_the_answer_is_german_for_a_german_player(duel, anna):
    User.objects.filter(pk=anna.pk).update(language="de")
    reply(anna, "Sag Moin\nsag " + "y" * (Message.MAX_LENGTH + 1))
    answer = answer_to(anna)
    assert "Tischgespräch" in answer.subject
    assert "„Moin“: gesendet." in answer.body_text
    assert "nicht gesendet." in answer.body_text


def test_a_suspended_player_is_told_why_the_message_was_not_posted(duel, anna, moderator):
    do_suspend_user(moderator, anna, "spam")
    reply(anna, "say hi")
    assert not Message.objects.exists()
    assert "suspended" in answer_to(anna).body_text
