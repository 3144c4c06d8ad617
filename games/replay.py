"""The replay page, for any game: what a game's replay is given, and the fallback replay.

A game's own replay (``GameSpec.replay_page``) turns a ``ReplayRequest`` into its
template's context; a game without one gets ``any_game_page``: each step's move in the
game's words, and at the last step the table as the reader sees it now. Either way a
replay is built from what the reader may see only (``public_log`` entries for their
seat and their own ``Game.table_view``), never from the secret state.
"""

from dataclasses import dataclass

from games.describe import Names
from games.models import Game


@dataclass(frozen=True)
class ReplayRequest:
    """One reader's replay of a started game: the game (its seats prefetched), the reader's
    ``seat`` (None: staff), the ``moves`` (``Move`` rows, oldest first), their ``entries``
    as the reader may see them (``games.movelog.log_to_describe``), ``now`` (the reader's
    view today), the players' ``names`` and the raw ``?step=`` value (None: the last)."""

    game: Game
    seat: int | None
    moves: list
    entries: list[dict]
    now: dict
    names: Names
    step_param: str | None


def chosen_step(step_param: str | None, last: int) -> int:
    """``?step=`` as a frame number in ``0..last``; the last step when absent or not a number."""
    try:
        step = int(step_param if step_param is not None else last)
    except ValueError:
        step = last
    return min(max(step, 0), last)


def any_game_page(replay: ReplayRequest, words) -> dict:
    """The fallback replay's context (``games/any_game/replay.html``): ``step``, ``last``,
    ``frame`` (its log ``entry`` and ``next_seat``, as every replay template reads them),
    ``move`` (move ``step`` in ``words``, None for the start), ``next_name`` and, at the last
    step, ``now`` (the reader's view as ``key: value`` rows) and the ``result`` in words."""
    entries = replay.entries
    last = len(entries)
    step = chosen_step(replay.step_param, last)
    entry = entries[step - 1] if step else None
    next_seat = entries[step]["seat"] if step < last else replay.now.get("current_seat")
    context = {
        "step": step,
        "last": last,
        "frame": {"entry": entry, "next_seat": next_seat},
        "next_name": None if next_seat is None else replay.names.in_sentence(next_seat),
        "move": None
        if entry is None
        else words.describe_entry(
            entry, replay.names, replay.game.rules, history=entries[: step - 1]
        ),
        "now": None,
        "result": None,
    }
    if step == last:
        context["now"] = words.describe_table(replay.now, replay.names)
        if replay.now.get("result"):
            context["result"] = words.describe_result(replay.now["result"], replay.names)
    return context
