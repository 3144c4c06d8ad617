"""The game's JSON, from GameSerializer's planned representation, equals DRF's generic output."""

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework import serializers

from accounts.models import Vacation
from games import actions
from games.api.serializers import GameSerializer, PlannedRepresentation
from games.models import EndReason, Game, GameStatus
from games.queries import get_visible_game
from tests.factories import start_game

pytestmark = pytest.mark.django_db


def generic(game: Game, viewer, monkeypatch) -> dict:
    """What DRF's own field machinery makes of the game, seats included."""
    with monkeypatch.context() as patch:
        patch.setattr(
            PlannedRepresentation, "to_representation", serializers.Serializer.to_representation
        )
        serializer = GameSerializer(game, context={"viewer": viewer})
        return serializers.ModelSerializer.to_representation(serializer, game)


def test_direct_representation_equals_drfs_for_every_kind_of_game(anna, bert, carla, monkeypatch):
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
            direct = GameSerializer(game, context={"viewer": viewer}).data
            assert direct == generic(game, viewer, monkeypatch)
            assert list(direct) == list(GameSerializer().fields), "same keys, same order"
            checked += 1
    assert checked == 7
    on_vacation = GameSerializer(get_visible_game(anna, active.id), context={"viewer": anna}).data
    assert on_vacation["seats"][1]["on_vacation_until"] is not None
