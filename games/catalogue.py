"""The catalogue of games: what the service asks a game for, by its kind, in one place.

Each game is one package and Django app under ``games/kinds/`` (``games/kinds/piratz/``,
``games/kinds/rattenscharf/``) exporting ``SPEC``, a ``GameSpec``; the setting
``GAME_PACKAGES`` lists the packages. Generic modules (actions, notify, API, mail-in, table
and replay pages, commands) ask ``spec_for(kind)`` and never import a game. The engines
(``games/kinds/<kind>/rules/``, docs/api.md "The engine's entry points") stay pure; a spec
carries its engine as ``rules``.

Only ``kind`` and ``rules`` are required. Every other piece is optional, and a game
without it gets the one fallback its field's comment names (docs/adding-a-game.md).
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from types import ModuleType

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.functional import Promise
from rest_framework.serializers import Serializer


@dataclass(frozen=True, eq=False)  # compared and hashed by identity
class GameSpec:
    """Everything service-side about one game. ``None`` (or empty) means "use the fallback"."""

    # The game's key: ``Game.game``, the engine's ``view()["game"]``, the API's "game".
    kind: str
    # The pure engine (the protocol in ``games/engine_protocol.py``).
    rules: ModuleType
    # Games in words (the names ``games/describe/__init__.py`` lists). Fallback:
    # ``games.describe.generic`` (the move's action as written, the view as key: value).
    words: ModuleType | None = None
    # The table page: template and its context ``(game, seat, zone) -> dict``. Fallback:
    # ``games/any_game/table.html`` fed by ``games.table.basic_context``.
    table_template: str = ""
    table_context: Callable | None = None
    # Reads a move form of the table page: ``(data) -> (version, action)``. Fallback:
    # ``games.table.parse_any_game_move`` (the generic template's one button per legal action).
    parse_table_move: Callable | None = None
    # The API: the serializer reading a move's body (``version`` plus the action's fields,
    # ``to_action()``); its ``action`` choices must not clash with another game's. Fallback:
    # ``games.api.moves.AnyGameMoveSerializer`` (the engine judges the raw action).
    move_serializer: type[Serializer] | None = None
    # Action name -> serializer documenting that action's move (OpenAPI only). Fallback:
    # ``move_serializer`` for each of its actions (nothing without one).
    move_schemas: Mapping[str, type[Serializer]] = field(default_factory=dict)
    # JSON Schema of the engine's ``view`` (one branch of the API's ``GameState``) and of a
    # log entry's ``revealed``, with the named parts they refer to. Fallbacks: an object
    # with the keys every view starts with (``games.api.tables``); revealed always null.
    table_schema: Mapping | None = None
    revealed_schema: Mapping | None = None
    schema_parts: Mapping[str, Mapping] = field(default_factory=dict)
    # Engine refusals: code -> API code for codes that do not mean "illegal now"
    # (``invalid``, ``game_not_active``), and code -> the sentence players read, in every
    # language (the engine's message is for developers and logs). Fallbacks:
    # ``illegal_action``; a general sentence, never the engine's message.
    refusal_codes: Mapping[str, str] = field(default_factory=dict)
    # Sentences may be lazy (gettext_lazy): they are rendered in the reader's language.
    refusal_sentences: Mapping[str, str | Promise] = field(default_factory=dict)
    # Playing by email: the reply's first line -> action dict (raises
    # ``mailin.parser.MoveParseError``), and the lines saying what may be written now from
    # the player's view. Fallbacks: the reply is answered that this game is played on its
    # page (the link), not by email; no hints.
    mail_grammar: Callable[[str], dict] | None = None
    mail_hints: Callable[[dict], list[str]] | None = None
    # The replay page: ``(games.replay.ReplayRequest) -> context`` and its template.
    # Fallback: ``games.replay.any_game_page`` with ``games/any_game/replay.html`` (each
    # step's move in words and, at the last step, the table as the reader sees it now).
    replay_page: Callable | None = None
    replay_template: str = ""
    # ``manage.py simulate --game <kind>``: ``(command, games, options)`` prints the run.
    # Fallback: the game is not offered to ``simulate``.
    simulate: Callable | None = None
    # The game's own options of ``simulate``: ``(group) -> None`` adds them with
    # ``group.add_argument`` (argparse's) to a group of ``--help`` titled with the game's
    # name (and may set ``group.description``: what its run prints); the command refuses
    # them with another ``--game``. Their names must not clash with the command's or
    # another game's. Fallback: the game has only the common options.
    add_simulation_arguments: Callable | None = None
    # The rules page for players (``/rules/<kind>/``, ``games.views.rules``): language code
    # -> template of the page's body, and ``() -> dict``, the context its drawings need
    # (real cards, strips, a board), built in the reader's language. Fallbacks: without
    # templates the game has no rules page (404) and no "Rules" links; a language without
    # its own body reads the one of ``settings.LANGUAGE_CODE``; no context: none.
    rules_templates: Mapping[str, str] = field(default_factory=dict)
    rules_context: Callable[[], dict] | None = None
    # What the game records of an applied move beside the move log, in the move's
    # transaction: ``(game, move, effects)`` with the engine's ``move_effects`` (Piratz: the
    # card a move buried, its own model). Fallback: nothing.
    after_move: Callable | None = None

    @property
    def name(self) -> str:
        """The game's name as players read it (the engine's ``NAME``)."""
        return self.rules.NAME


class UnknownGame(LookupError):
    """No game of that kind is in ``GAME_PACKAGES``."""


_specs: dict[str, GameSpec] | None = None


def _load() -> dict[str, GameSpec]:
    global _specs
    if _specs is None:
        specs = {}
        for path in settings.GAME_PACKAGES:
            spec = import_module(path).SPEC
            if spec.kind in specs:
                raise ValueError(f"two game packages define the kind {spec.kind!r}")
            specs[spec.kind] = spec
        _specs = specs
    return _specs


def reset() -> None:
    """Forget the loaded specs: the next lookup reads ``GAME_PACKAGES`` again (a test that
    changes the setting with ``override_settings`` or pytest-django's ``settings`` gets this
    from the ``setting_changed`` signal)."""
    global _specs
    _specs = None


@receiver(setting_changed)
def _game_packages_changed(*, setting, **kwargs):
    if setting == "GAME_PACKAGES":
        reset()


def spec_for(kind) -> GameSpec:
    """The spec of the game ``kind`` (e.g. ``"piratz"``); ``UnknownGame`` (a
    ``LookupError``) naming the kinds that exist for any other value."""
    specs = _load()
    spec = specs.get(kind) if isinstance(kind, str) else None
    if spec is None:
        raise UnknownGame(f"no game {kind!r}; available: {', '.join(kinds())}")
    return spec


def rules_for(kind) -> ModuleType:
    """The engine of the game ``kind`` (``spec_for(kind).rules``)."""
    return spec_for(kind).rules


def kinds() -> list[str]:
    """Every game's kind, sorted."""
    return sorted(_load())


def all_specs() -> list[GameSpec]:
    """Every game's spec, sorted by kind."""
    specs = _load()
    return [specs[kind] for kind in sorted(specs)]
