"""A dump survives storage that reorders JSON object keys (PostgreSQL jsonb sorts them)."""

import json

from games.kinds.piratz import rules as piratz


def _sorted_keys(value):
    return json.loads(json.dumps(value, sort_keys=True))


def test_load_accepts_any_key_order():
    state = piratz.new_game(4, seed=5)
    for _ in range(6):
        state = piratz.apply(
            state,
            piratz.current_seat(state),
            piratz.legal_actions(state, piratz.current_seat(state))[0],
        )
    data = _sorted_keys(piratz.dump(state))
    assert list(data["cubes"]) != list(piratz.TREASURES)  # the reordering really happened
    assert piratz.load(data) == state
