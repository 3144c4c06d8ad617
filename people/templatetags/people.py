"""``{% load people %}``: the player page's follow, challenge and block buttons
(``{% people_buttons player %}``, templates/games/player.html) and the game page's "Follow
this game" (``{% follow_game_button game reader_seat %}``, templates/games/game.html).

Here, not in games: games may not import people (docs/architecture.md "The floors"). The
buttons post to ``people.views``; what the reader may see follows ``people.queries``.
"""

from django import template

from games.models import Game, GameStatus
from people import queries

register = template.Library()


@register.inclusion_tag("people/_player_buttons.html", takes_context=True)
def people_buttons(context, player) -> dict:
    """Follow or unfollow, challenge, block or unblock ``player``, for a signed-in reader
    on someone else's page. No challenge where either has blocked the other: the blocked
    person sees the page as anyone would, only without that button."""
    reader = context.get("user")
    shown = (
        reader is not None
        and reader.is_authenticated
        and reader.pk != player.pk
        and player.erased_at is None
    )
    return {
        "shown": shown,
        "player": player,
        "name": player.public_name,
        "relation": queries.relation(reader, player) if shown else None,
        # An inclusion tag's template gets only what it returns: the forms need the token.
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("people/_follow_game.html", takes_context=True)
def follow_game_button(context, game: Game, reader_seat) -> dict:
    """ "Follow this game" (or "Stop following") on a public game's page, for a signed-in
    reader who holds no seat in it, while it is being played; nothing otherwise."""
    reader = context.get("user")
    shown = (
        reader is not None
        and reader.is_authenticated
        and reader_seat is None
        and game.public
        and game.status == GameStatus.ACTIVE
        and not game.seats.filter(user_id=reader.pk).exists()
    )
    return {
        "shown": shown,
        "game": game,
        "following": queries.follows_game(reader, game) if shown else False,
        "csrf_token": context.get("csrf_token"),
    }
