"""A whole game played only by replying to the emails: the pipe and the provider's webhook."""

import random

import pytest

from games import actions
from games.kinds.piratz import rules as piratz
from games.models import Game, GameStatus, Move
from games.reply_tokens import read_reply_addresses
from games.sweeps import send_due_reminders
from notifications.models import OutboundEmail
from tests.factories import start_game

from .conftest import (
    build_reply,
    latest_reply_to,
    mailgun_post,
    pipe,
    players_to_move,
    reply_as,
    reply_to_of,
)

pytestmark = pytest.mark.django_db

GERMAN_TREASURES = {
    "rings": "Ringe",
    "coins": "Münzen",
    "pearls": "Perlen",
    "gems": "Edelsteine",
    "goblets": "Kelche",
    "shells": "Muscheln",
}


def command_for(action: dict, german: bool) -> str:
    """How a player writes ``action`` on the first line of a reply."""
    kind = action["action"]
    if kind == "reveal":
        return "Aufdecken" if german else "reveal"
    if kind == "end_turn":
        return "ende" if german else "End"
    bury = action["bury"]
    if kind == "pass":
        treasure = GERMAN_TREASURES[action["treasure"]] if german else action["treasure"]
        text = f"aussteigen {treasure}" if german else f"pass {treasure}"
    else:
        text = f"behalten {action['keep']}" if german else f"keep #{action['keep']}"
    if bury is not None:
        text += f" verbuddeln {bury}" if german else f" bury {bury}"
    return text


def test_a_whole_game_is_played_by_replying_to_the_emails(anna, bert, client, settings):
    settings.MAILIN_PER_ADDRESS_PER_HOUR = 1000  # a whole game within the test's hour
    game = start_game([anna, bert])
    people = {0: anna, 1: bert}
    rng = random.Random(11)
    moves = 0
    for player in players_to_move(game, people):
        view = piratz.view(piratz.load(game.state), game.current_seat)
        # Reveal more often than not, so that the game reaches its end by the draw pile.
        legal = view["legal_actions"]
        reveals = [a for a in legal if a["action"] == "reveal"]
        action = reveals[0] if reveals and rng.random() < 0.6 else rng.choice(legal)
        # The newest email to the player to move (a turn email or the answer to their last
        # reply) carries the Reply-To for this very version.
        line = command_for(action, german=moves % 2 == 1)
        reply_as(player, client, line, by_webhook=moves % 5 == 4)
        moves += 1
        last = Move.objects.filter(game=game).order_by("-number").first()
        assert (last.number, last.seat, last.action) == (game.version + 1, view["seat"], action)
        assert moves < 400
    assert game.status == GameStatus.FINISHED and game.result is not None
    assert Move.objects.filter(game=game).count() == moves == game.version
    # Every applied move was answered with the move played.
    answers = OutboundEmail.objects.filter(template="mail_answer")
    assert answers.count() == moves
    assert all("Move played" in email.rendered().subject for email in answers)


def test_the_webhook_refuses_a_wrong_signature_and_plays_nothing(anna, bert, client):
    game = start_game([anna, bert])
    raw = build_reply(anna.email, latest_reply_to(anna), "reveal")
    response = mailgun_post(client, raw, key="not-the-signing-key")
    assert response.status_code == 400
    assert Game.objects.get(id=game.id).version == 0
    assert not OutboundEmail.objects.filter(template="mail_answer").exists()
    assert mailgun_post(client, raw).status_code == 200
    assert Game.objects.get(id=game.id).version == 1


def test_the_webhook_is_not_there_without_a_signing_key(anna, bert, client, settings):
    game = start_game([anna, bert])
    raw = build_reply(anna.email, latest_reply_to(anna), "reveal")
    settings.ANYMAIL = {"MAILGUN_WEBHOOK_SIGNING_KEY": ""}
    assert mailgun_post(client, raw).status_code == 404
    assert Game.objects.get(id=game.id).version == 0


def test_replying_to_the_reminder_plays_the_move(anna, bert, time_machine):
    """A late player answers the newest email they have, the reminder: its Reply-To is for
    the game's version when it was sent, so the reply plays as one to the turn email."""
    game = start_game([anna, bert])
    # Anna revealed on the game page: still her turn (decide), one version past her turn
    # email's token.
    game = actions.do_play_move(game.id, anna, game.version, {"action": "reveal"})
    time_machine.move_to(game.next_reminder_at, tick=False)
    assert send_due_reminders() == 1  # the reminder sweep, as the beat runs it

    reminder = OutboundEmail.objects.get(to=anna.email, template="reminder").rendered()
    how = "Or reply to this email with your move on the first line: reveal, end, pass coins"
    assert how in reminder.body_text and how in reminder.body_html
    token = read_reply_addresses([reply_to_of(reminder)])
    assert (token.game_id, token.seat, token.user_id, token.version) == (game.id, 0, anna.id, 1)
    assert latest_reply_to(anna) == reply_to_of(reminder)  # the newest email she has

    text = "end\n\nOn Thursday, Piratz wrote:\n> Reminder: your turn in Piratz"
    subject = f"Re: {reminder.subject}"
    pipe(build_reply(anna.email, reply_to_of(reminder), text, subject=subject))
    game.refresh_from_db()
    move = Move.objects.get(game=game, number=2)
    assert (move.seat, move.action, move.automatic) == (0, {"action": "end_turn"}, False)
    assert (game.version, game.current_seat) == (2, 1)
    answer = OutboundEmail.objects.get(to=anna.email, template="mail_answer").rendered()
    assert "Move played" in answer.subject
    assert OutboundEmail.objects.filter(to=bert.email, template="your_turn").exists()
    # The reminder's token is spent like the turn email's: a second reply is refused.
    pipe(build_reply(anna.email, reply_to_of(reminder), "reveal", subject=subject))
    assert Game.objects.get(id=game.id).version == 2
    refused = OutboundEmail.objects.filter(to=anna.email, template="mail_answer").last().rendered()
    assert "Your reply answers an older email" in refused.body_text
