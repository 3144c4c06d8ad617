"""A person's games in their data export (``games.json``; ``accounts.personal_data``).

Registered in ``GamesConfig.ready``: accounts may not import games (the floors).
"""

from django.db.models import Q

from accounts.models import User
from games import queries
from games.actions.notes import notes_by_game
from games.api.representation import datetime_json, game_json
from games.api.serializers import MoveLogSerializer
from games.models import SeatChange, SeatOffer
from games.movelog import public_log


def export_games(user: User) -> list[dict]:
    """Every game ``user`` holds a seat in, oldest first, each ``{"game", "moves",
    "notes"}``: the game as ``GET /api/games/{id}/`` answers them and its log as
    ``GET .../moves/`` does, for their seat, and their private notes on it
    (``{"text", "updated_at"}``, null when none). So nothing is in it the API would not
    show them: the draw order never, and in blind mode only what rules P23 lets their seat
    see."""
    notes = notes_by_game(user)
    games = []
    for game in queries.games_of(user).order_by("created_at", "id"):
        shown = game_json(game, user)
        entries = public_log(game, shown["you"])
        games.append(
            {
                "game": shown,
                "moves": MoveLogSerializer(entries, many=True).data,
                "notes": notes.get(str(game.id)),
            }
        )
    return games


def export_substitutes(user: User) -> dict:
    """``user``'s part in substitutes (``substitutes.json``): the seats they took over or
    lost to a substitute (``{"game", "seat", "at", "took_over"}``: ``took_over`` true when
    they were the substitute; a lost seat's game is no longer among their games), and the
    offers of seats they made as host or that were made to their address (``{"game",
    "seat", "email", "offered_by_you", "status", "created_at", "expires_at"}``)."""
    changes = (
        SeatChange.objects.filter(kind=SeatChange.Kind.SUBSTITUTED)
        .filter(Q(actor_user=user) | Q(previous_user=user))
        .order_by("at", "id")
    )
    offers = SeatOffer.objects.filter(Q(offered_by=user) | Q(email=user.email)).order_by(
        "created_at", "id"
    )
    return {
        "substitutions": [
            {
                "game": str(change.game_id),
                "seat": change.seat,
                "at": datetime_json(change.at),
                "took_over": change.actor_user_id == user.pk,
            }
            for change in changes
        ],
        "seat_offers": [
            {
                "game": str(offer.game_id),
                "seat": offer.seat,
                "email": offer.email or None,
                "offered_by_you": offer.offered_by_id == user.pk,
                "status": offer.closed or "open",
                "created_at": datetime_json(offer.created_at),
                "expires_at": datetime_json(offer.expires_at),
            }
            for offer in offers
        ],
    }
