"""The turn email's "since your last turn" recap, and a hidden-information scan of every email."""

import random
import re
from datetime import UTC, datetime

import pytest

from games import actions
from games.kinds.piratz import rules as piratz
from games.models import Game, GameStatus
from games.movelog import public_log
from notifications.models import OutboundEmail
from tests.api.secrets_scan import _contains_run, assert_no_secrets
from tests.factories import start_game
from tests.notifications.conftest import time_out

pytestmark = pytest.mark.django_db

START = datetime(2030, 11, 19, 9, 0, tzinfo=UTC)
AUTOMATIC = " (Played automatically: the deadline had passed.)"


@pytest.fixture(autouse=True)
def _clock(time_machine):
    time_machine.move_to(START, tick=False)


def play(game: Game, user, action: dict) -> Game:
    game = actions.do_play_move(game.id, user, game.version, action)
    game.refresh_from_db()
    return game


def recap_of(user) -> list[str]:
    """The recap lines of the newest turn email to ``user``."""
    mail = OutboundEmail.objects.filter(template="your_turn", to=user.email).latest("id").rendered()
    section = mail.body_text.split("SINCE YOUR LAST TURN\n", 1)[1].split("\n\n", 1)[0]
    return [line.removeprefix("- ") for line in section.splitlines()]


def test_recap_lists_exactly_the_others_moves_with_rat_alert_automatic_moves_and_round_end(
    game, anna, bert, carla, time_machine
):
    # Seed 7: Anna turns up the rat #2, Bert the rat #5: a rat alert.
    game = play(game, anna, {"action": "reveal"})
    game = play(game, anna, {"action": "end_turn"})
    game = play(game, bert, {"action": "reveal"})
    assert piratz.current_phase(game.load_state()) == "alarm"
    game = play(game, bert, {"action": "resolve_alarm", "keep": 5, "bury": 2})

    # Carla has not moved yet: she gets everything the two others did.
    assert recap_of(carla) == [
        "Anna revealed 1 coin, rat (#2).",
        "Anna ended their turn.",
        "Bert revealed 1 goblet, rat (#5). Rat alert: two rats in the face-up row!",
        "Bert resolved the rat alert, kept 1 goblet, rat (#5) and "
        "buried 1 coin, rat (#2) under their spade.",
    ]

    # Carla's deadline passes: the service passes for her (P24), marked as automatic.
    game = time_out(game, time_machine)
    assert recap_of(anna) == [
        "Bert revealed 1 goblet, rat (#5). Rat alert: two rats in the face-up row!",
        "Bert resolved the rat alert, kept 1 goblet, rat (#5) and "
        "buried 1 coin, rat (#2) under their spade.",
        "carla passed naming rings and placed their spade with no card under it." + AUTOMATIC,
    ]

    # Anna, the last spade holder, reveals and passes: round 1 ends, Bert starts round 2.
    game = play(game, anna, {"action": "reveal"})
    revealed = game.moves.get(number=game.version).revealed
    card = piratz.card(revealed)
    treasure = next(iter(card["treasures"]))
    game = play(game, anna, {"action": "pass", "treasure": treasure, "bury": None})
    assert (game.round, game.current_seat) == (2, 1)
    assert recap_of(bert) == [
        "carla passed naming rings and placed their spade with no card under it." + AUTOMATIC,
        f"Anna revealed {describe(card)}.",
        f"Anna passed naming {treasure} and placed their spade with no card under it.",
        "Round 1 ended: the buried cards went to the discard pile "
        "and every spade went back to its player.",
    ]


def describe(card: dict) -> str:
    from games.kinds.piratz.words import describe_card

    return describe_card(card)


def test_first_turn_email_says_nobody_has_moved(game, anna):
    mail = OutboundEmail.objects.filter(template="your_turn", to=anna.email).latest("id").rendered()
    assert "No moves yet: the game begins with you." in mail.body_text


# --- Hidden information: every email of whole games -----------------------------------------

CARD_ID = re.compile(r"\(#(\d+)\)")


