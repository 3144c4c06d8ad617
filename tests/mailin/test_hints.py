"""The answer's "what you may write now" lines for Piratz: only legal moves, every legal move.

Each hint is read as a player reads it: the form in “…”, ``<treasure>`` and ``<card>``
filled in from the lists in its closing parentheses, the line parsed by mailin's parser.
"""

import random
import re

import pytest
from django.utils import translation

from games.models import Move
from games.piratz.mail import piratz_hints
from games.rules import piratz
from games.rules.piratz.bots import random_action
from mailin.parser import parse_move
from notifications.models import OutboundEmail
from tests.factories import start_game
from tests.rules.conftest import _stage

from .conftest import build_reply, latest_reply_to, pipe

FORM = re.compile(r"^“([^”]*)”")
LISTS = re.compile(r"\(([^()]*)\)$")
LABELS = {"treasures": "<treasure>", "cards": "<card>", "cards to bury": "<card>"}


def written_moves(hint: str) -> list[str]:
    """Every line a player may write from ``hint``, placeholders filled from its lists."""
    form = FORM.match(hint)
    assert form is not None, hint
    values = {}
    lists = LISTS.search(hint)
    for part in lists.group(1).split("; ") if lists else ():
        label, _, items = part.partition(": ")
        if label in LABELS:
            values[LABELS[label]] = items.split(", ")
    lines = [form.group(1)]
    for placeholder, items in values.items():
        assert placeholder in form.group(1), hint
        lines = [line.replace(placeholder, item) for line in lines for item in items]
    for line in lines:
        assert "<" not in line and "-" not in line, hint  # every placeholder filled
    return lines


def hinted_actions(view: dict) -> list[dict]:
    with translation.override("en"):
        hints = piratz_hints(view)
    return [parse_move(line, "piratz") for hint in hints for line in written_moves(hint)]


def as_set(actions) -> set[tuple]:
    return {tuple(sorted(action.items(), key=lambda item: item[0])) for action in actions}


def test_a_pass_that_takes_the_only_face_up_card_is_hinted_without_bury():
    # The tester's case: after a reveal the row holds #44 alone (1 gem, 1 goblet).
    state = _stage(2, face_up=(44,), phase="decide")
    view = piratz.view(state, 0)
    legal = view["legal_actions"]
    assert {"action": "pass", "treasure": "gems", "bury": None} in legal
    assert {"action": "pass", "treasure": "gems", "bury": 44} not in legal
    with translation.override("en"):
        hints = piratz_hints(view)
    moves = [line for hint in hints for line in written_moves(hint)]
    assert "pass gems" in moves and "pass goblets" in moves
    assert "pass gems bury 44" not in moves and "pass goblets bury 44" not in moves
    assert "pass rings bury 44" in moves and "pass rings" not in moves
    # One line per set of bury choices, saying whether a card must be buried.
    pass_hints = [hint for hint in hints if hint.startswith("“pass")]
    assert len(pass_hints) == 2  # in P1 order of their first treasure
    burying, plain = pass_hints
    assert burying.startswith("“pass <treasure> bury <card>”:")
    assert "(treasures: rings, coins, pearls, shells; cards: 44)" in burying
    assert plain.startswith("“pass <treasure>”:") and "(treasures: gems, goblets)" in plain
    assert "bury none" in plain
    assert "must" in burying
    assert as_set(hinted_actions(view)) == as_set(legal)


def test_passes_leaving_different_cards_get_one_line_each():
    # #12 shows coins, #44 gems and goblets: coins leaves 44, gems and goblets leave 12,
    # the other types take nothing and leave both.
    state = _stage(2, face_up=(12, 44), phase="decide")
    view = piratz.view(state, 0)
    with translation.override("en"):
        hints = [hint for hint in piratz_hints(view) if hint.startswith("“pass")]
    assert [LISTS.search(hint).group(1) for hint in hints] == [
        "treasures: rings, pearls, shells; cards: 12, 44",
        "treasures: coins; cards: 44",
        "treasures: gems, goblets; cards: 12",
    ]
    assert as_set(hinted_actions(view)) == as_set(view["legal_actions"])


