"""``{% player_ratings player %}``: a person's ratings with their history, for the player
page (templates/games/player.html). Here, not in games: games may not import ratings
(docs/architecture.md "The floors")."""

from django import template

from games.catalogue import kinds, rules_for

from .. import service
from ..models import DISPLAY_CENTRE, PROVISIONAL_GAMES

register = template.Library()

# The player page shows this many of each game's latest changes (the API: service.HISTORY).
PAGE_HISTORY = 10


@register.inclusion_tag("ratings/_player_ratings.html")
def player_ratings(player) -> dict:
    """The ratings section of ``player``'s page: one entry per game they played rated."""
    entries = [
        {
            "rating": rating,
            "name": rules_for(rating.kind).NAME if rating.kind in kinds() else rating.kind,
            "history": history,
        }
        for rating, history in service.ratings_of(player, history=PAGE_HISTORY)
    ]
    return {
        "entries": entries,
        "player": player,
        "centre": DISPLAY_CENTRE,
        "provisional_games": PROVISIONAL_GAMES,
    }
