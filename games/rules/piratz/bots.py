"""Computer players for Piratz: pure functions from what one seat may see to a legal action.

A bot gets exactly what a human at that seat gets: ``view(state, seat)`` (CONTRACT
section 1) and the public move log as that seat may see it (``memory``; in blind mode
older entries are reduced, rules P23). It never touches a ``State``, the draw order or
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

from .deck import DECK, TREASURES
from .state import ALARM, TURN

LEVELS = ("random", "careful", "strong")

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
    log as that seat may see it (oldest first; CONTRACT's log entries), ``rng`` the only
    randomness used. The result is always one of ``view["legal_actions"]``. Raises
    ``ValueError`` for an unknown level or a view with no legal actions.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}")
    legal = view["legal_actions"]
    if not legal:
        raise ValueError("the view has no legal actions: it is not this seat's move")
    if level == "random":
        action = random_action(legal, rng)
    else:
        table = _Table.from_view(view, memory)
        action = _careful(table) if level == "careful" else _strong(table, rng)
    # Never hand back an action the view does not list (e.g. a policy bug): the service
    # would reject it and the bot's seat would stall.
    if action not in legal:
        raise AssertionError(f"bot chose {action!r}, which is not legal here")
    return dict(action)


# --- what the seat knows -----------------------------------------------------------------


class _Table:
    """The bot's picture of the game, built from the view and memory only.

    ``tallies`` holds per seat ``[items x6, rats, cards]`` when the collections are known
    (open mode) and None in blind mode; ``hidden`` the card ids the seat cannot place
    (candidates for the draw pile, and in blind mode also for the collections and the
    discard pile); ``draw_known`` says whether ``hidden`` is exactly the draw pile.
    """

    __slots__ = (
        "buried",
        "counts",
        "cubes",
        "current",
        "discard_count",
        "draw_count",
        "draw_known",
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
            table.tallies = [_tally(card["id"] for card in entry["cards"]) for entry in collected]
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
            in_play = DECK.ids if players > 2 else DECK.ids_without_skulls
            revealed = {entry["revealed"]["id"] for entry in memory if entry["revealed"]}
            table.gone = revealed - in_view
            hidden = set(in_play) - in_view - revealed
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


def _scores(tallies, cubes):
    """Each seat's cube total if the game ended with these tallies (P20-P22)."""
    scores = [0] * len(tallies)
    for index in range(_TYPES):
        ranked = sorted(
            (-tally[index], -tally[_RATS], tally[_CARDS], seat)
            for seat, tally in enumerate(tallies)
            if tally[index]
        )
        values = cubes[index]
        for place in range(min(len(values), len(ranked))):
            if place + 1 < len(ranked) and ranked[place + 1][:3] == ranked[place][:3]:
                break  # P20: a full tie stops this type's awards
            scores[ranked[place][3]] += values[place]
    return scores


def _lead(tallies, cubes, seat):
    """``seat``'s score minus the best other score, as if the game ended now."""
    scores = _scores(tallies, cubes)
    mine = scores[seat]
    return mine - max(score for other, score in enumerate(scores) if other != seat)


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


def _pass_value(tallies, cubes, seat, taken):
    """How good taking ``taken`` is for ``seat``: lead gained, then items (blind: items)."""
    items = sum(_TOTAL[c] for c in taken)
    if tallies is None:
        return (0, items)
    return (_lead(_with_cards(tallies, seat, taken), cubes, seat), items)


def _best_pass(tallies, cubes, seat, face_up):
    """The careful pass: the type whose cards win the most, burying the richest card left."""
    best = None
    for index, taken, row in _passes(face_up):
        value = _pass_value(tallies, cubes, seat, taken)
        if best is None or value > best[0]:
            best = (value, index, row)
    value, index, row = best
    action = {"action": "pass", "treasure": TREASURES[index], "bury": _bury_choice(row)}
    return action, value


def _best_keep(tallies, cubes, seat, face_up):
    """Alarm (P14): keep the rat that is worth most, bury the richest remaining card."""
    best = None
    for keep in face_up:
        if not _RAT[keep]:
            continue
        value = _pass_value(tallies, cubes, seat, [keep])
        if best is None or value > best[0]:
            best = (value, keep)
    keep = best[1]
    row = [c for c in face_up if c != keep]
    return {"action": "resolve_alarm", "keep": keep, "bury": _bury_choice(row)}


# careful reveals with a rat face up while the chance of a second rat stays below this
# (lower when the row already holds much for it to lose).
CAREFUL_RISK = 0.25


def _careful_decision(tallies, cubes, seat, phase, face_up, spades, rat_chance, can_reveal):
    """The careful policy on plain data (used by the careful level and in strong's playouts)."""
    if phase == ALARM:
        return _best_keep(tallies, cubes, seat, face_up)
    action, (gain, items) = _best_pass(tallies, cubes, seat, face_up)
    rat_up = any(_RAT[c] for c in face_up)
    alone = sum(spades) == 1
    if phase == TURN:
        if not can_reveal:
            return action
        if not rat_up:
            return {"action": "reveal"}
        # Risk rule: the more the row already offers, the less risk it takes.
        limit = CAREFUL_RISK / (1 + max(gain, 0) / 2 + items / 4)
        return {"action": "reveal"} if rat_chance < limit else action
    # Decide phase, after its own reveal: take a good row, or let the turn go on.
    if alone:
        # end_turn comes back to it: the same as revealing again (P16).
        if not rat_up:
            return {"action": "end_turn"}
        limit = CAREFUL_RISK / (1 + max(gain, 0) / 2 + items / 4)
        return {"action": "end_turn"} if rat_chance < limit else action
    if gain >= 2 or (gain > 0 and rat_up):
        return action
    return {"action": "end_turn"}


def _careful(table):
    can_reveal = any(action["action"] == "reveal" for action in table.legal)
    return _careful_decision(
        table.tallies,
        table.cubes,
        table.seat,
        table.phase,
        table.face_up,
        table.spades,
        table.rat_chance(),
        can_reveal,
    )


# --- strong -----------------------------------------------------------------------------


def _strong(table, rng):
    """First version: careful, with the alarm and pass choices checked by lead."""
    return _careful(table)


__all__ = ["LEVELS", "choose_action", "random_action"]
