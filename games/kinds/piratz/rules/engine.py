"""Piratz setup, move legality and the pure step function ``apply`` (rules P5-P18)."""

from .deck import CUBE_VALUES, DECK, TREASURE_INDEX, TREASURES
from .errors import IllegalAction
from .shuffle import KEY_BYTES, derive_key, keyed_order
from .state import ALARM, DECIDE, TURN, State

_RAT = DECK.rat
_SHOWS = DECK.shows

# Actions without parameters never change, so legal_actions can list copies of these.
_REVEAL = {"action": "reveal"}
_END_TURN = {"action": "end_turn"}
_ACTION_KEYS = {
    "reveal": ("action",),
    "end_turn": ("action",),
    "pass": ("action", "treasure", "bury"),
    "resolve_alarm": ("action", "keep", "bury"),
}


def deal(players, key):
    """The draw pile (top first) and the cube placement (per type in P1 order, highest
    first) that ``key`` deals for ``players`` (P6, P7): the one derivation of a deal."""
    # P6: two players leave the six skull cards out.
    in_play = DECK.ids if players > 2 else DECK.ids_without_skulls
    draw = keyed_order(key, "deck", 0, in_play)
    # P7: shuffle the 12 cube positions, then fill the score card type by type
    # (2 players: the first 6 cubes, one per type; otherwise all 12, two per type).
    per_type = 1 if players == 2 else 2
    order = keyed_order(key, "cubes", 0, range(len(CUBE_VALUES)))
    cubes = tuple(
        tuple(
            sorted((CUBE_VALUES[i] for i in order[t * per_type : (t + 1) * per_type]), reverse=True)
        )
        for t in range(len(TREASURES))
    )
    return draw, cubes


def new_game(players, seed=None, blind=False, key=None):
    """Set up a game (P5-P8) and return its first State: round 1, seat 0 to move, phase turn.

    ``players`` is 2, 3 or 4. ``seed=None`` takes the secret key from a cryptographic RNG;
    an int seed makes the whole game, reshuffles included, reproducible. ``key`` (32
    bytes, instead of a seed) is a key derived elsewhere, e.g. ``shuffle_key`` of a
    checkable shuffle; the game is then a function of that key. ``blind`` is the P23
    option. Raises ``ValueError`` for anything else.
    """
    if type(players) is not int or not 2 <= players <= 4:
        raise ValueError(f"players must be 2, 3 or 4, not {players!r}")
    if type(blind) is not bool:
        raise ValueError(f"blind must be True or False, not {blind!r}")
    if key is None:
        key = derive_key(seed)
    elif seed is not None:
        raise ValueError("give a seed or a key, not both")
    elif type(key) is not bytes or len(key) != KEY_BYTES:
        raise ValueError(f"key must be {KEY_BYTES} bytes")
    draw, cubes = deal(players, key)
    return State(
        players=players,
        blind=blind,
        key=key,
        round=1,
        current=0,
        phase=TURN,
        last_round=False,
        finished=False,
        reshuffles=0,
        draw=draw,
        discard=(),
        face_up=(),
        buried=(),
        spades=(True,) * players,
        collected=((),) * players,
        cubes=cubes,
    )


def _malformed(message):
    raise IllegalAction("malformed_action", message)


def _parse(action):
    """Check the action's shape (not its legality) and return its kind."""
    if not isinstance(action, dict):
        _malformed(f"an action is an object, not {type(action).__name__}")
    kind = action.get("action")
    if type(kind) is not str:
        _malformed('an action needs an "action" string')
    keys = _ACTION_KEYS.get(kind)
    if keys is None:
        raise IllegalAction("unknown_action", f"there is no action {kind!r}")
    if len(action) != len(keys) or not all(key in action for key in keys):
        _malformed(f"a {kind} action has exactly the keys {', '.join(keys)}")
    if kind == "pass":
        if type(action["treasure"]) is not str:
            _malformed("treasure must be a treasure type name")
    elif kind == "resolve_alarm" and type(action["keep"]) is not int:
        _malformed("keep must be a card id")
    if len(keys) == 3:
        bury = action["bury"]
        if bury is not None and type(bury) is not int:
            _malformed("bury must be a card id or null")
    return kind


