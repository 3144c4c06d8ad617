"""The verification page says why there is nothing to check: an old game, or a game whose
rules deal no checkable shuffle (Rattenscharf)."""

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.factories import start_game

pytestmark = pytest.mark.django_db


def page(user, game) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(reverse("games:verification", args=[game.id]))
    assert response.status_code == 200
    return response.content.decode()


def test_a_rattenscharf_game_has_no_checkable_shuffle_to_check(anna, bert):
    game = start_game([anna, bert], game="rattenscharf")
    text = page(anna, game)
    assert "Rattenscharf deals no checkable shuffle here" in text
    assert "none: this game has no checkable shuffle" in text
    assert "older than checkable shuffles" not in text


def test_a_piratz_game_without_a_commitment_is_older_than_checkable_shuffles(anna, bert):
    game = start_game([anna, bert])
    Game.objects.filter(id=game.id).update(seed_commitment="", server_seed="")
    text = page(anna, game)
    assert "This game is older than checkable shuffles" in text
    assert "deals no checkable shuffle" not in text
