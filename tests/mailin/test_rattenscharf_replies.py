"""Rattenscharf by reply: a placement (R28) written in English or German, refused with the
usual answer when it cannot be read or is illegal (R30), and a whole game played by email."""

import pytest

from games.kinds.rattenscharf import rules as rattenscharf
from games.models import Move
from mailin.parser import MoveParseError, parse_move
from notifications.models import OutboundEmail
from tests.factories import start_game
from tests.rules.rattenscharf.helpers import act as place

from .conftest import build_reply, latest_reply_to, pipe, players_to_move, reply_as

PLACEMENTS = [
    ("place 17 at 2,0 h", place(17, 2, 0)),
    ("Place strip #17 at (2, 0) horizontal.", place(17, 2, 0)),
    ("17 2 0 v flip", place(17, 2, 0, "v", True)),
    ("17 -1,-2 v", place(17, -1, -2, "v")),
    ("place 5 at \u22121,2 h", place(5, -1, 2)),
    ("put 3 on 4 5 flipped vertical", place(3, 4, 5, "v", True)),
    ("lege 17 auf 2,0 waagerecht gedreht", place(17, 2, 0, "h", True)),
    ("Lege Streifen 8 auf 0, 3 senkrecht", place(8, 0, 3, "v")),
    ("legen 9 auf -3,1 w", place(9, -3, 1)),
    ("12 3 4 s umgedreht", place(12, 3, 4, "v", True)),
]


@pytest.mark.parametrize(("line", "action"), PLACEMENTS)
def test_a_placement_in_english_or_german_r28(line, action):
    assert parse_move(line, "rattenscharf") == action


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("", "empty"),
        ("reveal", "unknown_command"),
        ("place", "missing_strip"),
        ("place 17", "missing_position"),
        ("place 17 at 2", "missing_position"),
        ("place 17 at 2,0", "missing_orientation"),
        ("place 17 at 2,0 h please", "unexpected_words"),
        ("place 17 at 2,0 h v", "unexpected_words"),
    ],
)
def test_what_names_no_placement_is_refused_with_its_reason(line, code):
    with pytest.raises(MoveParseError) as error:
        parse_move(line, "rattenscharf")
    assert error.value.code == code


def test_piratz_lines_still_mean_piratz_moves():
    assert parse_move("reveal", "piratz") == {"action": "reveal"}
    with pytest.raises(MoveParseError):
        parse_move("place 17 at 2,0 h", "piratz")


@pytest.mark.django_db
def test_an_illegal_or_unreadable_reply_is_answered_with_why_and_what_now(anna, bert):
    game = start_game([anna, bert], game="rattenscharf", seed=1)
    turn_email = OutboundEmail.objects.get(template="your_turn", to=anna.email).rendered()
    assert "Reply-To" in turn_email.headers
    assert "reply to this email with your move on the first line" in turn_email.body_text
    strip = rattenscharf.view(game.load_state(), 0)["hand"][0]["id"]

    pipe(build_reply(anna.email, latest_reply_to(anna), f"place {strip} at 5,5 h"))
    refused = OutboundEmail.objects.filter(template="mail_answer").latest("id").rendered()
    assert refused.subject == "Move refused in Rattenscharf with Bert"
    assert "must touch a strip already laid" in refused.body_text  # R13, in words
    assert f"“place {strip} at x,y h” (or v" in refused.body_text
    pipe(build_reply(anna.email, latest_reply_to(anna), f"place {strip} at 5"))
    refused = OutboundEmail.objects.filter(template="mail_answer").latest("id").rendered()
    assert "Say where the strip goes: the x,y of its left or top cell" in refused.body_text
    game.refresh_from_db()
    assert game.version == 0


@pytest.mark.django_db
def test_a_whole_rattenscharf_game_is_played_by_replying(anna, bert, client, settings):
    settings.MAILIN_PER_ADDRESS_PER_HOUR = 1000
    game = start_game([anna, bert], game="rattenscharf", seed=1)
    people = {0: anna, 1: bert}
    moves = 0
    for player in players_to_move(game, people):
        action = rattenscharf.timeout_action(game.load_state())
        where = f"{action['x']},{action['y']}"
        if moves % 2:
            line = f"lege {action['strip']} auf {where} " + (
                "waagerecht" if action["orientation"] == "h" else "senkrecht"
            )
            line += " gedreht" if action["flip"] else ""
        else:
            line = f"place {action['strip']} at {where} {action['orientation']}"
            line += " flip" if action["flip"] else ""
        reply_as(player, client, line, by_webhook=moves % 7 == 6)
        moves += 1
        last = Move.objects.filter(game=game).order_by("-number").first()
        assert (last.number, last.action) == (game.version + 1, action)
    assert game.result["reason"] == "complete"
    assert moves == game.version == 42  # R18: 42 strips, one move each
    answers = OutboundEmail.objects.filter(template="mail_answer").order_by("id")
    assert answers.count() == moves
    first = answers.first().rendered()
    assert first.subject == "Move played in Rattenscharf with Bert"
    assert "You placed strip " in first.body_text
    assert "Bert drew strip " in first.body_text
