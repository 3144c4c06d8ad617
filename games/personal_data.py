"""A person's games in their data export (``games.json``; ``accounts.personal_data``).

Registered in ``GamesConfig.ready``: accounts may not import games (the floors).
"""

from accounts.models import User
from games import queries
from games.actions.notes import notes_by_game
from games.api.representation import game_json
from games.api.serializers import MoveLogSerializer
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
