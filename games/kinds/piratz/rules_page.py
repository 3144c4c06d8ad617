"""What the Piratz rules page draws (``GameSpec.rules_context``): real cards of the deck for
its examples of a turn (P10-P14) and the worked scoring example (P19-P22), scored by the
engine and explained in the replay's words, so the page cannot say other than the game does.
"""

from games.describe import Names
from games.kinds.piratz import rules as rules
from games.kinds.piratz import words
from games.kinds.piratz.replay import explain_scoring

# A face-up row to pass on (P12): naming coins takes #32 and #21; #5, a rat, stays behind
# unless buried.
PASS_ROW = (32, 21, 5, 44)
# A rat alert (P11, P14): the second rat turned up.
ALARM_ROW = (2, 24, 9)

# The worked scoring example: three players' collections at the end and the cubes as P7
# spread them for three players (two per type, highest first). Prose on the page states
# the outcome; tests/web/test_rules_pages.py holds it equal to the engine's.
EXAMPLE_NAMES = ("Anna", "Ben", "Cleo")
EXAMPLE_COLLECTIONS = ((22, 3, 36), (30, 13, 20, 16), (41, 12, 18, 11))
EXAMPLE_CUBES = {
    "rings": [3, 1],
    "coins": [2, 1],
    "pearls": [4, 2],
    "gems": [4, 3],
    "goblets": [4, 1],
    "shells": [3, 2],
}


def example_result() -> dict:
    """The engine's ``result`` (docs/api.md "The engine's entry points") of the worked example."""
    state = rules.new_game(len(EXAMPLE_NAMES), seed=0).copy()
    state.collected = EXAMPLE_COLLECTIONS
    state.cubes = tuple(tuple(EXAMPLE_CUBES[t]) for t in rules.TREASURES)
    return rules.standing_result(state)


def rules_context() -> dict:
    """The cards, score card and scoring explanation the page's examples show."""
    result = example_result()
    names = Names(list(EXAMPLE_NAMES))
    return {
        "pass_row": [rules.card(i) for i in PASS_ROW],
        "alarm_row": [rules.card(i) for i in ALARM_ROW],
        "example_cubes": [
            {"treasure": t, "name": words.treasure_heading(t), "values": EXAMPLE_CUBES[t]}
            for t in rules.TREASURES
        ],
        "example_players": [
            {
                "name": EXAMPLE_NAMES[p["seat"]],
                "cards": [rules.card(i) for i in EXAMPLE_COLLECTIONS[p["seat"]]],
                "cubes": p["cubes"],
                "score": p["score"],
                "winner": p["seat"] in result["winners"],
            }
            for p in result["players"]
        ],
        "example_scoring": explain_scoring(result, EXAMPLE_CUBES, names.name),
    }
