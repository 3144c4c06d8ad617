"""The registry of rules modules by game name."""

import pytest

import games.rules
from games.rules import piratz, rattenscharf


def test_piratz_and_rattenscharf_are_registered():
    assert games.rules.available_games() == ["piratz", "rattenscharf"]
    assert games.rules.get_rules("piratz") is piratz
    assert games.rules.get_rules("rattenscharf") is rattenscharf
    assert piratz.GAME == "piratz"
    assert rattenscharf.GAME == "rattenscharf"


@pytest.mark.parametrize("name", ["chess", "Piratz", "", None, ["piratz"]])
def test_an_unknown_game_is_a_lookup_error_naming_the_known_ones(name):
    with pytest.raises(LookupError, match="available: piratz, rattenscharf"):
        games.rules.get_rules(name)


@pytest.mark.parametrize("rules", [piratz, rattenscharf], ids=lambda rules: rules.GAME)
def test_every_game_exposes_the_whole_rules_protocol(rules):
    for name in games.rules.REQUIRED_NAMES:
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
