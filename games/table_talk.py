"""Table talk in the games' emails, without games importing the talk app.

``talk`` sits above ``games`` (docs/architecture.md "The floors"), so the turn email and
the digest send ``talk_asked``: the talk app's ``AppConfig.ready`` connects its reader
(docs/decisions/0006-signals-between-apps.md). Without one (talk not installed) there is
no talk to tell.
"""

from typing import cast

from django.dispatch import Signal

from games.models import Game, Move

# The messages an email lists at most (the newest); it says how many earlier ones it left out.
MAX_LISTED = 20

# Sent with ``game``, ``since``, ``exclude_seat`` and ``limit``; the one receiver answers
# (messages, left_out): the newest ``limit`` messages of ``game`` written after ``since``
# (all when None) by seats other than ``exclude_seat``, oldest first, each {"name",
# "text", "hidden"} with the text "" when hidden; and how many more such messages there were.
talk_asked = Signal()


def talk_since(game: Game, seat: int) -> dict:
    """The table talk the player at ``seat`` has not been told of in a turn email: the
    others' messages since that seat's own last move (since the game began when it has
    made none), the newest ``MAX_LISTED``. ``{"messages": [...], "earlier": n}``, each
    message ``{"name", "text", "hidden"}``: plain text, for templates that escape it; a
    hidden one's text is never read out (``""``)."""
    if not talk_asked.has_listeners(Game):
        return {"messages": [], "earlier": 0}
    # Up to the game's version: a turn email composed later tells of its own turn.
    moves = Move.objects.filter(game=game, seat=seat, number__lte=game.version)
    last_own = moves.order_by("-number").first()
    since = None if last_own is None else last_own.at
    [(_reader, answer)] = talk_asked.send(
        Game, game=game, since=since, exclude_seat=seat, limit=MAX_LISTED
    )
    messages, earlier = cast(tuple[list[dict], int], answer)  # the one reader's answer
    return {"messages": messages, "earlier": earlier}
