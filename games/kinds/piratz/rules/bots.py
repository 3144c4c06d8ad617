"""Computer players for Piratz: pure functions from what one seat may see to a legal action.

A bot gets exactly what a human at that seat gets: ``view(state, seat)`` (docs/api.md
"The engine's entry points") and the public move log as that seat may see it (``memory``;
in blind mode older entries are reduced, rules P23). It never touches a ``State``, the draw order or
the shuffle key; where a level searches, it searches over draw piles *it* deals from the
cards it cannot see, so the real ones cannot influence it. ``rng`` is its only source of
randomness, so a fixed ``random.Random`` makes every decision reproducible.

Levels (``LEVELS``):

- ``random``: any legal action (``random_action``, also the policy of ``manage.py
  simulate``), leaning towards revealing so that its games look like real ones.
- ``careful``: a simple risk rule. It reveals while no rat is face up; with one rat up
  it stops once the chance that the next card is a rat (rats left among the cards it
  cannot see) outweighs what it would gain; it passes on the type whose cards win the
  most cube value if the game ended now (rules P19-P22).
- ``strong``: deals the cards it cannot see at random many times over (a fixed number
  of deals, never a clock, so it stays pure) and plays each candidate action out to the
  end of the round with every seat playing ``careful``; it picks the action with the
  best average lead over the best opponent. In blind mode it knows only the cards the
  view shows and those revealed in ``memory``'s full entries.
"""

import random
from collections.abc import Sequence

from games.engine_common import checked_bot_choice

from .deck import DECK, TREASURES
from .engine import apply
from .state import ALARM, TURN, State

LEVELS = ("random", "careful", "strong")
# The level that stands in for a player (``games.bots.stand_in_level``): it plays
# sensibly at a fraction of ``strong``'s cost per decision.
STAND_IN_LEVEL = "careful"

# random: the chance to reveal (or end the turn, to reveal again) whenever that is legal.
# Uniform play passes almost at once and games drag on for dozens of rounds.
RANDOM_REVEAL_BIAS = 0.7

_TYPES = len(TREASURES)
_ITEMS = DECK.items
_TOTAL = DECK.total
_RAT = DECK.rat
_RATS = 6  # index of the rat count in a tally
_CARDS = 7  # index of the card count in a tally
# Per card: six item counts (P1 order), 1 for a rat, 1 for the card (see scoring.py).
_TALLY = tuple(items + (int(rat), 1) for items, rat in zip(DECK.items, DECK.rat, strict=True))


def random_action(legal: list[dict], rng: random.Random, reveal_bias: float = RANDOM_REVEAL_BIAS):
    """A random player's move from ``legal`` (non-empty): the ``random`` level's policy.

    When revealing is legal the player reveals outright with probability ``reveal_bias``;
    in the decide phase ``end_turn`` (staying in the round to reveal again) is taken
    with the same probability. Otherwise the move is uniform among all legal actions, so
    ``reveal_bias=0`` is plain uniform play. Returns one of the dicts in ``legal``.
    """
    push = legal[0]  # legal_actions lists reveal or end_turn first when it is legal
    if push["action"] in ("reveal", "end_turn") and rng.random() < reveal_bias:
        return push
    return rng.choice(legal)


def choose_action(view: dict, level: str, rng: random.Random, memory: Sequence[dict] = ()) -> dict:
    """Return the action the bot of ``level`` plays from ``view`` (a fresh dict).

    ``view`` is ``view(state, seat)`` for the bot's own seat, ``memory`` the public move
    log as that seat may see it (oldest first; the API's log entries), ``rng`` the only
    randomness used. The result is always one of ``view["legal_actions"]``. Raises
    ``ValueError`` for an unknown level or a view with no legal actions.
    """

    def choose(legal: list[dict]) -> dict:
        if level == "random":
            return random_action(legal, rng)
        table = _Table.from_view(view, memory)
        return _careful(table) if level == "careful" else _strong(table, rng)

    return checked_bot_choice(view, level, LEVELS, choose)


# --- what the seat knows -----------------------------------------------------------------


