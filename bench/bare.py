"""The bare move: the least an API write must do, served only by the benchmark's server.

``bench/api.py`` compares the project's move POST against this view, on the same
database, gunicorn and clients. It does what any move must do and nothing else: the
project's token authentication (``ApiTokenAuthentication``: one query), one row locked
(the game's version and state, ``SELECT … FOR UPDATE``), the version checked, the row
written back (the state as read, version + 1) and one log row inserted (a ``Move``) in
one transaction, answered with ``{"version": n}``. No throttle, no engine, no seats, no
emails, no serializer. It is mounted by ``bench.urls`` (``bench.settings``), never by
``piratz_site.urls``.
"""

from django.db import transaction
from django.utils import timezone
from rest_framework.decorators import (
    api_view,
    authentication_classes,
    permission_classes,
    throttle_classes,
)
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from accounts.authentication import ApiTokenAuthentication
from games.models import Game, Move


@api_view(["POST"])
@authentication_classes([ApiTokenAuthentication])
@permission_classes([IsAuthenticated])
@throttle_classes([])
def bare_move(request, game_id):
    """``{"version": n}`` -> 200 ``{"version": n + 1}``, or 409 when ``n`` is stale."""
    version = request.data.get("version") if isinstance(request.data, dict) else None
    if not isinstance(version, int):
        return Response({"code": "invalid", "detail": "version: a number"}, status=400)
    with transaction.atomic():
        row = (
            Game.objects.select_for_update()
            .filter(id=game_id)
            .values_list("version", "state", "round")
            .first()
        )
        if row is None:
            return Response({"code": "not_found", "detail": "no such game"}, status=404)
        current, state, round_number = row
        if version != current:
            return Response({"code": "stale_version", "detail": str(current)}, status=409)
        Game.objects.filter(id=game_id).update(version=current + 1, state=state)
        Move.objects.create(
            game_id=game_id,
            number=current + 1,
            round=round_number or 1,
            seat=0,
            action={"action": "bare"},
            actor_user=request.user,
            at=timezone.now(),
        )
    return Response({"version": current + 1})
