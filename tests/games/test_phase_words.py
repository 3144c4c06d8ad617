"""What the table says a Piratz phase allows matches the rules and the engine (issue 24).

Rules P9, P11, P14: at a turn's start reveal or pass; after a reveal ("decide") only pass or
end the turn, never another reveal; in a rat alert only resolve it.
"""

import pytest
from django.utils import translation

from games.describe.common import Names
from games.kinds.piratz import rules as piratz
from games.kinds.piratz.words import describe_table

EXPECTED = {
    "en": {
        "turn": "starting a turn",
        "decide": "deciding whether to end the turn or pass",
        "alarm": "resolving a rat alert",
    },
    "de": {
        "turn": "am Beginn des Zuges",
        "decide": "bei der Entscheidung, den Zug zu beenden oder auszusteigen",
        "alarm": "beim Auflösen eines Rattenalarms",
    },
}
# What each phase sentence may offer the player (the moves it names, in the engine's words).
OFFERED = {"turn": {"reveal", "pass"}, "decide": {"end_turn", "pass"}, "alarm": {"resolve_alarm"}}


# Revealing and ending turns until the row holds two rats reaches every phase soon.
PREFERRED = ["reveal", "end_turn", "resolve_alarm", "pass"]


def next_action(legal):
    return min(legal, key=lambda action: PREFERRED.index(action["action"]))


def tables_by_phase(seed=3):
    """One table per phase, with the move kinds the engine allows there, from a seeded game."""
    state = piratz.new_game(3, seed=seed)
    found = {}
    while not piratz.is_finished(state) and len(found) < 3:
        seat = piratz.current_seat(state)
        kinds = {action["action"] for action in piratz.legal_actions(state, seat)}
        phase = piratz.current_phase(state)
        found.setdefault(phase, (piratz.view(state, seat), seat, kinds))
        state = piratz.apply(state, seat, next_action(piratz.legal_actions(state, seat)))
    return found


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_table_names_each_phase_as_the_rules_allow(language):
    tables = tables_by_phase()
    assert set(tables) == {"turn", "decide", "alarm"}
    for phase, (view, seat, kinds) in tables.items():
        # The engine allows no more than the sentence offers (fewer at the very end, P18).
        assert kinds <= OFFERED[phase], (phase, kinds)
        with translation.override(language):
            words = describe_table(view, Names(["Anna", "Bert", "Carla"], seat))
        assert words["phase"] == EXPECTED[language][phase]


def test_after_a_reveal_the_table_does_not_offer_another_reveal():
    view, seat, kinds = tables_by_phase()["decide"]
    assert "reveal" not in kinds
    with translation.override("en"):
        phase = describe_table(view, Names(["Anna", "Bert", "Carla"], seat))["phase"]
    assert "reveal" not in phase and "end the turn" in phase and "pass" in phase