class _Table:
    """The bot's picture of the game, built from the view and memory only.

    ``tallies`` holds per seat ``[items x6, rats, cards]`` when the collections are known
    (open mode) and None in blind mode, where ``estimate`` holds expected tallies (open
    mode: the tallies); ``hidden`` the card ids the seat cannot place
    (candidates for the draw pile, and in blind mode also for the collections and the
    discard pile); ``draw_known`` says whether ``hidden`` is exactly the draw pile.
    """

    __slots__ = (
        "buried",
        "collected_ids",
        "counts",
        "cubes",
        "current",
        "discard_count",
        "draw_count",
        "draw_known",
        "estimate",
        "face_up",
        "gone",
        "hidden",
        "last_round",
        "legal",
        "phase",
        "players",
        "seat",
        "spades",
        "tallies",
    )
    buried: list[tuple[int, int]]
    collected_ids: tuple[tuple[int, ...], ...] | None
    counts: list[int]
    cubes: tuple[tuple[int, ...], ...]
    current: int | None
    discard_count: int
    draw_count: int
    draw_known: bool
    estimate: list
    face_up: list[int]
    gone: set[int]
    hidden: list[int]
    last_round: bool
    legal: list[dict]
    phase: str
    players: int
    seat: int
    spades: list[bool]
    tallies: list[list[int]] | None

    @classmethod
    def from_view(cls, view, memory):
        table = cls()
        table.players = players = view["players"]
        table.seat = view["seat"]
        table.current = view["current_seat"]
        table.phase = view["phase"]
        table.last_round = view["last_round"]
        table.draw_count = view["draw_pile"]
        table.discard_count = view["discard_pile"]
        table.face_up = [card["id"] for card in view["face_up"]]
        table.buried = [(entry["seat"], entry["card"]["id"]) for entry in view["buried"]]
        table.spades = list(view["spades"])
        table.cubes = tuple(tuple(view["cubes"][name]) for name in TREASURES)
        table.legal = view["legal_actions"]
        collected = view["collected"]
        table.counts = [entry["count"] for entry in collected]
        unseen = view["unseen"]
        in_view = set(table.face_up) | {card for _, card in table.buried}
        if unseen is not None:
            # Open mode: every collection is shown, and the unseen set is draw + discard.
            table.collected_ids = tuple(
                tuple(card["id"] for card in entry["cards"]) for entry in collected
            )
            table.tallies = [_tally(cards) for cards in table.collected_ids]
            table.estimate = table.tallies
            hidden = {card["id"] for card in unseen}
            table.gone = set()
            discarded = _discarded(memory, table.buried) & hidden
            if table.draw_count == 0:
                # The discard pile is all that is left: it is the next draw pile.
                table.draw_known = True
            elif len(discarded) == table.discard_count:
                hidden -= discarded
                table.gone = discarded
                table.draw_known = True
            else:
                table.draw_known = table.discard_count == 0
        else:
            # Blind mode (P23): only counts of collections; the cards this seat may
            # remember are those the view shows and those revealed in memory's full entries.
            table.tallies = None
            table.collected_ids = None
            in_play = DECK.ids if players > 2 else DECK.ids_without_skulls
            revealed = {entry["revealed"]["id"] for entry in memory if entry["revealed"]}
            table.gone = revealed - in_view
            hidden = set(in_play) - in_view - revealed
            # strong's estimate of the collections: each card of unknown place is as likely
            # in a collection as anywhere else, so a seat of ``count`` cards holds ``count``
            # times the average of those cards (the same for everyone: only counts differ).
            unknown = [_TALLY[c] for c in hidden | table.gone]
            average = (
                [sum(column) / len(unknown) for column in zip(*unknown, strict=True)]
                if unknown
                else None
            )
            table.estimate = [
                [count * value for value in average[:_CARDS]] + [count]
                if average
                else [0] * (_TYPES + 1) + [count]
                for count in table.counts
            ]
            table.draw_known = False
        table.hidden = sorted(hidden)
        return table

    def rat_chance(self):
        """The chance that the next reveal is a rat, from the cards this seat cannot place."""
        # When the draw pile is not known exactly, the cards this seat cannot place stand
        # for it (in open mode that includes the discard pile, at worst a few cards).
        pool = self.hidden
        if not pool:
            return 0.0
        return sum(_RAT[c] for c in pool) / len(pool)


def _discarded(memory, buried_now):
    """Cards buried in earlier rounds according to ``memory`` (the discard pile's candidates)."""
    buried = set()
    for entry in memory:
        action = entry["action"]
        bury = action.get("bury")
        if bury is not None:
            buried.add(bury)
    return buried - {card for _, card in buried_now}


