"""The running table's tally against the score card (games.kinds.piratz.table.tally): who would
take which cube if the game ended now, by the engine's own scoring (rules P19-P22), and
nothing of it in blind mode (rules P23). No database: views built by the engine."""

from games.describe import Names
from games.kinds.piratz import rules as piratz
from games.kinds.piratz.table import collection_counts, tally

NAMES = Names(["Anna", "Bert", "Carla"], 0)


def view_with(collections: list[list[int]], cubes: dict | None = None) -> dict:
    """Anna's view of a fresh 3-player game, with these collections (card ids per seat)
    and, where given, these cubes on the score card."""
    view = piratz.view(piratz.new_game(3, seed=7), 0)
    view["collected"] = [
        {"count": len(ids), "cards": [piratz.card(i) for i in ids]} for ids in collections
    ]
    for treasure, values in (cubes or {}).items():
        view["cubes"][treasure] = values
    return view


def holders(rows: dict, treasure: str) -> list[tuple]:
    return [(h["name"], h["items"], h["cube"]) for h in rows[treasure]["holders"]]


def test_the_most_items_take_the_highest_cube_down_the_ranking():
    # Coins: Bert 3 (cards 21, 12), Carla 2 (26), Anna 1 (32, with a ring): two cubes.
    rows = tally(view_with([[32], [21, 12], [26]], {"coins": [4, 3]}), NAMES)
    assert holders(rows, "coins") == [("Bert", 3, 4), ("Carla", 2, 3), ("You", 1, None)]
    assert rows["coins"]["tie"] is None
    assert holders(rows, "rings") == [("You", 1, rows["rings"]["holders"][0]["cube"])]
    assert rows["gems"]["holders"] == []


def test_a_tie_on_items_goes_to_more_rats_then_fewer_cards():
    # One ring each; Bert's is a rat card (1), so he ranks first (P20: more rats).
    rows = tally(view_with([[11], [1], []], {"rings": [4, 2]}), NAMES)
    assert holders(rows, "rings") == [("Bert", 1, 4), ("You", 1, 2)]
    # Two pearls each, no rats: Carla's on one card beats Anna's two (fewer cards).
    rows = tally(view_with([[13, 33], [], [22]], {"pearls": [3, 1]}), NAMES)
    assert holders(rows, "pearls") == [("Carla", 2, 3), ("You", 2, 1)]


def test_a_full_tie_stops_the_cube_and_says_so():
    # One shell each on one plain card: tied on items, rats and cards (P20).
    rows = tally(view_with([[16], [18], [20]], {"shells": [4, 1]}), NAMES)
    assert holders(rows, "shells") == [("You", 1, None), ("Bert", 1, None)]
    assert rows["shells"]["tie"] == {"names": "You, Bert", "value": 4}


def test_the_tally_agrees_with_the_engines_final_scoring():
    collections = [[21, 1, 30], [26, 3, 45, 14], [22, 41, 49]]
    view = view_with(collections)
    rows = tally(view, NAMES)
    state = piratz.new_game(3, seed=7)
    cubes = tuple(tuple(view["cubes"][t]) for t in piratz.TREASURES)
    awards = piratz.result(_with(state, collections, cubes))["awards"]
    for treasure, given in awards.items():
        taken = {(h["seat"], h["cube"]) for h in rows[treasure]["holders"] if h["cube"]}
        assert taken == {(a["seat"], a["value"]) for a in given}


def _with(state, collections, cubes):
    copy = state.copy()
    copy.collected = tuple(tuple(ids) for ids in collections)
    copy.cubes = cubes
    return copy


def test_blind_mode_shows_no_tally():
    view = view_with([[21], [22], []])
    for player in view["collected"]:
        player["cards"] = None  # as the engine's blind view has it (P23)
    assert tally(view, NAMES) is None


def test_a_collection_in_numbers_per_treasure_then_rats():
    cards = [piratz.card(i) for i in (1, 20, 37, 2)]
    assert [(c["treasure"], c["count"]) for c in collection_counts(cards)] == [
        ("rings", 3),
        ("coins", 2),
        ("pearls", 1),
        ("rat", 2),
    ]