def _check_turn(state, seat):
    if type(seat) is not int or not 0 <= seat < state.players:
        raise IllegalAction("unknown_seat", f"there is no seat {seat!r} in this game")
    if state.finished:
        raise IllegalAction("game_finished", "the game is over")
    if seat != state.current:
        raise IllegalAction("not_your_turn", f"it is seat {state.current}'s move")


def _wrong_phase(kind, phase):
    raise IllegalAction("wrong_phase", f"{kind} is not legal in phase {phase}")


def _check_bury(bury, row):
    """P13: bury must be a card of the remaining row, or null exactly when it is empty."""
    if row:
        if bury is None:
            raise IllegalAction("bury_required", "the face-up row is not empty: bury one card")
        if bury not in row:
            raise IllegalAction("card_not_face_up", f"card {bury} is not in the face-up row")
    elif bury is not None:
        raise IllegalAction("bury_not_allowed", "the face-up row is empty: bury must be null")


def _next_seat(spades, seat, players):
    """P16: the next seat clockwise still holding a spade (``seat`` itself last), or None."""
    for step in range(1, players + 1):
        candidate = (seat + step) % players
        if spades[candidate]:
            return candidate
    return None


def apply(state, seat, action):
    """Return the State after ``seat`` plays ``action``; ``state`` itself is never changed.

    Raises ``IllegalAction`` (see ``ERROR_CODES``) when the action is malformed or not
    legal now. Checks run in this order: the action's shape (malformed_action,
    unknown_action), the seat (unknown_seat, game_finished, not_your_turn), the phase
    (wrong_phase), then the action's own arguments.
    """
    kind = _parse(action)
    _check_turn(state, seat)
    phase = state.phase
    if kind == "reveal":
        if phase != TURN:
            _wrong_phase(kind, phase)
        return _reveal(state)
    if kind == "pass":
        if phase == ALARM:
            _wrong_phase(kind, phase)
        return _pass(state, seat, action["treasure"], action["bury"])
    if kind == "end_turn":
        if phase != DECIDE:
            _wrong_phase(kind, phase)
        new = state.copy()
        new.current = _next_seat(state.spades, seat, state.players)
        new.phase = TURN
        return new
    if phase != ALARM:
        _wrong_phase(kind, phase)
    return _resolve_alarm(state, seat, action["keep"], action["bury"])


def _reveal(state):
    """P10, P11, P18: turn up the top card, reshuffling the discard pile first if needed."""
    draw = state.draw
    discard = state.discard
    reshuffles = state.reshuffles
    if not draw:
        if not discard:
            raise IllegalAction("nothing_to_reveal", "the draw and discard piles are both empty")
        reshuffles += 1
        draw = reshuffle(state.key, reshuffles, discard)
        discard = ()
    card = draw[0]
    new = state.copy()
    new.draw = draw = draw[1:]
    new.discard = discard
    new.reshuffles = reshuffles
    new.face_up = state.face_up + (card,)
    if not draw:
        new.last_round = True
    # Outside an alarm at most one rat is face up, so a second rat means this card
    # is a rat and one was already there.
    if _RAT[card] and any(_RAT[c] for c in state.face_up):
        new.phase = ALARM
    else:
        new.phase = DECIDE
    return new


def reshuffle(key, number, discard):
    """The new draw pile (top first) of the game's ``number``-th reshuffle of ``discard`` (P10)."""
    return keyed_order(key, "reshuffle", number, discard)


def _pass(state, seat, treasure, bury):
    """P12: take every face-up card showing ``treasure``, then bury and place the spade."""
    index = TREASURE_INDEX.get(treasure)
    if index is None:
        raise IllegalAction("unknown_treasure", f"{treasure!r} is not a treasure type")
    shows = _SHOWS[index]
    taken = tuple(c for c in state.face_up if c in shows)
    row = tuple(c for c in state.face_up if c not in shows) if taken else state.face_up
    _check_bury(bury, row)
    new = state.copy()
    if taken:
        collected = state.collected
        new.collected = collected[:seat] + (collected[seat] + taken,) + collected[seat + 1 :]
    return _place_spade(state, new, seat, row, bury)


