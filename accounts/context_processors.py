"""Template context every page needs about who is signed in on this browser."""

from django.http import HttpRequest

from .game_scope import scoped_games


def sign_in_state(request: HttpRequest) -> dict:
    """``game_scoped``: this browser was signed in by a game email's link, for its game only
    (the header then says so rather than "Signed in as" the whole account)."""
    return {"game_scoped": scoped_games(request) is not None}
