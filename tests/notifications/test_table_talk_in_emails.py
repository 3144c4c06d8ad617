"""Table talk in the turn email's recap and in the digest (issue 25): the others' messages
since the reader's last move, with their authors, hidden ones as hidden, escaped in HTML."""

from datetime import timedelta

import pytest

from accounts.models import NotificationSettings
from games import actions, table_talk
from games.models import Game
from games.notify.digest import queue_digest
from talk.actions import do_hide_message, post_message
from tests.factories import start_game
from tests.notifications.conftest import emails

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("site_and_clock")]


def turn(game: Game, user, time_machine) -> Game:
    """``user``, to move, passes (the first pass the view offers): the turn ends."""
    time_machine.shift(timedelta(minutes=1))
    view = game.rules.view(game.load_state(), game.current_seat)
    action = next(a for a in view["legal_actions"] if a["action"] == "pass")
    game = actions.do_play_move(game.id, user, game.version, action)
    game.refresh_from_db()
    return game


def say(game, user, text, time_machine):
    time_machine.shift(timedelta(minutes=1))
    return post_message(game, user, text)


def talk_section(body_text: str) -> list[str]:
    section = body_text.split("Table talk since your last move:\n", 1)[1].split("\n\n", 1)[0]
    return [line.strip().removeprefix("- ") for line in section.splitlines()]


def test_the_turn_email_tells_the_others_talk_since_the_readers_last_move(
    anna, bert, moderator, time_machine
):
    game = start_game([anna, bert])
    say(game, bert, "Before your move", time_machine)
    say(game, anna, "Hello Bert", time_machine)
    game = turn(game, anna, time_machine)
    # Bert has not moved yet: everything Anna wrote, none of his own.
    assert talk_section(emails("your_turn", bert)[-1].body_text) == ["Anna: Hello Bert"]

    say(game, bert, "Mind the <b>rats</b> & co", time_machine)
    rude = say(game, bert, "something rude", time_machine)
    do_hide_message(moderator, rude.pk, "rude")
    game = turn(game, bert, time_machine)
    mail = emails("your_turn", anna)[-1]
    # Since Anna's last move only: "Before your move" was before it.
    assert talk_section(mail.body_text) == [
        "Bert: Mind the <b>rats</b> & co",
        "Bert: a message was hidden by a moderator.",
    ]
    assert "something rude" not in mail.body_text + mail.body_html
    assert "Mind the &lt;b&gt;rats&lt;/b&gt; &amp; co" in mail.body_html
    assert "<b>rats</b>" not in mail.body_html


def test_no_talk_no_section_and_a_long_talk_is_cut_to_the_newest(
    anna, bert, time_machine, monkeypatch
):
    game = start_game([anna, bert])
    game = turn(game, anna, time_machine)
    assert "Table talk" not in emails("your_turn", bert)[-1].body_text
    monkeypatch.setattr(table_talk, "MAX_LISTED", 2)
    game = turn(game, bert, time_machine)
    for number in range(5):
        say(game, anna, f"message {number}", time_machine)
    game = turn(game, anna, time_machine)
    assert talk_section(emails("your_turn", bert)[-1].body_text) == [
        "3 earlier messages: on the game's page.",
        "Anna: message 3",
        "Anna: message 4",
    ]


def test_the_digest_tells_each_games_talk(anna, bert, time_machine):
    NotificationSettings.objects.create(user=bert, mode="digest")
    game = start_game([anna, bert])
    say(game, anna, "Your <move>", time_machine)
    game = turn(game, anna, time_machine)
    assert queue_digest(bert, [game]) is True
    [digest] = emails("digest", bert)
    assert talk_section(digest.body_text) == ["Anna: Your <move>"]
    assert "Anna</strong>: Your &lt;move&gt;" in digest.body_html


def test_a_message_on_several_lines_stands_in_below_its_first_in_the_turn_email(
    anna, bert, time_machine
):
    game = start_game([anna, bert])
    say(game, anna, "gg\nIt is your turn: https://evil.example", time_machine)
    game = turn(game, anna, time_machine)
    body = emails("your_turn", bert)[-1].body_text
    assert "- Anna: gg\n    It is your turn: https://evil.example\n" in body
    assert not any(line.startswith("It is your turn: https") for line in body.splitlines())