def _resolve_alarm(state, seat, keep, bury):
    """P14: keep one of the two face-up rats, then bury and place the spade."""
    face_up = state.face_up
    if keep not in face_up or not _RAT[keep]:
        raise IllegalAction("not_alarm_rat", f"card {keep} is not one of the two face-up rats")
    row = tuple(c for c in face_up if c != keep)
    _check_bury(bury, row)
    new = state.copy()
    collected = state.collected
    new.collected = collected[:seat] + (collected[seat] + (keep,),) + collected[seat + 1 :]
    return _place_spade(state, new, seat, row, bury)


def _place_spade(state, new, seat, row, bury):
    """P13, P15-P18: bury, place the spade, hand on the turn or end the round (or game)."""
    buried = state.buried
    if bury is not None:
        row = tuple(c for c in row if c != bury)
        buried = buried + ((seat, bury),)
    new.face_up = row
    spades = state.spades
    spades = spades[:seat] + (False,) + spades[seat + 1 :]
    players = state.players
    following = _next_seat(spades, seat, players)
    if following is not None:
        new.buried = buried
        new.spades = spades
        new.current = following
        new.phase = TURN
        return new
    # P17: the last spade is placed; buried cards are discarded, spades return and the
    # face-up row stays as it is.
    new.discard = state.discard + tuple(card for _, card in buried)
    new.buried = ()
    new.spades = (True,) * players
    if state.last_round:
        # P18: the round in which the draw pile ran out was the last one.
        new.finished = True
        new.current = None
        new.phase = None
    else:
        new.round = state.round + 1
        new.current = (seat + 1) % players
        new.phase = TURN
    return new


def legal_actions(state, seat):
    """Every legal action dict for ``seat``, or ``[]`` when it is not that seat's move.

    Order: reveal, end_turn, then pass for each treasure in P1 order and each bury choice
    in face-up order; resolve_alarm for each kept rat and each bury choice. Fresh dicts.
    """
    if type(seat) is not int or seat != state.current:
        return []
    phase = state.phase
    face_up = state.face_up
    if phase == ALARM:
        actions = []
        for keep in face_up:
            if _RAT[keep]:
                for bury in face_up:
                    if bury != keep:
                        actions.append({"action": "resolve_alarm", "keep": keep, "bury": bury})
        return actions
    if phase == TURN:
        actions = [_REVEAL.copy()] if state.draw or state.discard else []
    else:
        actions = [_END_TURN.copy()]
    for index, treasure in enumerate(TREASURES):
        shows = _SHOWS[index]
        row = [c for c in face_up if c not in shows]
        if row:
            for bury in row:
                actions.append({"action": "pass", "treasure": treasure, "bury": bury})
        else:
            actions.append({"action": "pass", "treasure": treasure, "bury": None})
    return actions


def current_seat(state):
    """The seat to move, or None once the game is finished."""
    return state.current


def current_phase(state):
    """``"turn"``, ``"decide"`` or ``"alarm"``, or None once the game is finished."""
    return state.phase


def is_finished(state):
    """True once the last round has ended (P18)."""
    return state.finished


def round_number(state):
    """The 1-based number of the current (or, once finished, the final) round."""
    return state.round


def revealed_card(before, after):
    """The card dict a ``reveal`` from ``before`` to ``after`` turned up, else None.

    A reveal is the only move that lengthens the face-up row, and it appends to it.
    """
    if len(after.face_up) > len(before.face_up):
        return DECK.card(after.face_up[-1])
    return None


def card(card_id):
    """A fresh card dict (docs/api.md's shape) for ``card_id``; ``KeyError`` if no such card."""
    if type(card_id) is not int or not 1 <= card_id <= len(DECK.ids):
        raise KeyError(f"no Piratz card {card_id!r}")
    return DECK.card(card_id)
