"""The protocol of the pure rules engines, one in each game's folder
(``games/kinds/<kind>/rules/``).

The service finds a game's engine through ``games.catalogue`` (``rules_for(kind)``, the
spec's ``rules``); this module only states what an engine is. A rules module is plain
Python (no Django, database, clock, network or global RNG; a test walks the engines to
enforce it) and exposes:

- ``NAME`` (the game's name as players read it, e.g. ``"Piratz"``), ``PLAYER_COUNTS``
  (the numbers of players it can seat, e.g. ``(2, 3, 4)``) and ``OPTIONS`` (option name
  -> default, each a bool the host may set, e.g. Piratz's ``{"blind": False}``; ``{}``
  for none): what the service asks instead of assuming one game's numbers.
- ``new_game(players, seed=None, **options) -> State``: a fresh game; an int seed makes
  it reproducible, None shuffles with a cryptographic RNG; ``options`` are ``OPTIONS``'
  names (the service passes every one).
- ``legal_actions(state, seat) -> list[dict]``: every legal action for that seat,
  empty when it is not that seat's move.
- ``apply(state, seat, action) -> State``: the next state; never changes ``state``;
  raises ``IllegalAction`` for an illegal or malformed action.
- ``view(state, seat | None) -> dict``: JSON-ready, what that seat (None: a spectator)
  may see; fresh objects every call. Once the game is finished its ``result`` holds at
  least ``winners`` (the winning seats) and ``players`` (one ``{"seat", "score"}`` per
  seat): the service stores it, and leagues and ratings rank the seats by it.
- ``timeout_action(state, standing_order=()) -> dict``: the action played when the
  current player's deadline passes; ``standing_order`` is the player's optional ordered
  list of choices (for Piratz, treasure type names from ``TREASURES``) that the rules
  follow where they allow, falling back to their own choice.
- ``dump(state) -> dict`` / ``load(dict) -> State``: the full, secret state as JSON-ready
  data and back; ``load(dump(s)) == s``.
- ``IllegalAction``: a ``ValueError`` with a ``.code`` string, and ``ERROR_CODES``
  (code -> description) listing every code it can carry.
- ``current_seat(state)`` (None once over), ``is_finished(state)``,
  ``round_number(state)`` and ``move_effects(before, after, seat, action)`` (what a
  move revealed and buried, and whether it ended the turn), so the service can run
  and log a game without knowing its rules. ``move_effects`` returns a dict with at
  least ``revealed`` (what the move turned up, as the game describes it, or None),
  ``revealed_ids`` (the same as JSON-ready ids, what the move log stores), ``buried``
  (a card id hidden by the move, or None) and ``new_turn`` (the move ended the turn:
  the next one, maybe the same seat's, gets a fresh deadline).
- ``public_revealed(ids)``: a log entry's ``revealed`` from the stored ``revealed_ids``
  (None for None), as docs/api.md "Games, moves and versions" shows it.
- ``ROUNDS_TO_ABANDON``: the service ends a game as abandoned when every move of this
  many consecutive rounds (``round_number``) was automatic (Piratz P25: 1 round;
  Rattenscharf R36: 2 turns, its rounds being turns).

Time-outs: the deadline belongs to the turn. When it passes, the service applies
``timeout_action`` to the then current state until the turn has ended (``new_turn``), so
one deadline plays a whole turn however many moves it takes (Piratz: one, P24;
Rattenscharf: one per strip in hand, R34).

Optional: a game that offers bots exposes ``BOT_LEVELS`` (its level names, weakest
first) and ``choose_bot_action(view, level, rng, memory=()) -> dict``: the action a bot
of that level plays from ``view(state, seat)`` for its own seat and the public move log
as that seat may see it (``memory``, oldest first), using only ``rng`` (a
``random.Random``) for chance. It returns one of the view's legal actions (a fresh dict)
and raises ``ValueError`` for an unknown level or a view without legal actions. A game
that offers bots has both names; the service seats bots only in such games. It may name
the level that stands in for a player (a timed-out, absent or resigned one) as
``STAND_IN_LEVEL``, one of ``BOT_LEVELS``; without it the strongest (the last) stands in
(``games.bots.stand_in_level``).

Optional: ``standing_result(state) -> dict``: the game's ``result`` for the table as it
stands, as if it ended now (the service's result of a game a resignation ends, P26 and
R37; the service names the winners). A game without it ends such a game with an empty
result.

Optional: a game whose shuffles anyone can check (docs/shuffle.md)
takes ``key`` in ``new_game(players, seed=None, key=None, **options)`` (32 bytes
instead of a seed; the game is then a function of the key: an int seed still deals
exactly the game it always did) and exposes ``shuffle_commitment(server_seed) -> str``
(the public commitment to a secret server seed of 32 bytes), ``is_client_seed(text)``,
``shuffle_key(server_seed, client_seeds) -> bytes`` (the key from the server seed and
one client seed per seat, "" for none) and ``check_deal(players, key, cubes, log)``,
which redoes every shuffle from the key and compares the game's public record (its
cube placement and each logged ``revealed`` card id) with it. The service offers
checkable shuffles only in games that have these names.

To add a game, write its engine with those names (docs/adding-a-game.md); nothing here
or in another game changes.
"""

from typing import Protocol

REQUIRED_NAMES = (
    "NAME",
    "PLAYER_COUNTS",
    "OPTIONS",
    "ROUNDS_TO_ABANDON",
    "new_game",
    "legal_actions",
    "apply",
    "view",
    "timeout_action",
    "dump",
    "load",
    "IllegalAction",
    "ERROR_CODES",
    "current_seat",
    "is_finished",
    "round_number",
    "move_effects",
    "public_revealed",
)


class RulesModule(Protocol):
    """The shape of a rules module (for type checkers; see the module docstring)."""

    NAME: str
    PLAYER_COUNTS: tuple[int, ...]
    OPTIONS: dict[str, bool]
    ROUNDS_TO_ABANDON: int
    IllegalAction: type[ValueError]
    ERROR_CODES: dict[str, str]

    def new_game(self, players: int, seed: int | None = None, **options): ...
    def legal_actions(self, state, seat: int) -> list[dict]: ...
    def apply(self, state, seat: int, action: dict): ...
    def view(self, state, seat: int | None) -> dict: ...
    def timeout_action(self, state, standing_order=()) -> dict: ...
    def dump(self, state) -> dict: ...
    def load(self, data: dict): ...
    def current_seat(self, state) -> int | None: ...
    def is_finished(self, state) -> bool: ...
    def round_number(self, state) -> int: ...
    def move_effects(self, before, after, seat: int, action: dict) -> dict: ...
    def public_revealed(self, ids): ...


class BotRulesModule(RulesModule, Protocol):
    """A rules module that offers bots (the optional names in the module docstring)."""

    BOT_LEVELS: tuple[str, ...]

    def choose_bot_action(self, view: dict, level: str, rng, memory=()) -> dict: ...
