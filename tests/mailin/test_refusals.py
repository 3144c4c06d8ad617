"""Each way a reply is refused: answered with why and what is legal now, nothing applied."""

import pytest

from games.actions import do_abort_game
from games.models import Game, Move
from games.reply_tokens import read_reply_addresses, reply_address
from moderation.actions import do_suspend_user
from notifications.models import OutboundEmail
from tests.factories import start_game

from .conftest import build_reply, latest_reply_to, pipe

pytestmark = pytest.mark.django_db


@pytest.fixture
def duel(anna, bert):
    """Anna (seat 0) against Bert, seed 7: Anna is to move at version 0, the row is empty."""
    return start_game([anna, bert])


def answers_to(user):
    return OutboundEmail.objects.filter(to=user.email, template="mail_answer").order_by("id")


def test_a_line_that_names_no_move_is_refused_and_can_be_tried_again(duel, anna):
    pipe(build_reply(anna.email, latest_reply_to(anna), "Hello, I reveal\n\n> Your turn"))
    answer = answers_to(anna).get().rendered()
    assert "Move refused" in answer.subject
    assert "“hello” is not a move we know." in answer.body_text
    assert "“reveal”: turn up the top card" in answer.body_text
    assert Game.objects.get(id=duel.id).version == 0 and not Move.objects.exists()
    # The answer's Reply-To is for the same version: replying to it plays.
    token = read_reply_addresses([answer.headers["Reply-To"]])
    assert (token.game_id, token.seat, token.user_id, token.version) == (duel.id, 0, anna.id, 0)
    pipe(build_reply(anna.email, answer.headers["Reply-To"], "reveal"))
    assert Game.objects.get(id=duel.id).version == 1
    assert "Move played" in answers_to(anna).last().rendered().subject


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("end", "at its start you may reveal a card or pass"),
        ("pass coins bury 12", "your spade goes down on no card"),
        ("keep 3 bury 4", "in a rat alert, keep one of the two rats"),
        ("pass gold", "“gold” is not a treasure type."),
        ("keep", "A card number is missing"),
    ],
)
def test_an_illegal_move_is_refused_with_what_is_legal_now(duel, anna, line, why):
    pipe(build_reply(anna.email, latest_reply_to(anna), line))
    answer = answers_to(anna).get().rendered()
    assert "Move refused" in answer.subject and f"you wrote “{line}”" in answer.body_text
    assert why in answer.body_text
    assert "“reveal”" in answer.body_text and "“pass <treasure>”" in answer.body_text
    assert Game.objects.get(id=duel.id).version == 0 and not Move.objects.exists()
    assert read_reply_addresses([answer.headers["Reply-To"]]).version == 0


@pytest.mark.parametrize("line", ["end", "reveal"])
def test_a_reply_to_an_older_email_is_refused_and_nothing_applied(duel, anna, line):
    turn_email = latest_reply_to(anna)  # version 0
    pipe(build_reply(anna.email, turn_email, "reveal"))
    assert Game.objects.get(id=duel.id).version == 1
    # Replying again to the turn email: the game has moved on, whatever the line says
    # (the same "reveal" again too).
    pipe(build_reply(anna.email, turn_email, line))
    assert Game.objects.get(id=duel.id).version == 1 and Move.objects.count() == 1
    answer = answers_to(anna).last().rendered()
    assert "Move refused" in answer.subject
    assert "Your reply answers an older email" in answer.body_text
    assert answer.body_text.count("nothing was played") == 1  # not twice in two sentences
    # It is still Anna's move: the answer shows the table now and replies to it go on.
    assert read_reply_addresses([answer.headers["Reply-To"]]).version == 1


def test_a_token_of_the_player_not_to_move_is_refused(duel, bert):
    address = reply_address(duel.id, 1, bert.id, 0)
    pipe(build_reply(bert.email, address, "reveal"))
    answer = answers_to(bert).get().rendered()
    assert "It is not your turn." in answer.body_text
    assert "Reply-To" not in answer.headers  # nothing Bert could play now
    assert Game.objects.get(id=duel.id).version == 0


def test_a_reply_after_the_game_ended_is_refused(duel, anna, moderator):
    address = latest_reply_to(anna)
    do_abort_game(duel.id, moderator, reason="test")
    pipe(build_reply(anna.email, address, "reveal"))
    answer = answers_to(anna).get().rendered()
    assert "This game is aborted." in answer.body_text
    assert "The game has ended." in answer.body_text
    assert "Reply-To" not in answer.headers
    assert not Move.objects.exists()


def test_a_suspended_player_cannot_play_by_email(duel, anna, moderator):
    address = latest_reply_to(anna)
    do_suspend_user(moderator, anna, "test")
    pipe(build_reply(anna.email, address, "reveal"))
    assert "suspended your account" in answers_to(anna).get().rendered().body_text
    assert not Move.objects.exists()


def test_an_answer_ends_like_the_game_emails_without_an_unsubscribe_link(duel, anna):
    pipe(build_reply(anna.email, latest_reply_to(anna), "reveal"))
    answer = answers_to(anna).get().rendered()
    # It had no footer in plain text, and the HTML's said someone had entered the address.
    text_footer = answer.body_text.split("\n--\n")[1]
    assert "You get this email because you play a game here." in text_footer
    assert "Your notification settings: http://" in text_footer
    assert "No more emails like this one" not in answer.body_text
    assert "because you play a game here" in answer.body_html
    assert "someone entered your address" not in answer.body_html
    assert "\n\nTHE TABLE" in answer.body_text  # a blank line before the table
