"""The signed invitation links: a token naming one seat of one game, and reading it back."""

from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.utils.translation import gettext as _

from core.errors import ServiceError
from games.models import Game, Seat

INVITATION_SALT = "games.invitation"


def invitation_token(game: Game, seat: Seat) -> str:
    """A signed token naming one seat of one game; it proves the holder got the invitation."""
    return signing.dumps({"g": str(game.id), "u": seat.user_id}, salt=INVITATION_SALT)


def read_invitation_token(token: str) -> tuple[Game, Seat]:
    """The game and seat a token names; ``ServiceError("not_found")`` if tampered or expired."""
    try:
        data = signing.loads(
            token, salt=INVITATION_SALT, max_age=timedelta(days=settings.INVITATION_DAYS + 1)
        )
        seat = Seat.objects.select_related("game", "user").get(game_id=data["g"], user_id=data["u"])
    except (signing.BadSignature, Seat.DoesNotExist, KeyError, TypeError, ValueError):
        raise ServiceError(
            "not_found", _("This invitation link is not valid or has expired.")
        ) from None
    return seat.game, seat