def test_an_empty_row_hints_passes_without_bury():
    view = piratz.view(_stage(2, face_up=()), 0)
    with translation.override("en"):
        hints = piratz_hints(view)
    assert hints[0].startswith("“reveal”")
    assert hints[1].startswith("“pass <treasure>”:")
    assert "(treasures: rings, coins, pearls, gems, goblets, shells)" in hints[1]
    assert len(hints) == 2


def test_a_rat_alert_hints_each_rat_with_the_cards_left_to_bury():
    # Rats #1 (rings) and #2 (coins) face up with #44: keeping one leaves the other and 44.
    state = _stage(2, face_up=(1, 44, 2), phase="alarm")
    view = piratz.view(state, 0)
    with translation.override("en"):
        hints = piratz_hints(view)
    assert hints == [
        "“keep 1 bury <card>”: keep rat 1 (cards to bury: 44, 2)",
        "“keep 2 bury <card>”: keep rat 2 (cards to bury: 1, 44)",
    ]
    assert as_set(hinted_actions(view)) == as_set(view["legal_actions"])


def test_a_keep_that_leaves_nothing_to_bury_is_hinted_without_bury():
    # Not a position the engine reaches (keeping one of two rats leaves the other), but
    # the hint must still name only the move that parses to the legal action.
    view = {"legal_actions": [{"action": "resolve_alarm", "keep": 3, "bury": None}]}
    with translation.override("en"):
        hints = piratz_hints(view)
    assert len(hints) == 1 and hints[0].startswith("“keep 3”:")
    assert as_set(hinted_actions(view)) == as_set(view["legal_actions"])


def test_over_random_games_hints_offer_exactly_the_legal_moves():
    # 24 whole games by the random bot policy, about 2,900 positions.
    seen = {"positions": 0, "alarms": 0, "mixed passes": 0}
    for players in (2, 3, 4):
        for seed in range(8):
            rng = random.Random(seed * 10 + players)
            state = piratz.new_game(players, seed=seed, blind=seed % 2 == 1)
            while not piratz.is_finished(state):
                seat = piratz.current_seat(state)
                view = piratz.view(state, seat)
                legal = view["legal_actions"]
                hinted = hinted_actions(view)
                where = (players, seed, view["phase"], [card["id"] for card in view["face_up"]])
                assert len(hinted) == len(as_set(hinted)), where  # no move hinted twice
                assert as_set(hinted) == as_set(legal), where
                passes = {a["bury"] is None for a in legal if a["action"] == "pass"}
                seen["positions"] += 1
                seen["alarms"] += view["phase"] == "alarm"
                seen["mixed passes"] += passes == {True, False}
                state = piratz.apply(state, seat, random_action(legal, rng, 0.6 + 0.05 * seed))
    # The games went through rat alerts and through positions where some passes bury and
    # others cannot (the reported case).
    assert seen["positions"] > 2000 and seen["alarms"] > 50 and seen["mixed passes"] > 300


@pytest.mark.django_db
def test_the_reported_reply_the_answer_hints_is_played(anna, bert):
    # By email, as the tester played it: Anna reveals #44 into an empty row; the answer
    # hints "pass <treasure>" for gems, and "pass gems" is played.
    game = start_game([anna, bert])
    game.state = piratz.dump(_stage(2, draw=(44,)))
    game.save(update_fields=["state"])
    pipe(build_reply(anna.email, latest_reply_to(anna), "reveal"))
    answer = OutboundEmail.objects.filter(to=anna.email, template="mail_answer").last().rendered()
    assert "Move played" in answer.subject
    hints = [line[2:] for line in answer.body_text.splitlines() if line.startswith("- “pass")]
    assert [LISTS.search(hint).group(1) for hint in hints] == [
        "treasures: rings, coins, pearls, shells; cards: 44",
        "treasures: gems, goblets",
    ]
    assert "pass gems bury 44" not in answer.body_text
    pipe(build_reply(anna.email, answer.headers["Reply-To"], "pass gems"))
    game.refresh_from_db()
    assert game.version == 2
    assert Move.objects.filter(game=game).last().action == {
        "action": "pass",
        "treasure": "gems",
        "bury": None,
    }
