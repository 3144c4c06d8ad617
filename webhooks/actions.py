"""The only writers of webhooks: a player adds or deletes their own for a game."""

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ServiceError, status_word
from core.outbound.transport import DeliveryError
from games.models import Game, GameStatus, Seat

from .models import WEBHOOK_POSTS, Webhook, WebhookKind
from .signing import secret_for


def do_add_webhook(game_id, user, *, kind: str, url: str) -> tuple[Webhook, str]:
    """Add a webhook of ``kind`` at ``url`` to the game for ``user``; returns it and its
    signing secret (for ``json``; the caller shows it once, it is never stored).

    Refuses (``ServiceError``, nothing changed): ``not_found`` unless ``user`` holds a seat
    (staff without one: ``not_a_player``), ``game_not_active`` once the game has ended,
    ``invalid`` for a kind or URL that is not acceptable, including one whose host
    resolves to an address that is not public (checked again at every delivery),
    ``conflict`` beyond ``WEBHOOKS_PER_GAME`` webhooks on the game.
    """
    if kind not in WebhookKind.values:
        raise ServiceError("invalid", _("Unknown webhook kind."))
    _seat_of(game_id, user)  # before the lookup: outsiders learn nothing about the URL
    try:
        # Outside the transaction: a slow DNS answer must not hold the game row's lock.
        WEBHOOK_POSTS.check_destination(url)
    except DeliveryError as error:
        raise ServiceError("invalid", str(error)) from None
    with transaction.atomic():
        # Locked so two concurrent additions cannot both pass the cap.
        game = Game.objects.select_for_update().get(id=game_id)
        if game.status not in (GameStatus.INVITED, GameStatus.ACTIVE):
            raise ServiceError(
                "game_not_active",
                _("This game is %(status)s.") % {"status": status_word(game.status)},
            )
        if Webhook.objects.filter(game=game).count() >= settings.WEBHOOKS_PER_GAME:
            raise ServiceError(
                "conflict",
                _("A game takes at most %(count)d webhooks; delete one first.")
                % {"count": settings.WEBHOOKS_PER_GAME},
            )
        webhook = Webhook.objects.create(game=game, owner=user, kind=kind, url=url)
    return webhook, secret_for(webhook.id)


def do_delete_webhook(game_id, user, webhook_id) -> None:
    """Delete ``user``'s webhook (and its deliveries, pending ones included).

    ``not_found`` when it is not theirs in that game (someone else's reads the same).
    """
    _seat_of(game_id, user)
    deleted, _count = Webhook.objects.filter(id=webhook_id, game_id=game_id, owner=user).delete()
    if not deleted:
        raise ServiceError("not_found", _("No such webhook."))


def webhooks_of(game_id, user):
    """``user``'s webhooks of the game, oldest first; ``ServiceError`` as for adding one."""
    _seat_of(game_id, user)
    return Webhook.objects.filter(game_id=game_id, owner=user).order_by("created_at", "id")


def _seat_of(game_id, user) -> Seat:
    seat = Seat.objects.filter(game_id=game_id, user=user).first()
    if seat is not None:
        return seat
    if user.is_staff and Game.objects.filter(id=game_id).exists():
        raise ServiceError("not_a_player", _("You hold no seat in this game."))
    raise ServiceError("not_found", _("No such game, or you are not a player of it."))
