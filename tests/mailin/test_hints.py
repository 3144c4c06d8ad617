"""The answer's "what you may write now" lines for Piratz: only legal moves, every legal move.

Each hint is read as a player reads it and the lines it gives are parsed by mailin's parser:
a line starting with a form in “…” is that form, ``<card>`` filled from its "bury 1 or 2";
the pass line's forms are filled, ``<treasure>`` and ``<card>``, by the treasure lines
under it, each starting with its treasures (issue 24: lines that differ differ at once).
"""

import random
import re

import pytest
from django.utils import translation

from games.kinds.piratz import rules as piratz
from games.kinds.piratz.mail import piratz_hints
from games.kinds.piratz.rules.bots import random_action
from games.models import Move
from mailin.parser import parse_move
from notifications.models import OutboundEmail
from tests.factories import start_game
from tests.rules.conftest import _stage

from .conftest import build_reply, latest_reply_to, pipe

FORM = re.compile(r"^“([^”]*)”")
QUOTED = re.compile(r"“([^”]*)”")
ALTERNATIVES = re.compile(r", | or ")
CARDS = r"\d+(?:(?:, | or )\d+)*"
# "Rings, pearls or shells: bury 12 or 44, as in “pass rings bury 12”"
GROUP = re.compile(
    rf"^([A-Z][a-z]*(?:(?:, | or )[a-z]+)*): bury (none|{CARDS}), (?:as in|so write) “([^”]*)”$"
)
KEEP_CARDS = re.compile(rf", then bury ({CARDS})$")
PASS_FORMS = {"pass <treasure>", "pass <treasure> bury <card>"}


def written_moves(hints: list[str]) -> list[str]:
    """Every line a player may write from ``hints`` (English), placeholders filled."""
    moves: list[str] = []
    pass_forms: list[str] = []  # the pass line's forms, for the treasure lines under it
    used: set[str] = set()
    for hint in hints:
        group = GROUP.match(hint)
        if group is not None:
            names, cards, example = group.groups()
            form = "pass <treasure>" if cards == "none" else "pass <treasure> bury <card>"
            assert form in pass_forms, hint  # said by the pass line above
            used.add(form)
            names = names[:1].lower() + names[1:]  # "Rings, pearls or shells"
            lines = [form.replace("<treasure>", name) for name in ALTERNATIVES.split(names)]
            if cards != "none":
                lines = [
                    line.replace("<card>", card)
                    for line in lines
                    for card in ALTERNATIVES.split(cards)
                ]
            assert example in lines, hint  # the move to copy is one of them
        else:
            form = FORM.match(hint)
            assert form is not None, hint
            if "<treasure>" in form.group(1):
                assert not pass_forms, hint  # one pass line
                pass_forms = QUOTED.findall(hint)
                assert set(pass_forms) <= PASS_FORMS, hint
                continue
            lines = [form.group(1)]
            if "<card>" in form.group(1):
                cards = KEEP_CARDS.search(hint)
                assert cards is not None, hint
                lines = [lines[0].replace("<card>", card) for card in ALTERNATIVES.split(cards[1])]
        for line in lines:
            assert "<" not in line and "-" not in line, hint  # every placeholder filled
        moves += lines
    assert used == set(pass_forms), hints  # no form shown that no treasure may use
    return moves


def hinted_actions(view: dict) -> list[dict]:
    with translation.override("en"):
        hints = piratz_hints(view)
    return [parse_move(line, "piratz") for line in written_moves(hints)]


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
    moves = written_moves(hints)
    assert "pass gems" in moves and "pass goblets" in moves
    assert "pass gems bury 44" not in moves and "pass goblets bury 44" not in moves
    assert "pass rings bury 44" in moves and "pass rings" not in moves
    # The pass said once, with both forms; then a line per set of bury choices, treasures
    # first, in P1 order of their first treasure.
    assert hints == [
        "“end”: end your turn",
        "“pass <treasure> bury <card>”: take the face-up cards showing that treasure, then "
        "bury one of the cards left face up under your spade, or write just “pass <treasure>” "
        "when none is left. By treasure:",
        "Rings, coins, pearls or shells: bury 44, as in “pass rings bury 44”",
        "Gems or goblets: bury none, as in “pass gems”",
    ]
    assert as_set(hinted_actions(view)) == as_set(legal)


