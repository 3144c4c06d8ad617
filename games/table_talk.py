"""Table talk in the games' emails, without games importing the talk app.

``talk`` sits above ``games`` (docs/architecture.md "The floors"), so the turn email and
the digest ask this registry: the talk app's ``AppConfig.ready`` registers its reader
(``register_reader``). Without one (talk not installed) there is no talk to tell.
"""

from collections.abc import Callable
from datetime import datetime

from games.models import Game, Move

# The messages an email lists at most (the newest); it says how many earlier ones it left out.
MAX_LISTED = 20

# reader(game, since, exclude_seat, limit) -> (messages, left_out): the newest ``limit``
# messages of ``game`` written after ``since`` (all when None) by seats other than
# ``exclude_seat``, oldest first, each {"name", "text", "hidden"} with the text "" when
# hidden; and how many more such messages there were.
Reader = Callable[[Game, datetime | None, int, int], tuple[list[dict], int]]
_readers: list[Reader] = []


def register_reader(reader: Reader) -> None:
    """Make ``reader`` the one ``talk_since`` asks (the talk app's ``ready()``; again
    with the same reader changes nothing)."""
    _readers[:] = [reader]


def talk_since(game: Game, seat: int) -> dict:
    """The table talk the player at ``seat`` has not been told of in a turn email: the
    others' messages since that seat's own last move (since the game began when it has
    made none), the newest ``MAX_LISTED``. ``{"messages": [...], "earlier": n}``, each
    message ``{"name", "text", "hidden"}``: plain text, for templates that escape it; a
    hidden one's text is never read out (``""``)."""
    if not _readers:
        return {"messages": [], "earlier": 0}
    # Up to the game's version: a turn email composed later tells of its own turn.
    moves = Move.objects.filter(game=game, seat=seat, number__lte=game.version)
    last_own = moves.order_by("-number").first()
    messages, earlier = _readers[0](
        game, None if last_own is None else last_own.at, seat, MAX_LISTED
    )
    return {"messages": messages, "earlier": earlier}
