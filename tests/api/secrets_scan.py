"""Assertions that nothing secret (draw order, the shuffle key, blind collections) leaked."""

import json

from games.kinds.piratz import rules as piratz
from games.kinds.rattenscharf import rules as rattenscharf


def _int_lists(value):
    """Every list in a JSON value, as a list of ints (cards become their ids)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key != "unseen":  # sorted by id by design: a set, not an order
                yield from _int_lists(item)
    elif isinstance(value, list):
        ids = [item["id"] if isinstance(item, dict) and "id" in item else item for item in value]
        if ids and all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
            yield ids
        for item in value:
            yield from _int_lists(item)


def _contains_run(haystack: list[int], run: list[int]) -> bool:
    n = len(run)
    return any(haystack[i : i + n] == run for i in range(len(haystack) - n + 1))


def assert_no_secrets(
    text: str, state: piratz.State, *, blind_viewer: bool = False, server_seed: str | None = None
) -> None:
    """Fail if ``text`` (a response body, an email, a log) shows what ``state`` keeps secret.

    ``server_seed``: the game's server seed (games.fairness) while it is still secret, that
    is until the game has ended; the shuffle key is checked in any case (pass the state of
    a game that has ended only if it may still not show). A Rattenscharf ``state`` has one
    secret, the order of its pile (R33).
    """
    if isinstance(state, rattenscharf.State):
        _assert_no_pile(text, state)
        return
    secret = piratz.dump(state)
    assert secret["key"] not in text.lower(), "the shuffle key leaked"
    if server_seed:
        assert server_seed not in text.lower(), "the server seed leaked before the end"
    assert '"draw":' not in text and "'draw':" not in text, "a draw pile leaked"
    draw = secret["draw"]
    try:
        payload = json.loads(text)
    except ValueError:
        payload = None
    if payload is not None and len(draw) >= 3:
        for ids in _int_lists(payload):
            assert not _contains_run(ids, draw[:3]), f"the draw order leaked in {ids}"
    if blind_viewer and payload is not None and not piratz.is_finished(state):
        _assert_blind(payload)


def _assert_no_pile(text: str, state: rattenscharf.State) -> None:
    """No Rattenscharf draw order: no ``pile`` key, and no three strips of the pile in
    their draw order in any list (``unseen`` is the pile sorted by id: a set, by design)."""
    pile = rattenscharf.dump(state)["pile"]
    assert '"pile":' not in text and "'pile':" not in text, "the draw pile leaked"
    try:
        payload = json.loads(text)
    except ValueError:
        payload = None
    if payload is not None and len(pile) >= 3:
        for ids in _int_lists(payload):
            for start in range(len(pile) - 2):
                run = pile[start : start + 3]
                assert not _contains_run(ids, run), f"the draw order leaked in {ids}"


def _assert_blind(value) -> None:
    if isinstance(value, dict):
        if "collected" in value:
            assert all(entry["cards"] is None for entry in value["collected"]), "blind collection"
            assert value.get("unseen") is None, "blind unseen set"
        for item in value.values():
            _assert_blind(item)
    elif isinstance(value, list):
        for item in value:
            _assert_blind(item)
