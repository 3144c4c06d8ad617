"""The Piratz game state as an immutable value, and its JSON form (dump/load)."""

from .deck import CUBE_VALUES, DECK, TREASURES

TURN = "turn"
DECIDE = "decide"
ALARM = "alarm"
PHASES = (TURN, DECIDE, ALARM)
DUMP_FORMAT = 1
_FIELDS = (
    "players",
    "blind",
    "key",
    "round",
    "current",
    "phase",
    "last_round",
    "finished",
    "reshuffles",
    "draw",
    "discard",
    "face_up",
    "buried",
    "spades",
    "collected",
    "cubes",
)

# The dump is the fields plus a header, with ``current`` spelled as the view spells it.
DUMP_KEYS = ("game", "format") + tuple(
    "current_seat" if name == "current" else name for name in _FIELDS
)


class State:
    """One moment of a Piratz game, including the secrets (key and draw order).

    Treat it as a value: every field is an int, bool, str, bytes or a tuple, and the
    engine builds a new State for every move instead of changing one. Fields:

    - ``players`` (2-4), ``blind`` (P23 option), ``key`` (32 secret bytes, see shuffle.py)
    - ``round`` (1-based), ``current`` seat and ``phase`` (None once finished),
      ``last_round`` (P18), ``finished``, ``reshuffles`` (discard reshuffles so far, P10)
    - ``draw`` (top card first), ``discard``, ``face_up`` (oldest first): card ids
    - ``buried``: ``(seat, card)`` pairs in burial order; ``spades``: one bool per seat
    - ``collected``: per seat, card ids in the order taken
    - ``cubes``: per type in P1 order, the cube values placed there, highest first
      (all of them, also after the game ends; the awards are computed by scoring).
    """

    __slots__ = _FIELDS

    def __init__(
        self,
        *,
        players,
        blind,
        key,
        round,
        current,
        phase,
        last_round,
        finished,
        reshuffles,
        draw,
        discard,
        face_up,
        buried,
        spades,
        collected,
        cubes,
    ):
        self.players = players
        self.blind = blind
        self.key = key
        self.round = round
        self.current = current
        self.phase = phase
        self.last_round = last_round
        self.finished = finished
        self.reshuffles = reshuffles
        self.draw = draw
        self.discard = discard
        self.face_up = face_up
        self.buried = buried
        self.spades = spades
        self.collected = collected
        self.cubes = cubes

    def copy(self):
        """Return a shallow copy; cheap because every field is immutable."""
        new = object.__new__(State)
        new.players = self.players
        new.blind = self.blind
        new.key = self.key
        new.round = self.round
        new.current = self.current
        new.phase = self.phase
        new.last_round = self.last_round
        new.finished = self.finished
        new.reshuffles = self.reshuffles
        new.draw = self.draw
        new.discard = self.discard
        new.face_up = self.face_up
        new.buried = self.buried
        new.spades = self.spades
        new.collected = self.collected
        new.cubes = self.cubes
        return new

    def _values(self):
        return tuple(getattr(self, name) for name in _FIELDS)

    def __eq__(self, other):
        if other.__class__ is not State:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self):
        return hash(self._values())

    def __repr__(self):
        # Deliberately leaves out the key and the draw order: reprs end up in logs.
        return (
            f"<State players={self.players} round={self.round} current={self.current} "
            f"phase={self.phase} draw={len(self.draw)} discard={len(self.discard)} "
            f"face_up={list(self.face_up)} finished={self.finished}>"
        )


def dump(state):
    """Return the full state, secrets included, as JSON-ready data (for the database only)."""
    return {
        "game": "piratz",
        "format": DUMP_FORMAT,
        "players": state.players,
        "blind": state.blind,
        "key": state.key.hex(),
        "round": state.round,
        "current_seat": state.current,
        "phase": state.phase,
        "last_round": state.last_round,
        "finished": state.finished,
        "reshuffles": state.reshuffles,
        "draw": list(state.draw),
        "discard": list(state.discard),
        "face_up": list(state.face_up),
        "buried": [[seat, card] for seat, card in state.buried],
        "spades": list(state.spades),
        "collected": [list(cards) for cards in state.collected],
        "cubes": {name: list(values) for name, values in zip(TREASURES, state.cubes, strict=True)},
    }


def _check(condition, message):
    if not condition:
        raise ValueError(f"invalid piratz state: {message}")


def _int(value):
    return type(value) is int


def _bool(value):
    return type(value) is bool


def _card_ids(value, what):
    _check(isinstance(value, list) and all(_int(c) for c in value), f"{what} must list card ids")
    return tuple(value)