def _tally(cards):
    tally = [0] * (_TYPES + 2)
    for card in cards:
        for index, value in enumerate(_TALLY[card]):
            tally[index] += value
    return tally


# --- scoring as if the game ended now (rules P19-P22) ---------------------------------------


def _points(tallies, index, values):
    """Per seat, the cube of type ``index`` it would get if the game ended now (P20, P21).

    A fresh list, or a shared tuple of zeros when nobody holds the type (hot path).
    """
    ranked = [
        (-tally[index], -tally[_RATS], tally[_CARDS], seat)
        for seat, tally in enumerate(tallies)
        if tally[index]
    ]
    if not ranked:
        return _NOBODY[len(tallies)]
    points = [0] * len(tallies)
    if len(ranked) == 1:
        points[ranked[0][3]] = values[0]
        return points
    ranked.sort()
    for place in range(min(len(values), len(ranked))):
        if place + 1 < len(ranked) and ranked[place + 1][:3] == ranked[place][:3]:
            break  # P20: a full tie stops this type's awards
        points[ranked[place][3]] = values[place]
    return points


_NOBODY = {players: (0,) * players for players in range(2, 5)}


def _scores(tallies, cubes):
    """Each seat's cube total if the game ended with these tallies (P20-P22)."""
    scores = [0] * len(tallies)
    for index in range(_TYPES):
        for seat, value in enumerate(_points(tallies, index, cubes[index])):
            scores[seat] += value
    return scores


def _lead_of(scores, seat):
    """``seat``'s score minus the best other score."""
    return scores[seat] - max(score for other, score in enumerate(scores) if other != seat)


# Per card: the treasure indexes it shows.
_SHOWN = tuple(tuple(i for i, n in enumerate(items) if n) for items in DECK.items)


class _Standing:
    """The cubes each seat would get if the game ended now, and what taking cards changes.

    ``gain(seat, cards)`` is how much ``seat``'s lead over the best other seat grows if it
    takes ``cards``. Only the types those cards show are ranked again: the rats and card
    counts they add also break ties in other types, which this (cheap, often repeated)
    estimate ignores. Blind mode (``tallies`` None): every gain is 0.
    """

    __slots__ = ("cubes", "points", "scores", "tallies")

    def __init__(self, tallies, cubes):
        self.tallies = tallies
        self.cubes = cubes
        if tallies is None:
            return
        self.points = [_points(tallies, index, cubes[index]) for index in range(_TYPES)]
        self.scores = [sum(column) for column in zip(*self.points, strict=True)]

    def gain(self, seat, cards):
        if self.tallies is None or not cards:
            return 0
        tallies = list(self.tallies)
        tally = list(tallies[seat])
        touched: set[int] = set()
        for card in cards:
            for index, value in enumerate(_TALLY[card]):
                tally[index] += value
            touched.update(_SHOWN[card])
        tallies[seat] = tally
        scores = list(self.scores)
        points = self.points
        cubes = self.cubes
        for index in touched:
            old = points[index]
            for other, value in enumerate(_points(tallies, index, cubes[index])):
                scores[other] += value - old[other]
        return _lead_of(scores, seat) - _lead_of(self.scores, seat)


def _with_cards(tallies, seat, cards):
    new = list(tallies)
    tally = list(tallies[seat])
    for card in cards:
        for index, value in enumerate(_TALLY[card]):
            tally[index] += value
    new[seat] = tally
    return new


# --- careful ----------------------------------------------------------------------------


def _bury_choice(row):
    """The remaining face-up card with the most items (ties: a rat, then lowest id), or None."""
    if not row:
        return None
    return min(row, key=lambda c: (-_TOTAL[c], not _RAT[c], c))


def _passes(face_up):
    """Per treasure index: (cards taken, remaining row) for a pass naming it (P12)."""
    options = []
    for index in range(_TYPES):
        taken = [c for c in face_up if _ITEMS[c][index]]
        row = [c for c in face_up if not _ITEMS[c][index]] if taken else list(face_up)
        options.append((index, taken, row))
    return options


def _pass_value(standing, seat, taken):
    """How good taking ``taken`` is for ``seat``: lead gained, then items taken."""
    return (standing.gain(seat, taken), sum(_TOTAL[c] for c in taken))


