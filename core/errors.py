"""The one error the game actions raise: a refused request that changed nothing."""

from django.utils.translation import pgettext_lazy


class ServiceError(Exception):
    """A request the service refuses; nothing was changed.

    ``code`` is one of the error codes of docs/api.md "Errors" (``invalid``, ``illegal_action``,
    ``not_found``, ``not_a_player``, ``not_your_turn``, ``stale_version``,
    ``game_not_active``, ``throttled``, ``suspended``, ``not_host``, ``paused``), or
    ``conflict``: the request is well formed but the current state of what it acts on
    refuses it (done already or final, nothing to undo, a limit of things reached;
    docs/api.md);
    ``detail`` is a sentence for a person, in the language active when it is raised
    (callers wrap it in ``gettext``: the request's language, docs/players.md "Languages:
    English and German").
    ``core.api.errors.STATUS_OF_CODE`` maps each to its HTTP status.
    """

    def __init__(self, code: str, detail: str):
        super().__init__(detail)
        self.code = code
        self.detail = detail


# A game's status inside an error sentence ("This game is finished."), in the reader's
# language. The English words are the status values themselves.
_STATUS_WORDS = {
    "invited": pgettext_lazy("game status in a sentence", "invited"),
    "active": pgettext_lazy("game status in a sentence", "active"),
    "finished": pgettext_lazy("game status in a sentence", "finished"),
    "cancelled": pgettext_lazy("game status in a sentence", "cancelled"),
    "aborted": pgettext_lazy("game status in a sentence", "aborted"),
}


def status_word(status: str) -> str:
    """``status`` (a ``GameStatus`` value) as a word for an error sentence, translated."""
    return str(_STATUS_WORDS.get(str(status), status))