def load(data):
    """Rebuild a State from ``dump`` output; ``load(dump(s)) == s``.

    Checks the data is a consistent game (every card in play in exactly one place,
    phase and spades agreeing, cubes as P7 places them) and raises ``ValueError``
    otherwise, so a corrupted row fails loudly instead of playing on wrongly.
    """
    _check(isinstance(data, dict), "expected an object")
    _check(set(data) == set(DUMP_KEYS), f"keys must be exactly {list(DUMP_KEYS)}")
    _check(data["game"] == "piratz" and data["format"] == DUMP_FORMAT, "not a piratz dump")
    players = data["players"]
    _check(_int(players) and 2 <= players <= 4, "players must be 2-4")
    _check(_bool(data["blind"]), "blind must be a bool")
    key = data["key"]
    _check(isinstance(key, str) and len(key) == 64, "key must be 64 hex digits")
    try:
        key = bytes.fromhex(key)
    except ValueError:
        key = b""
    _check(len(key) == 32, "key must be 64 hex digits")
    rnd, reshuffles = data["round"], data["reshuffles"]
    _check(_int(rnd) and rnd >= 1, "round must be a positive int")
    _check(_int(reshuffles) and reshuffles >= 0, "reshuffles must be a non-negative int")
    finished, last_round = data["finished"], data["last_round"]
    _check(_bool(finished) and _bool(last_round), "finished and last_round must be bools")
    current, phase = data["current_seat"], data["phase"]
    if finished:
        _check(current is None and phase is None, "a finished game has no current seat or phase")
        _check(last_round, "a game only finishes at the end of its last round (P18)")
    else:
        _check(_int(current) and 0 <= current < players, "current_seat must be a seat")
        _check(phase in PHASES, f"phase must be one of {PHASES}")

    draw = _card_ids(data["draw"], "draw")
    discard = _card_ids(data["discard"], "discard")
    face_up = _card_ids(data["face_up"], "face_up")
    raw_buried = data["buried"]
    _check(
        isinstance(raw_buried, list)
        and all(
            isinstance(pair, list)
            and len(pair) == 2
            and all(_int(v) for v in pair)
            and 0 <= pair[0] < players
            for pair in raw_buried
        ),
        "buried must list [seat, card] pairs",
    )
    buried = tuple((seat, card) for seat, card in raw_buried)
    spades = data["spades"]
    _check(
        isinstance(spades, list) and len(spades) == players and all(_bool(s) for s in spades),
        "spades must hold one bool per seat",
    )
    spades = tuple(spades)
    raw_collected = data["collected"]
    _check(
        isinstance(raw_collected, list) and len(raw_collected) == players,
        "collected must hold one list per seat",
    )
    collected = tuple(_card_ids(cards, "collected") for cards in raw_collected)

    everywhere = [*draw, *discard, *face_up, *(card for _, card in buried)]
    for cards in collected:
        everywhere.extend(cards)
    in_play = DECK.ids if players > 2 else DECK.ids_without_skulls
    _check(sorted(everywhere) == list(in_play), "every card in play must be in exactly one place")

    rats = sum(DECK.rat[card] for card in face_up)
    _check(rats == 2 if phase == ALARM else rats <= 1, "rats face up do not match the phase")
    _check(phase != DECIDE or face_up, "decide follows a reveal, so the row cannot be empty")
    _check(draw or last_round, "an empty draw pile means the last round (P18)")
    buried_seats = [seat for seat, _ in buried]
    _check(len(set(buried_seats)) == len(buried_seats), "a seat buries at most once per round")
    _check(all(not spades[seat] for seat in buried_seats), "a buried card lies under a spade")
    if finished:
        _check(all(spades) and not buried, "a finished game has all spades returned")
    else:
        _check(spades[current], "the current seat must hold its spade")

    raw_cubes = data["cubes"]
    _check(
        # A set, not a list: JSON objects are unordered (PostgreSQL's jsonb sorts keys).
        isinstance(raw_cubes, dict) and set(raw_cubes) == set(TREASURES),
        "cubes must map every treasure type",
    )
    per_type = 1 if players == 2 else 2
    cubes = []
    for name in TREASURES:
        values = raw_cubes[name]
        _check(
            isinstance(values, list)
            and len(values) == per_type
            and all(_int(v) for v in values)
            and values == sorted(values, reverse=True),
            f"cubes[{name}] must list {per_type} values, highest first",
        )
        cubes.append(tuple(values))
    pool = list(CUBE_VALUES)
    for value in (v for values in cubes for v in values):
        _check(value in pool, "cube values must come from the 12 cubes (P3)")
        pool.remove(value)

    return State(
        players=players,
        blind=data["blind"],
        key=key,
        round=rnd,
        current=current,
        phase=phase,
        last_round=last_round,
        finished=finished,
        reshuffles=reshuffles,
        draw=draw,
        discard=discard,
        face_up=face_up,
        buried=buried,
        spades=spades,
        collected=collected,
        cubes=tuple(cubes),
    )
