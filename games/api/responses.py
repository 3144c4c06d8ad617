"""The API's answer with one game: what every endpoint that changes or shows a game returns."""

from rest_framework import status
from rest_framework.response import Response

from games import queries
from games.api.representation import game_json


def game_response(request, game, status_code: int = status.HTTP_200_OK) -> Response:
    """``game`` as ``request.user`` may see it (``game_json``), with ``status_code``.

    Re-reads the game with its seats prefetched: one query for seats and users, whatever
    the caller loaded; a game the user may no longer see raises ``Game.DoesNotExist``.
    """
    game = queries.games_visible_to(request.user).get(id=game.id)
    return Response(game_json(game, request.user), status=status_code)
