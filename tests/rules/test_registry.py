"""One registry: every game of ``GAME_PACKAGES`` in the catalogue, with its engine."""

from importlib import import_module

import pytest
from django.conf import settings

import games.engine_protocol
from games import catalogue
from games.kinds.piratz import rules as piratz
from games.kinds.rattenscharf import rules as rattenscharf


def test_every_listed_game_is_in_the_catalogue_with_its_engine():
    specs = [import_module(path).SPEC for path in settings.GAME_PACKAGES]
    assert catalogue.kinds() == sorted(spec.kind for spec in specs)
    for spec in specs:
        assert catalogue.rules_for(spec.kind) is spec.rules
        assert spec.kind == spec.rules.GAME
    assert piratz.GAME == "piratz"
    assert rattenscharf.GAME == "rattenscharf"


@pytest.mark.parametrize("name", ["chess", "Piratz", "", None, ["piratz"]])
def test_an_unknown_game_is_a_lookup_error_naming_the_known_ones(name):
    with pytest.raises(LookupError, match=f"available: {', '.join(catalogue.kinds())}"):
        catalogue.rules_for(name)


def test_every_game_exposes_the_whole_rules_protocol():
    for spec in catalogue.all_specs():
        rules = spec.rules
        for name in games.engine_protocol.REQUIRED_NAMES:
            assert hasattr(rules, name), name
        assert issubclass(rules.IllegalAction, ValueError)
        assert all(isinstance(default, bool) for default in rules.OPTIONS.values())
        assert rules.PLAYER_COUNTS and all(count >= 1 for count in rules.PLAYER_COUNTS)
        assert rules.ROUNDS_TO_ABANDON >= 1


def test_what_the_service_asks_each_game():
    assert (piratz.NAME, piratz.PLAYER_COUNTS, piratz.OPTIONS) == (
        "Piratz",
        (2, 3, 4),
        {"blind": False},
    )
    assert piratz.ROUNDS_TO_ABANDON == 1  # P25: a whole round
    assert (rattenscharf.NAME, rattenscharf.PLAYER_COUNTS, rattenscharf.OPTIONS) == (
        "Rattenscharf",
        (2,),
        {},
    )
    assert rattenscharf.ROUNDS_TO_ABANDON == 2  # R36: two consecutive turns


def test_piratz_exports_the_contract_entry_points():
    contract = {"new_game", "legal_actions", "apply", "view", "timeout_action", "dump", "load"}
    assert contract | {"IllegalAction", "State"} <= set(piratz.__all__)
    assert all(hasattr(piratz, name) for name in piratz.__all__)