def visible_ids(game: Game, seat: int) -> set[int]:
    """Every card id the player at ``seat`` may see now: their view and their public log."""
    view = piratz.view(game.load_state(), seat)
    ids = {card["id"] for card in view["face_up"]}
    ids |= {buried["card"]["id"] for buried in view["buried"]}
    for collected in view["collected"]:
        ids |= {card["id"] for card in collected["cards"] or []}
    for entry in public_log(game, seat):
        if entry["revealed"]:
            ids.add(entry["revealed"]["id"])
        ids |= {entry["action"][k] for k in ("bury", "keep") if entry["action"].get(k)}
    return ids


def scan_new_emails(game: Game, seen: set[int]) -> int:
    """Check the emails queued since the last call against the game as it is now."""
    game.refresh_from_db()
    state = game.load_state()
    secret = piratz.dump(state)
    seat_of = {s.user.email: s.seat for s in game.seats.select_related("user")}
    checked = 0
    for mail in OutboundEmail.objects.exclude(id__in=seen).exclude(template="invitation"):
        mail.rendered()
        seen.add(mail.id)
        checked += 1
        seat = seat_of[mail.to]
        for text in (mail.subject, mail.body_text, mail.body_html):
            assert_no_secrets(text, state)  # the shuffle key, a dumped draw pile
            assert secret["key"] not in text
            ids = [int(i) for i in CARD_ID.findall(text)]
            # No card the player cannot see, so no card of the draw pile in its order.
            assert set(ids) <= visible_ids(game, seat), (mail.template, set(ids))
            if len(secret["draw"]) >= 3:
                assert not _contains_run(ids, secret["draw"][:3])
            if game.blind and game.status == GameStatus.ACTIVE:
                # Blind mode: collections show counts only, the reader's own included.
                assert not re.search(r"collection: \d+ cards?: ", text), mail.template
    return checked


@pytest.mark.playthrough
@pytest.mark.parametrize("blind", [False, True])
def test_no_email_of_a_whole_game_shows_hidden_information(anna, bert, carla, blind, time_machine):
    users = [anna, bert, carla]
    rng = random.Random(11)
    seen: set[int] = set()
    # Without stand-ins: a player timing out three turns in a row keeps their seat here.
    game = start_game(users, seed=5, blind=blind, stand_in_bots=False)
    checked = 0
    while game.status == GameStatus.ACTIVE:
        state = game.load_state()
        seat = game.current_seat
        if rng.random() < 0.15:
            game = time_out(game, time_machine)
        else:
            legal = piratz.legal_actions(state, seat)
            reveal = {"action": "reveal"}
            action = reveal if reveal in legal and rng.random() < 0.75 else rng.choice(legal)
            game = play(game, users[seat], action)
        checked += scan_new_emails(game, seen)
    kinds = set(OutboundEmail.objects.values_list("template", flat=True))
    assert {"your_turn", "auto_moved"} <= kinds
    assert kinds & {"game_over", "game_ended"}
    assert checked > 20


def test_blind_recap_shows_the_moves_since_the_players_last_one_in_full(
    anna, bert, carla, time_machine
):
    """Rules P23: in blind mode those are exactly the entries the player sees in full."""
    game = start_game([anna, bert, carla], blind=True)
    game = play(game, anna, {"action": "reveal"})
    game = play(game, anna, {"action": "end_turn"})
    game = play(game, bert, {"action": "reveal"})
    game = play(game, bert, {"action": "resolve_alarm", "keep": 5, "bury": 2})
    game = time_out(game, time_machine)
    assert recap_of(anna) == [
        "Bert revealed 1 goblet, rat (#5). Rat alert: two rats in the face-up row!",
        "Bert resolved the rat alert, kept 1 goblet, rat (#5) and "
        "buried 1 coin, rat (#2) under their spade.",
        "carla passed naming rings and placed their spade with no card under it." + AUTOMATIC,
    ]


def test_blind_auto_move_says_how_many_cards_it_took_not_which(anna, bert, time_machine):
    game = start_game([anna, bert], blind=True)
    game = play(game, anna, {"action": "reveal"})
    [card] = piratz.view(game.load_state(), 0)["face_up"]
    game = time_out(game, time_machine)
    mail = OutboundEmail.objects.get(template="auto_moved", to=anna.email).rendered()
    assert "It took: 1 card." in mail.body_text
    assert f"(#{card['id']})" not in mail.body_text.split("It took:", 1)[1]
