"""What a placement would do, read from the public view alone (R20, R22): for the table page.

Only the board is needed (the view's ``placements``), never the draw order, so a preview
shows nothing the view does not. Pure, like the rest of the package.
"""

from .board import lay, legal_windows
from .engine import event_dict
from .state import board_of


def preview(board, action):
    """What laying ``action`` (R28's dict; its legality already known) on ``board`` gives:

    ``{"points": [red, green], "rats": [red, green], "scoring": [event, ...]}``: the
    points each seat would score at once (R20, whoever lays it), the visible rats of each
    colour afterwards (R22), and the groups that would score, as in ``last_scoring``.
    """
    after, _level, events = lay(
        board, action["strip"], action["x"], action["y"], action["orientation"], action["flip"]
    )
    points = [0, 0]
    for seat, _spice, _cells, value in events:
        points[seat] += value
    return {
        "points": points,
        "rats": list(after.rats),
        "scoring": [event_dict(e) for e in events],
    }


def previews(view):
    """``preview`` for each of the view's ``legal_actions``, in their order (R29).

    The legal windows are the same for every strip and flip (R29), so the board is built
    once; each preview lays one strip on it.
    """
    actions = view["legal_actions"]
    if not actions:
        return []
    board = board_of(view)
    legal_windows(board)  # one pass over the board, cached on it
    return [preview(board, action) for action in actions]
