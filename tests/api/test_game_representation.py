"""The game's JSON, built by games.api.representation.game_json, equals what DRF makes of the
GameSerializer that documents it: key for key, in order, for every kind of game and viewer."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Vacation
from games import actions
from games.api.representation import game_json
from games.api.serializers import GameSerializer
from games.models import EndReason, Game, GameStatus
from games.queries import get_visible_game
from tests.factories import start_game

pytestmark = pytest.mark.django_db


def documented(game: Game, viewer) -> dict:
    """What DRF's own field machinery makes of the game through the documented serializer."""
    return GameSerializer(game, context={"viewer": viewer}).data


def test_game_json_equals_the_documented_serializer_for_every_kind_of_game(anna, bert, carla):
    now = timezone.now()
    Vacation.objects.create(
        user=bert, starts_at=now - timedelta(hours=1), ends_at=now + timedelta(days=2)
    )
    active = start_game([anna, bert, carla], seed=5)
    invited = actions.do_create_game(anna, [anna.email, bert.email])
    ended = start_game([anna, carla], seed=6, blind=True)
    Game.objects.filter(id=ended.id).update(
        status=GameStatus.ABORTED, end_reason=EndReason.ABANDONED, deadline=None
    )
    checked = 0
    for game_id in (active.id, invited.id, ended.id):
        for viewer in (anna, bert, carla):
            try:
                game = get_visible_game(viewer, game_id)
            except actions.ServiceError:
                continue  # carla holds no seat in the invited game
            direct = game_json(game, viewer)
            assert json.dumps(direct) == json.dumps(documented(game, viewer)), "byte for byte"
            assert list(direct) == list(GameSerializer().fields), "same keys, same order"
            checked += 1
    assert checked == 7
    on_vacation = game_json(get_visible_game(anna, active.id), anna)
    assert on_vacation["seats"][1]["on_vacation_until"] is not None
