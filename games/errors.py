"""The one error the game actions raise: a refused request that changed nothing."""


class GameError(Exception):
    """A request the service refuses; nothing was changed.

    ``code`` is one of CONTRACT.md's error codes (``invalid``, ``illegal_action``,
    ``not_found``, ``not_a_player``, ``not_your_turn``, ``stale_version``,
    ``game_not_active``, ``throttled``); ``detail`` is a sentence for a person.
    ``games.api.errors.STATUS_OF_CODE`` maps each to its HTTP status.
    """

    def __init__(self, code: str, detail: str):
        super().__init__(detail)
        self.code = code
        self.detail = detail
