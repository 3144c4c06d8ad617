"""Fixtures of people's tests: public toy games and their followers."""

import pytest
from django.test import TestCase

from games import actions
from games.models import Game
from tests.factories import TOY_KIND


def start_public_toy_game(host, other) -> Game:
    """A public tic-tac-toe game of ``host`` and ``other``, started by ``other``'s
    acceptance (so ``game_started`` is sent for a public game), on-commit work run."""
    game = actions.do_create_game(host, [host.email, other.email], game=TOY_KIND)
    Game.objects.filter(pk=game.pk).update(public=True)
    with TestCase.captureOnCommitCallbacks(execute=True):
        actions.do_accept_invitation(game.id, other)
    return Game.objects.get(pk=game.pk)


@pytest.fixture
def public_game(toy_games, anna, bert) -> Game:
    """An active public tic-tac-toe game: Anna (X) to move against Bert."""
    return start_public_toy_game(anna, bert)
