"""The signed link in every game email that opens the game signed in for it alone."""

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils.translation import gettext as _

from core.errors import ServiceError
from games.models import Game, GameStatus, Seat

ENTRY_SALT = "games.entry"


def game_entry_url(game: Game, user) -> str:
    """The absolute link that opens ``game`` in the browser signed in as ``user``.

    While the game is invited or active it is ``/games/<id>/enter/<token>/``: a signed,
    timestamped token naming the game, the user and their ``session_generation``
    (``read_entry_token`` checks it); its GET changes nothing and the POST from that page
    signs in for this game only (``accounts.game_scope``). Once the game has ended the
    link is the plain game page, which asks the reader to sign in.
    """
    if game.status not in (GameStatus.INVITED, GameStatus.ACTIVE):
        return settings.SITE_URL + reverse("games:game", args=[game.id])
    payload = {"g": str(game.id), "u": user.id, "s": user.session_generation}
    token = signing.dumps(payload, salt=ENTRY_SALT, compress=True)
    return settings.SITE_URL + reverse("games:enter", args=[game.id, token])


def read_entry_token(game_id, token: str):
    """The seat (with game and user) an entry link's token opens.

    Raises ``ServiceError("not_found")`` for a tampered token or one made for another game,
    and ``ServiceError("game_not_active")`` once the game has ended or when the account is
    no longer active: the link is only good while the game runs; ``ServiceError("suspended")``
    while a moderator's suspension of the player runs; ``ServiceError("link_expired")``
    ``GAME_LINK_DAYS`` after the email, or once the player signed out everywhere.
    """
    expired = ServiceError(
        "link_expired",
        _("This link has expired: game links sign in for a few days only. Sign in to play."),
    )
    try:
        data = signing.loads(token, salt=ENTRY_SALT, max_age=settings.GAME_LINK_DAYS * 86400)
        if data["g"] != str(game_id):
            raise KeyError("game")
        seat = Seat.objects.select_related("game", "user").get(game_id=game_id, user_id=data["u"])
    except signing.SignatureExpired:
        raise expired from None
    except (signing.BadSignature, Seat.DoesNotExist, KeyError, TypeError, ValueError):
        raise ServiceError("not_found", _("This link is not valid.")) from None
    assert seat.user is not None  # fetched by its user id
    # Links from before "s" was added were made at generation 0.
    if data.get("s", 0) != seat.user.session_generation:
        raise expired
    if seat.user.is_suspended():  # it signs in: no more than a login link may
        raise ServiceError(
            "suspended",
            _("A moderator has suspended your account, so this link cannot sign you in for now."),
        )
    if seat.game.status not in (GameStatus.INVITED, GameStatus.ACTIVE) or not seat.user.is_active:
        raise ServiceError(
            "game_not_active",
            _("This game has ended, so its link no longer signs you in. Sign in to see it."),
        )
    return seat
