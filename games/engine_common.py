"""What every rules package shares: the shape of ``IllegalAction`` and a bot's checked
choice. Pure Python like the packages that use it; it is not a game (``games.catalogue``
lists those)."""

from collections.abc import Callable


class IllegalActionBase(ValueError):
    """An action that is malformed or not legal now; ``code`` is a key of the subclass's
    ``ERROR_CODES`` (each game defines its own subclass and catalogue).

    Raised before anything is computed for the next state, so the state passed in is
    always untouched.
    """

    ERROR_CODES: dict[str, str] = {}

    def __init__(self, code, message):
        if code not in self.ERROR_CODES:
            raise ValueError(f"unknown IllegalAction code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message

    def __reduce__(self):
        # Keeps the exception picklable (e.g. across Celery or multiprocessing).
        return (self.__class__, (self.code, self.message))


def checked_bot_choice(view: dict, level: str, levels, choose: Callable[[list], dict]) -> dict:
    """The registry's bot contract around a game's own policy: ``choose(legal)`` picks for
    a known ``level`` from the view's legal actions; the result is a fresh dict that is one
    of them. ``ValueError`` for an unknown level or a view without legal actions."""
    if level not in levels:
        raise ValueError(f"unknown bot level {level!r}; levels: {', '.join(levels)}")
    legal = view["legal_actions"]
    if not legal:
        raise ValueError("the view has no legal actions: it is not this seat's move")
    action = choose(legal)
    # Never hand back an action the view does not list (e.g. a policy bug): the service
    # would reject it and the bot's seat would stall.
    if action not in legal:
        raise AssertionError(f"bot chose {action!r}, which is not legal here")
    return dict(action)