def test_passes_leaving_different_cards_get_one_line_each():
    # #12 shows coins, #44 gems and goblets: coins leaves 44, gems and goblets leave 12,
    # the other types take nothing and leave both.
    state = _stage(2, face_up=(12, 44), phase="decide")
    view = piratz.view(state, 0)
    with translation.override("en"):
        hints = piratz_hints(view)
    assert hints[1].startswith("“pass <treasure> bury <card>”: take the face-up cards")
    assert hints[1].endswith("under your spade. By treasure:")
    assert hints[2:] == [
        "Rings, pearls or shells: bury 12 or 44, as in “pass rings bury 12”",
        "Coins: bury 44, so write “pass coins bury 44”",
        "Gems or goblets: bury 12, as in “pass gems bury 12”",
    ]
    assert as_set(hinted_actions(view)) == as_set(view["legal_actions"])


@pytest.mark.parametrize(
    "stage",
    [
        {"face_up": (12, 44), "phase": "decide"},  # the reported three pass groups
        {"face_up": (44,), "phase": "decide"},
        {"face_up": ()},
        {"face_up": (1, 44, 2), "phase": "alarm"},
    ],
)
def test_german_hints_differ_in_their_first_words(stage):
    # Issue 24: three pass lines that differed only in a closing bracket read as one line
    # three times. Each line now says what sets it apart first.
    view = piratz.view(_stage(2, **stage), 0)
    with translation.override("de"):
        hints = piratz_hints(view)
    assert len(set(hints)) == len(hints), hints
    assert len({hint[:20] for hint in hints}) == len(hints), hints
    if stage["face_up"] == (12, 44):
        assert hints[2:] == [
            "Ringe, Perlen oder Muscheln: 12 oder 44 verbuddeln, etwa „aussteigen Ringe "
            "verbuddeln 12“",
            "Münzen: 44 verbuddeln, also „aussteigen Münzen verbuddeln 44“",
            "Edelsteine oder Kelche: 12 verbuddeln, etwa „aussteigen Edelsteine verbuddeln 12“",
        ]
        for hint in hints[2:]:  # each move to copy is one the reply grammar reads
            move = hint.rsplit("„", 1)[1].rstrip("“")
            assert parse_move(move, "piratz")["action"] == "pass", move


def test_an_empty_row_hints_passes_without_bury():
    view = piratz.view(_stage(2, face_up=()), 0)
    with translation.override("en"):
        hints = piratz_hints(view)
    assert hints == [
        "“reveal”: turn up the top card of the draw pile",
        "“pass <treasure>”: take the face-up cards showing that treasure; no card is left "
        "face up, so you bury none. Any treasure:",
        "Rings, coins, pearls, gems, goblets or shells: bury none, as in “pass rings”",
    ]
    assert as_set(hinted_actions(view)) == as_set(view["legal_actions"])


def test_a_rat_alert_hints_each_rat_with_the_cards_left_to_bury():
    # Rats #1 (rings) and #2 (coins) face up with #44: keeping one leaves the other and 44.
    state = _stage(2, face_up=(1, 44, 2), phase="alarm")
    view = piratz.view(state, 0)
    with translation.override("en"):
        hints = piratz_hints(view)
    assert hints == [
        "“keep 1 bury <card>”: keep rat 1, then bury 44 or 2",
        "“keep 2 bury <card>”: keep rat 2, then bury 1 or 44",
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
                with translation.override("en"):
                    hints = piratz_hints(view)
                assert len({hint[:20] for hint in hints}) == len(hints), where  # issue 24
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
    hints = [line[2:] for line in answer.body_text.splitlines() if line.startswith("- ")]
    groups = [hint for hint in hints if GROUP.match(hint)]
    assert groups == [
        "Rings, coins, pearls or shells: bury 44, as in “pass rings bury 44”",
        "Gems or goblets: bury none, as in “pass gems”",
    ]
    assert "pass gems" in written_moves(hints[hints.index(groups[0]) - 1 :])
    assert "pass gems bury 44" not in answer.body_text
    pipe(build_reply(anna.email, answer.headers["Reply-To"], "pass gems"))
    game.refresh_from_db()
    assert game.version == 2
    assert Move.objects.filter(game=game).last().action == {
        "action": "pass",
        "treasure": "gems",
        "bury": None,
    }
