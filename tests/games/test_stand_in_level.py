"""The stand-in's level is the game's own (its engine's ``STAND_IN_LEVEL``), with one
generic fallback, its strongest level (``games.bots.stand_in_level``; docs/bots.md)."""

from types import SimpleNamespace

import pytest

from games import actions, bots
from games.actions.together import do_host_stand_in
from games.catalogue import all_specs, rules_for
from games.models import SeatChange
from lobby.forms import CreateOpenGameForm
from tests.factories import TOY_KIND, start_toy_game
from tests.toygame import rules as toy_rules


@pytest.mark.parametrize(
    ("kind", "level"),
    [("piratz", "careful"), ("rattenscharf", "careful"), (TOY_KIND, "random")],
)
def test_each_game_has_its_own_stand_in_level(toy_games, kind, level):
    assert bots.stand_in_level(rules_for(kind)) == level


def test_every_games_stand_in_is_one_of_its_bot_levels(toy_games):
    offering_bots = [spec for spec in all_specs() if bots.levels_of(spec.rules)]
    assert {spec.kind for spec in offering_bots} >= {"piratz", "rattenscharf", TOY_KIND}
    for spec in offering_bots:
        assert bots.stand_in_level(spec.rules) in bots.levels_of(spec.rules), spec.kind


def test_a_game_naming_no_stand_in_gets_its_strongest_level():
    assert not hasattr(toy_rules, "STAND_IN_LEVEL")  # the toy proves the fallback
    assert bots.stand_in_level(SimpleNamespace(BOT_LEVELS=("weak", "middling", "strong"))) == (
        "strong"
    )
    named = SimpleNamespace(BOT_LEVELS=("weak", "middling", "strong"), STAND_IN_LEVEL="weak")
    assert bots.stand_in_level(named) == "weak"


def test_a_game_without_bots_has_no_stand_in():
    assert bots.stand_in_level(SimpleNamespace()) is None
    assert bots.stand_in_level(SimpleNamespace(BOT_LEVELS=(), STAND_IN_LEVEL="x")) is None


@pytest.mark.django_db
def test_the_hosts_stand_in_plays_the_games_own_level(toy_games, anna, bert, carla):
    game = start_toy_game([anna, bert, carla])
    do_host_stand_in(game.id, anna, 2, game.version)
    assert game.seats.get(seat=2).bot == "random"
    assert SeatChange.objects.get(game=game, seat=2).level == "random"


@pytest.mark.django_db
def test_a_moderators_stand_in_defaults_to_the_games_own_level(toy_game, moderator):
    actions.do_replace_with_bot(toy_game.id, moderator, 1, reason="Away for weeks")
    assert toy_game.seats.get(seat=1).bot == "random"


@pytest.mark.django_db
def test_an_open_games_bots_without_a_level_play_the_games_stand_in_level(toy_games):
    form = CreateOpenGameForm(
        {"game": TOY_KIND, "seats": "3", "bots": "1", "turn_hours": "24", "rating_rule": "any"}
    )
    assert form.is_valid(), form.errors
    assert form.action_arguments()["bots"] == ["random"]
