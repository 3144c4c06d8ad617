"""Sessions opened by a game email's link: they play the games whose links opened them, and
are signed out everywhere else; a login link (or the admin's sign-in) makes them full.

A game link is in every game email, and emails get forwarded: the link must not be the
account (its settings, API key, email address, other games). So ``sign_in_for_game``
records the game in the session, and ``GameScopeMiddleware`` shows such a session as
signed out (``AnonymousUser``) on every page but those of its games: pages that need a
sign-in then ask for one by login link, as for anybody signed out.
"""

from django.conf import settings
from django.contrib.auth import login, user_logged_in
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
# The ids (as text) of the games a game-scoped session was opened for; absent: a full session.
SESSION_KEY = "game_scope"
# The pages a game-scoped session may use as its player: each names its game ``game_id``,
# which must be one the session was opened for. The game link itself (``games:enter``)
# opens any game: its token proves the holder may (``sign_in_for_game`` adds that game).
GAME_PAGES = frozenset(
    {
        "games:game",
        "games:move",
        "games:take-back",
        "games:version",
        "games:events",
        "games:replay",
        "games:verification",
        # Playing together at that table (games/views/together.py, talk/views.py). Not
        # "Play again": it creates a game in the account's name and invites by email, so
        # it asks a game link's session to sign in fully first.
        "games:resign",
        "games:pause",
        "games:resume",
        "games:extend",
        "games:hand-to-bot",
        "talk:post",
        "talk:report",
    }
)
GAME_LINK_PAGE = "games:enter"


def sign_in_for_game(request: HttpRequest, user, game_id) -> None:
    """Sign ``user`` in on this browser for the game ``game_id`` only (a game link's POST).

    The same user signed in fully stays so (and keeps their session and CSRF token, as
    ``accounts.views.sign_in`` explains); signed in through other game links, this game is
    added. Anybody else (or nobody): a new session for this game only, which ends after
    ``GAME_LINK_DAYS`` without use, however long full sign-ins last.
    """
    current = getattr(request, "user", None)
    if current is not None and current.is_authenticated and current.pk == user.pk:
        games = request.session.get(SESSION_KEY)
        if games is not None and str(game_id) not in games:
            request.session[SESSION_KEY] = [*games, str(game_id)]
        return
    login(request, user, backend=MODEL_BACKEND)
    request.session[SESSION_KEY] = [str(game_id)]
    request.session.set_expiry(settings.GAME_LINK_DAYS * 24 * 60 * 60)


def scoped_games(request: HttpRequest) -> list[str] | None:
    """The games this request's session was opened for by game links; None for a full one."""
    session = getattr(request, "session", None)
    return None if session is None else session.get(SESSION_KEY)


def _make_full(sender, request=None, **kwargs) -> None:
    """Any sign-in but a game link's makes the session full: Django's ``login()`` keeps the
    session's data when the same user signs in again (a login link, the admin's form)."""
    if request is not None and request.session.pop(SESSION_KEY, None) is not None:
        request.session.set_expiry(None)  # back to SESSION_COOKIE_AGE


user_logged_in.connect(_make_full, dispatch_uid="accounts.game_scope.make_full")


class GameScopeMiddleware:
    """A game-scoped session is its user on the pages of its games (``GAME_PAGES``) and
    game links; on every other page (settings, API, other games, the home page) it is
    ``AnonymousUser``, so nothing there acts as the account.

    After ``AuthenticationMiddleware`` (it replaces its ``request.user``) and
    ``UserLanguageMiddleware`` (the player's language still applies).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs):
        games = scoped_games(request)
        if games is None or _may_use(request, view_kwargs, games):
            return None
        anonymous = AnonymousUser()
        request.user = anonymous

        async def auser():
            return anonymous

        request.auser = auser
        return None


def _may_use(request: HttpRequest, view_kwargs: dict, games: list[str]) -> bool:
    match = request.resolver_match
    if match is None:
        return False
    if match.view_name == GAME_LINK_PAGE:
        return True
    return match.view_name in GAME_PAGES and str(view_kwargs.get("game_id")) in games
