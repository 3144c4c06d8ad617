"""``{% own_game_note game as note %}``: the reader's private notes on the game for the
table's "My notes" panel (templates/games/_private_notes.html); only ever their own."""

from django import template

from accounts.game_scope import scoped_games
from games.models import GameNote

register = template.Library()


@register.simple_tag(takes_context=True)
def own_game_note(context, game) -> dict:
    """``{"text", "updated_at", "max_length", "game_link"}`` of the signed-in reader's note
    on ``game`` (empty text and None when they have none). The page shows the panel only
    to a reader with a seat (``reader_seat``), the same people ``games.actions.notes`` lets
    write one.

    ``game_link``: the session was opened by a game email's link (``accounts.game_scope``),
    which may have been forwarded: it plays the game but is not its player, so it is shown
    no notes (and may not save any: ``games:notes`` is not one of its pages)."""
    request = context["request"]
    user = request.user
    game_link = scoped_games(request) is not None
    note = None
    if user.is_authenticated and not game_link:
        note = GameNote.objects.filter(game=game, user=user).first()
    return {
        "text": note.text if note else "",
        "updated_at": note.updated_at if note else None,
        "max_length": GameNote.MAX_LENGTH,
        "game_link": game_link,
    }
