"""Blind mode (rules P23): nothing a player can fetch during play rebuilds the collections.

A blind game is a memory game: a player may see in full only the log entries from their
own last move on (what they watched at the table since they last acted). These tests
play whole blind games over HTTP and, at every step, let every player fetch all they
can (the game and its log) and try to rebuild every collection from that one fetch.

Before the P23 ruling was applied, every player got the full log, as a spectator still
does: ``test_a_full_log_rebuilds_every_collection`` shows that the same rebuilder then
recovers every collection exactly, at every step.
"""

import pytest

from games.kinds.piratz import rules as piratz
from tests.factories import client_for, start_game

from .playthrough import play_over_http

pytestmark = [pytest.mark.django_db, pytest.mark.slow, pytest.mark.playthrough]

REDUCED_KEYS = {"number", "seat", "action", "revealed", "automatic", "at"}


def fetch(client, game_id) -> dict:
    """Everything a player can fetch about a game at one moment."""
    game = client.get(f"/api/games/{game_id}/")
    log = client.get(f"/api/games/{game_id}/moves/")
    assert game.status_code == 200 and log.status_code == 200
    return {"game": game.json(), "log": log.json()}


def rebuild(log: list[dict]) -> list[set[int]]:
    """The cards the log proves to be in each collection (a sound, thorough attacker).

    It follows the face-up row: a reveal adds the card turned up; a pass takes every
    card of the row that shows the treasure named; a rat alert's resolution takes the
    rat kept; a burial removes a card. Where an entry is reduced, the row holds cards
    it cannot name and those it could may have been taken: it forgets them, so it only
    ever claims what is certain.
    """
    proven = [set() for _ in range(4)]  # up to 4 players
    row: set[int] = set()  # cards certainly in the face-up row
    for entry in log:
        action, seat = entry["action"], entry["seat"]
        kind = action["action"]
        if kind == "reveal":
            if entry["revealed"] is not None:
                row.add(entry["revealed"]["id"])
        elif kind == "pass":
            if "treasure" not in action:
                row.clear()  # taken: unknown cards of unknown type
                continue
            taken = {c for c in row if action["treasure"] in piratz.card(c)["treasures"]}
            proven[seat] |= taken
            row -= taken | {action["bury"]}
        elif kind == "resolve_alarm":
            if "keep" not in action:
                row.clear()
                continue
            proven[seat].add(action["keep"])
            row -= {action["keep"], action["bury"]}
    return proven


def named_cards(value) -> set[int]:
    """Every card id a fetched JSON value names: cards, and ids in actions."""
    found = set()
    if isinstance(value, dict):
        if "treasures" in value and "id" in value:
            found.add(value["id"])
        for key in ("bury", "keep"):
            if isinstance(value.get(key), int):
                found.add(value[key])
        for item in value.values():
            found |= named_cards(item)
    elif isinstance(value, list):
        for item in value:
            found |= named_cards(item)
    return found


def play_blind_game(seated, staff, *, seed: int, check_step) -> None:
    """Play a blind game over HTTP; after each move call ``check_step``.

    ``check_step(state, taken_at, fetch_as)``: ``taken_at`` maps each collected card to
    the number of the move that took it; ``fetch_as(seat)`` fetches as that seat's
    player (None: the staff spectator).
    """
    game = start_game(seated, seed=seed, blind=True)
    clients = [client_for(user) for user in seated]
    spectator = client_for(staff)
    taken_at: dict[int, int] = {}
    for move in play_over_http(game, clients, seed=seed):
        for before, after in zip(move.before.collected, move.after.collected, strict=True):
            for card in set(after) - set(before):
                taken_at[card] = move.version
        state = move.after

        def fetch_as(viewer, game_id=game.id):
            return fetch(spectator if viewer is None else clients[viewer], game_id)

        check_step(state, taken_at, fetch_as)


GAMES = [(2, 31), (3, 32), (4, 33)]


@pytest.mark.parametrize(("count", "seed"), GAMES)
def test_no_player_can_rebuild_collections_during_play(players, moderator, count, seed):
    steps_with_hidden_cards = 0

    def check_step(state, taken_at, fetch_as):
        nonlocal steps_with_hidden_cards
        full_log = fetch_as(None)["log"]
        for viewer in range(state.players):
            fetched = fetch_as(viewer)
            log, table = fetched["log"], fetched["game"]["state"]
            if piratz.is_finished(state):
                # Once the game has ended everyone sees the whole log (and collections).
                assert log == full_log
                assert rebuild(log)[: state.players] == [set(c) for c in state.collected]
                continue
            own = [entry["number"] for entry in log if entry["seat"] == viewer]
            window = max(own, default=1)
            for entry, full in zip(log, full_log, strict=True):
                if entry["number"] >= window:
                    assert entry == full  # what they watched since they last acted
                else:
                    assert set(entry) == REDUCED_KEYS
                    assert entry["action"] == {"action": full["action"]["action"]}
                    assert entry["revealed"] is None
                    assert (entry["seat"], entry["automatic"], entry["at"]) == (
                        full["seat"],
                        full["automatic"],
                        full["at"],
                    )
            # The buried list: whose spade lies on which card, this round only (P13, P23:
            # public, like the face-up row); earlier rounds' burials went to the discard
            # pile, which is part of the unseen set and hidden in blind mode.
            assert [(b["seat"], b["card"]["id"]) for b in table["buried"]] == list(state.buried)
            assert table["unseen"] is None
            assert all(entry["cards"] is None for entry in table["collected"])

            # A card taken before the viewer's window is named nowhere in what they fetched,
            # and the rebuilder, however thorough, cannot place it in any collection.
            earlier = {c for c, number in taken_at.items() if number < window}
            assert not earlier & named_cards(fetched)
            proven = rebuild(log)
            for seat in range(state.players):
                assert proven[seat] <= set(state.collected[seat])  # the rebuilder is sound
                assert not proven[seat] & earlier
            if earlier:
                steps_with_hidden_cards += 1

    play_blind_game(players[:count], moderator, seed=seed, check_step=check_step)
    assert steps_with_hidden_cards > 10  # the games did hide collected cards, many times


@pytest.mark.parametrize(("count", "seed"), GAMES[1:2])
def test_a_full_log_rebuilds_every_collection(players, moderator, count, seed):
    """What every player could do before P23's ruling, and a spectator may still do."""

    def check_step(state, taken_at, fetch_as):
        proven = rebuild(fetch_as(None)["log"])
        assert proven[: state.players] == [set(cards) for cards in state.collected]

    play_blind_game(players[:count], moderator, seed=seed, check_step=check_step)
