"""Bots (games.kinds.piratz.rules.bots): legal moves only, no hidden information, reproducible."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.kinds.piratz import rules as piratz
from games.kinds.piratz.rules import bots
from games.kinds.piratz.rules.deck import DECK
from games.kinds.piratz.rules.state import State
from games.simulation import play_bot_game, seat_memory
from tests.rules.bot_checks import checked_choice
from tests.rules.test_view import VIEW_KEYS as ENTRY_POINT_VIEW_KEYS

# The keys of view(state, seat) as docs/api.md "The engine's entry points" fixes them (test_view
# pins their order): the bots get nothing else.
VIEW_KEYS = set(ENTRY_POINT_VIEW_KEYS)
ENTRY_KEYS = {"number", "seat", "action", "revealed", "automatic", "at"}


def test_the_rules_package_offers_the_bots_by_their_registry_names():
    assert piratz.BOT_LEVELS == ("random", "careful", "strong")
    assert piratz.choose_bot_action is bots.choose_action


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    levels=st.lists(st.sampled_from(["random", "careful"]), min_size=2, max_size=4),
    seed=st.integers(0, 2**32),
    blind=st.booleans(),
)
def test_random_and_careful_bots_play_whole_games_legally(levels, seed, blind):
    seen = set()
    # apply raises IllegalAction on an illegal action, and play_bot_game raises if the
    # game does not end; every decision is checked on top.
    record = play_bot_game(
        levels, seed=seed, blind=blind, choose=checked_choice(piratz, VIEW_KEYS, seen)
    )
    assert record.winners and len(record.scores) == len(levels)
    assert seen == set(levels)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    others=st.lists(st.sampled_from(piratz.BOT_LEVELS), min_size=1, max_size=3),
    strong_seat=st.integers(0, 3),
    seed=st.integers(0, 2**32),
    blind=st.booleans(),
)
def test_games_with_a_strong_bot_are_played_legally_to_the_end(others, strong_seat, seed, blind):
    levels = list(others)
    levels.insert(strong_seat % (len(levels) + 1), "strong")
    seen = set()
    record = play_bot_game(
        levels, seed=seed, blind=blind, choose=checked_choice(piratz, VIEW_KEYS, seen)
    )
    assert record.winners
    assert "strong" in seen


# --- hidden information -----------------------------------------------------------------


class Touched(AssertionError):
    """A bot read something the real view does not give it."""


class Poison:
    """A value that fails on any use: reading, iterating, comparing, truth, hashing."""

    def __init__(self, what):
        object.__setattr__(self, "what", what)

    def _fail(self, *args, **kwargs):
        raise Touched(f"the bot touched {object.__getattribute__(self, 'what')}")

    __getattr__ = __getitem__ = __iter__ = __len__ = __bool__ = __eq__ = __hash__ = _fail
    __contains__ = __int__ = __index__ = __lt__ = __gt__ = __str__ = __call__ = _fail


class PoisonedDict(dict):
    """A dict holding the real data plus secret keys whose reading fails."""

    def __init__(self, data, secrets):
        super().__init__(data)
        self.secrets = set(secrets)
        for key in secrets:
            super().__setitem__(key, Poison(key))

    def __getitem__(self, key):
        if key in self.secrets:
            raise Touched(f"the bot read {key!r}")
        return super().__getitem__(key)

    def get(self, key, default=None):
        if key in self.secrets:
            raise Touched(f"the bot read {key!r}")
        return super().get(key, default)

    def items(self):
        raise Touched("the bot walked every key")

    values = items


SECRET_VIEW_KEYS = ("draw", "draw_order", "key", "seed", "reshuffles", "hand", "state")


def poisoned(view, state):
    """The real view with poisoned secrets beside every part, cards included."""

    def card(data):
        return PoisonedDict(data, ("position", "owner"))

    data = dict(view)
    data["face_up"] = [card(c) for c in view["face_up"]]
    data["buried"] = [
        PoisonedDict({**b, "card": card(b["card"])}, ("order",)) for b in view["buried"]
    ]
    data["collected"] = [
        PoisonedDict(
            {
                **entry,
                "cards": None if entry["cards"] is None else [card(c) for c in entry["cards"]],
            },
            ("hidden_cards",),
        )
        for entry in view["collected"]
    ]
    if view["unseen"] is not None:
        data["unseen"] = [card(c) for c in view["unseen"]]
    data = PoisonedDict(data, SECRET_VIEW_KEYS)
    # The real draw order is also kept as a poisoned attribute-like value.
    data.secrets.add("draw_ids")
    dict.__setitem__(data, "draw_ids", Poison(list(state.draw)))
    return data


def poisoned_memory(log):
    """Log entries with poisoned neighbours of every field, and ``at`` itself poisoned."""
    return [
        PoisonedDict(
            {**entry, "action": PoisonedDict(entry["action"], ("shuffle",))}, ("at", "key")
        )
        for entry in log
    ]


def logged_game(players, seed, blind, moves):
    """Play ``moves`` random moves; return the state and the full public log (oldest first)."""
    rng = random.Random(seed)
    state = piratz.new_game(players, seed=seed, blind=blind)
    log = []
    for number in range(1, moves + 1):
        if piratz.is_finished(state):
            break
        seat = piratz.current_seat(state)
        action = bots.random_action(piratz.legal_actions(state, seat), rng)
        after = piratz.apply(state, seat, action)
        log.append(
            {
                "number": number,
                "seat": seat,
                "action": action,
                "revealed": piratz.revealed_card(state, after),
                "automatic": False,
                "at": "2026-11-22T06:00:00Z",
            }
        )
        state = after
    return state, log


@pytest.mark.parametrize("level", piratz.BOT_LEVELS)
@pytest.mark.parametrize("blind", [False, True])
@pytest.mark.parametrize("players", [2, 4])
def test_a_bot_decides_from_the_view_and_memory_alone(level, blind, players):
    for seed in range(4):
        for moves in (0, 7, 23, 60):
            state, log = logged_game(players, seed, blind, moves)
            if piratz.is_finished(state):
                continue
            seat = piratz.current_seat(state)
            view = piratz.view(state, seat)
            memory = seat_memory(log, seat, blind)
            # The real view has no secret part: only the view's keys, no draw order, and
            # in blind mode no collection or unseen card.
            assert set(view) == VIEW_KEYS
            assert all(set(entry) == ENTRY_KEYS for entry in memory)
            if len(state.draw) >= 3:
                assert json.dumps(list(state.draw)) not in json.dumps(view)
            if blind:
                assert view["unseen"] is None
                assert all(entry["cards"] is None for entry in view["collected"])
            plain = piratz.choose_bot_action(view, level, random.Random(seed), memory)
            guarded = piratz.choose_bot_action(
                poisoned(view, state), level, random.Random(seed), poisoned_memory(memory)
            )
            assert guarded == plain


def test_the_poison_fails_when_touched():
    state, _ = logged_game(3, 1, False, 5)
    view = poisoned(piratz.view(state, piratz.current_seat(state)), state)
    with pytest.raises(Touched):
        view["draw"]
    with pytest.raises(Touched):
        list(dict.__getitem__(view, "draw_ids"))
    with pytest.raises(Touched):
        view.get("key")
    with pytest.raises(Touched):
        view.items()


def shuffled_draw(state, seed):
    """The same game with the draw pile in another order: the same views, another future."""
    draw = list(state.draw)
    random.Random(seed).shuffle(draw)
    fields = {name: getattr(state, name) for name in State.__slots__}
    return State(**{**fields, "draw": tuple(draw)})


@pytest.mark.parametrize("level", piratz.BOT_LEVELS)
def test_the_draw_order_cannot_change_a_decision(level):
    for seed in range(6):
        state, log = logged_game(4, seed, False, 30)
        if piratz.is_finished(state):
            continue
        seat = piratz.current_seat(state)
        memory = seat_memory(log, seat, False)
        other = shuffled_draw(state, seed)
        assert other.draw != state.draw
        assert piratz.view(other, seat) == piratz.view(state, seat)
        first = piratz.choose_bot_action(piratz.view(state, seat), level, random.Random(3), memory)
        second = piratz.choose_bot_action(piratz.view(other, seat), level, random.Random(3), memory)
        assert first == second


# --- blind mode: memory is all a bot remembers --------------------------------------------


def blind_position():
    """Seat 0 to move in a blind 4-player game, the rings rat (1) and 2 rings (20) face up.

    Rats 2-9 were revealed earlier and are in the other seats' collections; the draw pile
    holds a single rat (10).
    """
    rest = [c for c in DECK.ids if c not in (1, 20)]
    taken_rats = list(range(2, 10))
    others = [c for c in rest if c not in taken_rats]
    draw, extra = tuple(others[:30]), others[30:]
    assert sum(DECK.rat[c] for c in draw) == 1
    state = State(
        players=4,
        blind=True,
        key=b"k" * 32,
        round=3,
        current=0,
        phase="turn",
        last_round=False,
        finished=False,
        reshuffles=0,
        draw=draw,
        discard=(),
        face_up=(1, 20),
        buried=(),
        spades=(True,) * 4,
        collected=(
            tuple(extra[:3]),
            tuple(taken_rats[:3]),
            tuple(taken_rats[3:6]),
            tuple(taken_rats[6:] + extra[3:]),
        ),
        cubes=((4, 3), (4, 3), (4, 2), (2, 1), (3, 2), (1, 1)),
    )
    # Seat 0 ended its turn (its last move: everything after it is in full), then the
    # others revealed rats 2-9.
    watched = [
        {"number": 1, "seat": 0, "action": {"action": "end_turn"}, "revealed": None},
        *(
            {"number": n, "seat": 1 + n % 3, "action": {"action": "reveal"}}
            | {"revealed": piratz.card(rat)}
            for n, rat in enumerate(taken_rats, start=2)
        ),
    ]
    watched = [entry | {"automatic": False, "at": None} for entry in watched]
    forgotten = [entry | {"revealed": None} for entry in watched]
    return piratz.view(state, 0), watched, forgotten


def test_careful_in_blind_mode_counts_the_rats_it_watched_being_revealed():
    view, watched, forgotten = blind_position()
    # Remembering 8 of the other 9 rats gone, the next card is a rat 1 time in 40: reveal.
    # Without that memory it is 9 in 48: with 3 items at stake, it passes.
    assert bots.choose_action(view, "careful", random.Random(1), watched) == {"action": "reveal"}
    taken = bots.choose_action(view, "careful", random.Random(1), forgotten)
    assert taken["action"] == "pass" and taken["treasure"] == "rings"


def test_strong_in_blind_mode_deals_only_cards_its_memory_has_not_placed():
    view, watched, forgotten = blind_position()
    remembered = {entry["revealed"]["id"] for entry in watched if entry["revealed"]}
    table = bots._Table.from_view(view, watched)
    rng = random.Random(5)
    for _ in range(20):
        dealt = bots._deal(table, rng)
        assert not remembered & set(dealt.draw)
        # Only rat 10 is unaccounted for (it may be dealt to a collection).
        assert sum(DECK.rat[c] for c in dealt.draw) <= 1
    forgetful = bots._Table.from_view(view, forgotten)
    rats = [sum(DECK.rat[c] for c in bots._deal(forgetful, rng).draw) for _ in range(20)]
    assert max(rats) > 1
    # And what it deals changes what it plays (fixed seeds: reproducible, not flaky).
    reveals_watched = sum(
        bots.choose_action(view, "strong", random.Random(s), watched)["action"] == "reveal"
        for s in range(6)
    )
    reveals_forgotten = sum(
        bots.choose_action(view, "strong", random.Random(s), forgotten)["action"] == "reveal"
        for s in range(6)
    )
    assert reveals_watched > reveals_forgotten


# --- contract details ---------------------------------------------------------------------


@pytest.mark.parametrize("level", piratz.BOT_LEVELS)
def test_a_fixed_rng_gives_the_same_decisions(level):
    for seed in range(5):
        state, log = logged_game(3, seed, seed % 2 == 1, 15 + seed)
        seat = piratz.current_seat(state)
        view = piratz.view(state, seat)
        memory = seat_memory(log, seat, state.blind)
        choices = {
            json.dumps(piratz.choose_bot_action(view, level, random.Random(seed), memory))
            for _ in range(3)
        }
        assert len(choices) == 1
    # Whole games too.
    first = play_bot_game(["strong", level], seed=11)
    assert play_bot_game(["strong", level], seed=11) == first


def test_an_unknown_level_or_a_view_without_moves_is_refused():
    state = piratz.new_game(2, seed=1)
    with pytest.raises(ValueError, match="unknown bot level"):
        piratz.choose_bot_action(piratz.view(state, 0), "genius", random.Random(1))
    for level in piratz.BOT_LEVELS:
        with pytest.raises(ValueError, match="no legal actions"):
            piratz.choose_bot_action(piratz.view(state, 1), level, random.Random(1))


def test_the_returned_action_is_a_fresh_dict():
    state = piratz.new_game(3, seed=2)
    view = piratz.view(state, 0)
    for level in piratz.BOT_LEVELS:
        action = piratz.choose_bot_action(view, level, random.Random(1))
        action["action"] = "changed"
        assert view["legal_actions"][0] == {"action": "reveal"}


def test_careful_reveals_while_no_rat_is_face_up():
    state = piratz.new_game(2, seed=4)
    view = piratz.view(state, 0)
    assert piratz.choose_bot_action(view, "careful", random.Random(1)) == {"action": "reveal"}