def _best_pass(standing, seat, face_up):
    """The careful pass: the type whose cards win the most, burying the richest card left."""
    best = None
    for index, taken, row in _passes(face_up):
        value = _pass_value(standing, seat, taken)
        if best is None or value > best[0]:
            best = (value, index, row)
    assert best is not None  # _passes yields one option per treasure type
    value, index, row = best
    action = {"action": "pass", "treasure": TREASURES[index], "bury": _bury_choice(row)}
    return action, value


def _best_keep(standing, seat, face_up):
    """The rat worth most to ``seat`` of the two face up (P14)."""
    best = None
    for keep in face_up:
        if _RAT[keep]:
            value = _pass_value(standing, seat, [keep])
            if best is None or value > best[0]:
                best = (value, keep)
    assert best is not None, "a keep needs a rat face up (P14)"
    return best[1]


# careful reveals with a rat face up while the chance of a second rat stays below this
# (lower when the row already holds much for it to lose).
CAREFUL_RISK = 0.25


def _careful_decision(standing, seat, phase, face_up, spades, rat_chance, can_reveal):
    """The careful policy on plain data (used by the careful level and in strong's playouts)."""
    if phase == ALARM:
        keep = _best_keep(standing, seat, face_up)
        row = [c for c in face_up if c != keep]
        return {"action": "resolve_alarm", "keep": keep, "bury": _bury_choice(row)}
    rat_up = any(_RAT[c] for c in face_up)
    alone = sum(spades) == 1
    if not rat_up and ((phase == TURN and can_reveal) or (phase != TURN and alone)):
        # No rat face up: the next card cannot cause an alarm (P11), and ending the turn
        # alone comes back to this seat (P16).
        return {"action": "reveal"} if phase == TURN else {"action": "end_turn"}
    action, (gain, items) = _best_pass(standing, seat, face_up)
    # Risk rule: the more the row already offers, the less risk it takes.
    limit = CAREFUL_RISK / (1 + max(gain, 0) / 2 + items / 4)
    if phase == TURN:
        return {"action": "reveal"} if can_reveal and rat_chance < limit else action
    # Decide phase, after its own reveal: take a good row, or let the turn go on.
    if alone:
        return {"action": "end_turn"} if rat_chance < limit else action
    if gain >= 2 or (gain > 0 and rat_up):
        return action
    return {"action": "end_turn"}


def _careful(table):
    can_reveal = any(action["action"] == "reveal" for action in table.legal)
    return _careful_decision(
        _Standing(table.tallies, table.cubes),
        table.seat,
        table.phase,
        table.face_up,
        table.spades,
        table.rat_chance(),
        can_reveal,
    )


# --- strong -----------------------------------------------------------------------------


# strong deals the unseen cards this many times and plays every candidate out on each
# deal (the same deals for every candidate, so their difference is not luck of the deal).
# Chosen from measurements (BENCHMARKS.md "Bots"): more deals gained little and cost time.
STRONG_DEALS = 16
# How many of careful's best passes strong compares with pushing on (revealing or ending
# the turn).
STRONG_PASSES = 2


def _strong(table, rng):
    """Monte Carlo over deals of the cards this seat cannot see (see the module docstring)."""
    legal = table.legal
    phase = table.phase
    face_up = table.face_up
    rat_up = any(_RAT[c] for c in face_up)
    push = legal[0] if legal[0]["action"] in ("reveal", "end_turn") else None
    if phase == ALARM:
        return _strong_keep(table)
    if push is not None and not rat_up and (phase == TURN or sum(table.spades) == 1):
        # Revealing with no rat up cannot cause an alarm and only adds to the row this
        # seat may take right after; ending the turn alone comes back to it (P16).
        return push
    candidates = _strong_passes(table)
    if push is not None:
        candidates.append(push)
    if len(candidates) == 1:
        return candidates[0]
    totals = [0.0] * len(candidates)
    for _ in range(STRONG_DEALS):
        state = _deal(table, rng)
        if state is None:
            return _careful(table)
        for number, action in enumerate(candidates):
            totals[number] += _playout(state, table.seat, action, table.estimate)
    best = max(range(len(candidates)), key=lambda number: (totals[number], -number))
    return candidates[best]


