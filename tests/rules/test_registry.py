"""The registry of rules modules by game name."""

import pytest

import games.rules
from games.rules import piratz


def test_piratz_is_registered():
    assert games.rules.available_games() == ["piratz"]
    assert games.rules.get_rules("piratz") is piratz
    assert piratz.GAME == "piratz"


@pytest.mark.parametrize("name", ["chess", "Piratz", "", None, ["piratz"]])
def test_an_unknown_game_is_a_lookup_error_naming_the_known_ones(name):
    with pytest.raises(LookupError, match="available: piratz"):
        games.rules.get_rules(name)


def test_piratz_exposes_the_whole_rules_protocol():
    for name in games.rules.REQUIRED_NAMES:
        assert hasattr(piratz, name), name
    assert issubclass(piratz.IllegalAction, ValueError)


def test_piratz_exports_the_contract_entry_points():
    contract = {"new_game", "legal_actions", "apply", "view", "timeout_action", "dump", "load"}
    assert contract | {"IllegalAction", "State"} <= set(piratz.__all__)
    assert all(hasattr(piratz, name) for name in piratz.__all__)
