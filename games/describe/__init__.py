"""Games in words, for the emails and pages players read: one module per game, by kind.

``words_for(kind)`` is the one lookup: the game's ``GameSpec.words`` (``games.kinds.piratz.words``,
``games.kinds.rattenscharf.words``), or ``games.describe.generic`` for a game without words of
its own. Each such module works on what a player may see (the engine's
``view`` and public move-log entries) and offers the same names. An entry may carry one
key the public log (and the API) has not, ``actor`` (``Move.actor``): callers that read the
``Move`` rows add it, so an automatic move a moderator forced is told as theirs (never who
they were) and not as one the deadline brought; without it, an automatic move is told as
the deadline's.

- ``ABANDONED``: why an abandoned game ended (P25, R36), for the ``end_reason`` template filter;
- ``NEEDS_HISTORY``: whether ``describe_entry`` needs the entries before the one described;
- ``describe_entry(entry, names, rules, *, history=(), rat_alert=False)``: one entry as a
  sentence (``history``: every earlier entry, oldest first);
- ``describe_moves(entries, names, rules, *, since=0, rounds=None, current_round=None)``:
  the recap, sentences for the entries after move ``since`` (``entries``: the whole log);
- ``describe_table(view, names)`` and ``describe_result(result, names)``: template-ready
  words for the emails (drawn by ``templates/emails/<game>/_table.txt|html`` and
  ``_result.txt|html``, which every game's email includes by the game's name);
- ``describe_auto_moved(entries, table_before, names, rules, *, hidden)``: what a timed-out
  turn's automatic moves did (``moves``: a sentence each; ``details``: sentences after
  them, e.g. the cards taken or the points scored);
- ``email_notes(**options)``: the game's own sentences in the emails, which are one set
  for every game (``templates/emails/<kind>/``), for a game with these options
  (``Game.rules_options``): ``deadline`` (what happens when the deadline passes, after
  "Play before <deadline>;"), ``reply`` (how to reply with a move), ``auto_moved`` (after
  "so the service"), ``abandon`` (when a game is abandoned), ``abandon_stand_in`` (the
  same with stand-in bots on: bots take the seats instead), ``abandoned`` (why this one
  was), ``digest`` (a sentence on deadlines), ``stand_in_abandonment`` (a bot stands in
  instead of abandonment; ``%(others)s`` and ``%(level)s`` filled in by the caller) and
  ``setup`` (lines about the options, for the invitation and the start);
- ``chat_title(short_id)`` and ``result_line(result, names)``: webhook posts.

Every text is in the active language (``gettext``): callers writing to someone else,
such as the emails, compose under ``translation.override(language_of(reader))``.
"""

from types import ModuleType

from games import catalogue

from . import generic
from .common import Names, format_moment

__all__ = ["Names", "format_moment", "words_for"]


def words_for(kind: str) -> ModuleType:
    """The words module of the game ``kind`` (its spec's ``words``, else the generic words);
    ``games.catalogue.UnknownGame`` for a kind no game has."""
    words = catalogue.spec_for(kind).words
    if words is None:
        return generic
    return words
