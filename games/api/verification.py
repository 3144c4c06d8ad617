"""``GET /api/games/{id}/verification/``: what anyone may need to check a game's shuffles."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.response import Response

from core.api.errors import refused
from games import actions, fairness, queries

_DESCRIPTION = (
    "A checkable shuffle (docs/shuffle.md). When the game was created "
    "the server drew a secret seed and published `commitment` = SHA-256 of "
    "`piratz-shuffle-commitment:v1:` and the seed's 32 bytes. Each player may have given a "
    "`client_seed` when accepting. The game was dealt with `key` = SHA-256 of "
    "`piratz-shuffle-key:v1:`, the number of parts, then each part (the seed, then each "
    'seat\'s client seed as ASCII, "" for none) preceded by its length as 4 big-endian '
    "bytes. Until the game has ended only `commitment`, `client_seeds` and `cubes` are "
    "given and `verified` is null. After the end: `server_seed`, `key`, the whole `log` "
    "(card ids, with the round each move was played in), every shuffle redone from the "
    "key (`shuffles`), the server's own `checks` and `verified`. `tools/verify_game.py` "
    "checks this JSON on its own, with Python's standard library only."
)


class CheckSerializer(serializers.Serializer):
    check = serializers.ChoiceField(choices=["commitment", "key", "deal", "replay"])
    passed = serializers.BooleanField()
    mismatches = serializers.JSONField(
        required=False, help_text="deal: each cube or revealed card not as the key deals it."
    )


class ClientSeedSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    client_seed = serializers.CharField(allow_null=True)


class VerificationSerializer(serializers.Serializer):
    scheme = serializers.CharField(help_text=f"`{fairness.SCHEME}`")
    game = serializers.UUIDField()
    rules = serializers.CharField()
    status = serializers.CharField()
    players = serializers.IntegerField()
    blind = serializers.BooleanField()
    commitment = serializers.CharField(
        allow_null=True, help_text="Hex; null for games older than checkable shuffles."
    )
    client_seeds = ClientSeedSerializer(many=True)
    cubes = serializers.JSONField(
        allow_null=True, help_text="The cube placement shown from the start (null before it)."
    )
    server_seed = serializers.CharField(allow_null=True, help_text="Hex; null until the end.")
    key = serializers.CharField(allow_null=True, help_text="Hex; null until the end.")
    log = serializers.JSONField(
        allow_null=True,
        help_text="Null until the end: every move, {number, round, seat, action, revealed} "
        "with `revealed` a card id or null.",
    )
    shuffles = serializers.JSONField(
        allow_null=True,
        help_text="Null until the end: the deck's order, the cube placement and each "
        "reshuffle ({label, number, cards, order}) as the key deals them.",
    )
    checks = CheckSerializer(many=True)
    verified = serializers.BooleanField(
        allow_null=True, help_text="Null while there is nothing to check yet (before the end)."
    )


@extend_schema(
    summary="Check this game's shuffle: commitment, client seeds, key and every shuffle",
    description=_DESCRIPTION,
    responses={200: VerificationSerializer},
)
@api_view(["GET"])
def verification(request, game_id):
    try:
        game = queries.get_visible_game(request.user, game_id)
    except actions.ServiceError as error:
        raise refused(error) from None
    return Response(fairness.verification(game))