def _strong_passes(table):
    """careful's best passes, each burying what the other seats would want most."""
    standing = _Standing(table.estimate, table.cubes)
    seat = table.seat
    scored = []
    for index, taken, row in _passes(table.face_up):
        scored.append((_pass_value(standing, seat, taken), -index, taken, row))
    scored.sort(reverse=True)
    passes = []
    for _, index, taken, row in scored[:STRONG_PASSES]:
        bury = _denying_bury(table, seat, taken, row)
        passes.append({"action": "pass", "treasure": TREASURES[-index], "bury": bury})
    return passes


def _strong_keep(table):
    """Alarm: keep the rat worth most to this seat, bury what the others would want most."""
    keep = _best_keep(_Standing(table.estimate, table.cubes), table.seat, table.face_up)
    row = [c for c in table.face_up if c != keep]
    return {
        "action": "resolve_alarm",
        "keep": keep,
        "bury": _denying_bury(table, table.seat, [keep], row),
    }


def _denying_bury(table, seat, taken, row):
    """The card of ``row`` whose loss hurts the other seats still in the round the most."""
    if len(row) <= 1:
        return row[0] if row else None
    others = [s for s, spade in enumerate(table.spades) if spade and s != seat]
    if not others:
        return _bury_choice(row)
    standing = _Standing(_with_cards(table.estimate, seat, taken), table.cubes)
    best = None
    for bury in row:
        rest = [c for c in row if c != bury]
        # What the best-placed other seat could still gain from the row.
        threat = max(_best_pass(standing, other, rest)[1] for other in others)
        key = (threat, -_TOTAL[bury], bury)
        if best is None or key < best[0]:
            best = (key, bury)
    assert best is not None  # row holds two cards or more here
    return best[1]


def _deal(table, rng):
    """A ``State`` consistent with what this seat knows, the unknown cards dealt by ``rng``.

    Returns None if the seat's knowledge is inconsistent with the counts in the view
    (it cannot be with a real view and memory; then strong plays careful).
    """
    hidden = list(table.hidden)
    rng.shuffle(hidden)
    draw_count = table.draw_count
    if table.tallies is not None:
        collected = None
        if table.draw_known and draw_count == 0:
            draw, discard = (), tuple(hidden)
        elif table.draw_known:
            draw, discard = tuple(hidden), tuple(table.gone)
        else:
            draw, discard = tuple(hidden[:draw_count]), tuple(hidden[draw_count:])
    else:
        if len(hidden) < draw_count:
            return None
        draw = tuple(hidden[:draw_count])
        rest = hidden[draw_count:] + sorted(table.gone)
        rng.shuffle(rest)
        collected = []
        start = 0
        for count in table.counts:
            collected.append(tuple(rest[start : start + count]))
            start += count
        if start > len(rest):
            return None
        discard = tuple(rest[start:])
    if len(draw) != draw_count:
        return None
    return State(
        players=table.players,
        blind=False,
        key=rng.getrandbits(256).to_bytes(32, "big"),
        round=1,
        current=table.current,
        phase=table.phase,
        last_round=table.last_round,
        finished=False,
        reshuffles=0,
        draw=draw,
        discard=discard,
        face_up=tuple(table.face_up),
        buried=tuple(table.buried),
        spades=tuple(table.spades),
        collected=tuple(collected) if collected is not None else table.collected_ids,
        cubes=table.cubes,
    )


def _playout(state, seat, action, tallies):
    """``seat`` plays ``action``, then careful plays every seat to the end of the round.

    Returns ``seat``'s lead when the round ends. ``tallies`` are the collections in
    ``state`` (blind mode: the estimate); the cards taken on the way are added to them.
    """
    tallies = list(tallies)
    cubes = state.cubes
    mover = seat
    while True:
        before = len(state.collected[mover])
        state = apply(state, mover, action)
        taken = state.collected[mover][before:]
        if taken:
            tallies[mover] = _with_cards(tallies, mover, taken)[mover]
        if state.finished or state.round != 1:
            break
        mover = state.current
        draw = state.draw or state.discard
        chance = sum(_RAT[c] for c in draw) / len(draw) if draw else 0.0
        action = _careful_decision(
            _Standing(tallies, cubes),
            mover,
            state.phase,
            state.face_up,
            state.spades,
            chance,
            bool(draw),
        )
    return _lead_of(_scores(tallies, cubes), seat)


__all__ = ["LEVELS", "STAND_IN_LEVEL", "choose_action", "random_action"]
