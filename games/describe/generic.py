"""Words for a game without its own (the fallback of ``GameSpec.words``).

The same names as every game's words module (``games.describe``), told from what any
game has: a log entry's action dict as it was written and the keys of the reader's view.
Plain, but true, and never more than the reader's view and public log hold.
"""

import json

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from .common import Names, automatic_note, is_resignation, resigned_sentence

ABANDONED = pgettext_lazy("why a game ended", "every move of the last rounds was automatic")
NEEDS_HISTORY = False  # an action dict says all this module tells


def value_text(value) -> str:
    """A JSON value as text: strings as they are, the rest as compact JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def action_text(action: dict) -> str:
    """An action dict as written: ``"mark (cell 4)"``; its kind alone without other keys."""
    kind = value_text(action.get("action", "?"))
    fields = ", ".join(f"{key} {value_text(v)}" for key, v in action.items() if key != "action")
    return f"{kind} ({fields})" if fields else kind


def describe_entry(entry: dict, names: Names, rules=None, *, history=(), rat_alert=False) -> str:
    """One public log entry: who played which action, and whether it was automatic."""
    if is_resignation(entry["action"]):
        return resigned_sentence(entry, names)
    text = _("%(name)s played %(action)s.") % {
        "name": names.subject(entry["seat"]),
        "action": action_text(entry["action"]),
    }
    if entry.get("automatic"):
        text += " " + automatic_note(entry, _("(Played automatically by a moderator.)"))
    return text


def describe_moves(
    entries: list[dict], names: Names, rules=None, *, since=0, rounds=None, current_round=None
) -> list[str]:
    """A sentence for each entry after move ``since``."""
    return [describe_entry(entry, names) for entry in entries if entry["number"] > since]


def describe_auto_moved(
    entries: list[dict], table_before, names: Names, rules=None, *, hidden: bool
) -> dict:
    """The automatic moves of a timed-out turn, a sentence each; nothing more to say."""
    return {"moves": describe_moves(entries, names), "details": []}


def _rows(data: dict, left_out=()) -> list[dict]:
    return [
        {"key": key, "value": value_text(value)}
        for key, value in data.items()
        if key not in left_out
    ]


def describe_table(view: dict, names: Names) -> dict:
    """The reader's view as ``rows`` of ``key`` and ``value`` (the legal actions and the
    result left out: the page offers the one, ``describe_result`` tells the other)."""
    return {"rows": _rows(view, left_out=("game", "legal_actions", "result"))}


def describe_result(result: dict, names: Names) -> dict:
    """The result: the ``winners`` by name and the rest as ``rows``."""
    winners = [names.name(seat) for seat in result.get("winners", [])]
    return {"winners": winners, "rows": _rows(result, left_out=("winners",))}


def email_notes(**options) -> dict:
    """The emails' game sentences, said of any game (``games.describe``: ``email_notes``)."""
    return {
        "deadline": _("after that the service plays for you"),
        "reply": _("Or reply to this email with your move on the first line."),
        "auto_moved": _("played for you"),
        "abandon": _("If every move of a game's rounds is played automatically, the game ends."),
        "abandon_stand_in": _(
            "If every move of a game's rounds is played automatically, bots take over the seats."
        ),
        "abandoned": _("no player moved in time, so the game counts as abandoned."),
        "digest": _("When a deadline passes, the service plays for you."),
        "stand_in_abandonment": _(
            "in your game with %(others)s no player moved in time. Instead of ending the "
            "game, a %(level)s bot now plays your seat."
        ),
        "setup": [],
    }


def chat_title(short_id: str) -> str:
    """A chat post's title (webhooks)."""
    return _("Game %(id)s") % {"id": short_id}


def result_line(result: dict, names: Names) -> str:
    """A finished game's outcome in one sentence (webhooks)."""
    winners = ", ".join(names.name(seat) for seat in result.get("winners", []))
    return _("The game is over. Won by: %(winners)s.") % {"winners": winners}
