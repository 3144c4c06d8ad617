"""The bare move: the least an API write must do, served only by the benchmark's server.

``bench/api.py`` compares the project's move POST against this view, on the same
database, gunicorn and clients: the floor every request of this stack pays, so a bound
on what any cut of the move's own work can reach (decision 0009, "Where the gap is"). It
does what any move must do and nothing else, each the cheapest way this stack offers:
the project's token authentication (``ApiTokenAuthentication``: one query) and its
throttles (the project's defaults, as for a move: one Redis round trip), one row locked
(the game's version, state and round, ``SELECT … FOR UPDATE``), the version checked, the
row written back (the state as read, version + 1) and one log row inserted (a ``Move``),
in one transaction, in SQL written out (no ORM compiling, as the move's own writes,
``core.sql``), answered with ``{"version": n}``. No engine, no seats, no emails, no
serializer. It is mounted by ``bench.urls`` (``bench.settings``), never by
``piratz_site.urls``.
"""

from django.db import connections, router, transaction
from django.utils import timezone
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from accounts.authentication import ApiTokenAuthentication
from core import sql
from games.models import Actor, Game, Move


@api_view(["POST"])
@authentication_classes([ApiTokenAuthentication])
@permission_classes([IsAuthenticated])
def bare_move(request, game_id):
    """``{"version": n}`` -> 200 ``{"version": n + 1}``, or 409 when ``n`` is stale."""
    version = request.data.get("version") if isinstance(request.data, dict) else None
    if not isinstance(version, int):
        return Response({"code": "invalid", "detail": "version: a number"}, status=400)
    connection = connections[router.db_for_write(Game)]
    games = sql.table(Game, connection)

    def column(model, name: str) -> str:  # unqualified, as SET names them
        return connection.ops.quote_name(model._meta.get_field(name).column)

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {column(Game, 'version')}, {column(Game, 'state')}, {column(Game, 'round')}"
            f" FROM {games} WHERE {column(Game, 'id')} = %s FOR UPDATE",
            [game_id],
        )
        row = cursor.fetchone()
        if row is None:
            return Response({"code": "not_found", "detail": "no such game"}, status=404)
        current, state, round_number = row
        if version != current:
            return Response({"code": "stale_version", "detail": str(current)}, status=409)
        cursor.execute(
            f"UPDATE {games} SET {column(Game, 'version')} = %s, {column(Game, 'state')} = %s"
            f" WHERE {column(Game, 'id')} = %s",
            [current + 1, state, game_id],
        )
        # The log row as the move writes its own (core.sql.insert: each field's own
        # conversion, one INSERT).
        sql.insert(
            Move(
                game_id=game_id,
                number=current + 1,
                round=round_number or 1,
                seat=0,
                action={"action": "bare"},
                actor=Actor.PLAYER,
                actor_user_id=request.user.pk,
                at=timezone.now(),
            )
        )
    return Response({"version": current + 1})
