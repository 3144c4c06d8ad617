"""``manage.py simulate`` and each game's self-play (``<game>/simulation.py``): random
self-play and its statistics."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games import simulation
from games.kinds.piratz import rules as piratz
from games.kinds.piratz.simulation import GameRecord, SimulationStats, play_random_game, simulate
from games.kinds.rattenscharf.simulation import play_rattenscharf_game

TIMING_KEYS = {"elapsed_seconds", "games_per_second"}


class TerminalIO(StringIO):
    """A stderr that claims to be a terminal, so tqdm draws its bar."""

    def isatty(self) -> bool:
        return True


def run(*args, stderr=None, **options) -> str:
    out = StringIO()
    call_command("simulate", *args, stdout=out, stderr=stderr or StringIO(), **options)
    return out.getvalue()


def run_json(*args) -> dict:
    return json.loads(run(*args, "--json"))


def without_timing(summary: dict) -> dict:
    return {key: value for key, value in summary.items() if key not in TIMING_KEYS}


def test_simulate_prints_the_statistics():
    stderr = StringIO()
    out = run("--games", "12", "--players", "3", "--seed", "5", stderr=stderr)
    for label in (
        "Games played:        12 with 3 players",
        "Seed:                5;",
        "Moves per game:      mean",
        "Rounds per game:     mean",
        "Rat alerts per game: mean",
        "a shared victory counts as a win for every winner",
        "  seat 0:",
        "  seat 2:",
        "Shared victories:",
        "Average score:",
        "games/s",
    ):
        assert label in out
    assert "seat 3" not in out
    # StringIO is not a terminal: tqdm's disable=None keeps the bar away.
    assert stderr.getvalue() == ""


def test_same_seed_gives_the_same_statistics():
    first = run_json("--games", "15", "--seed", "42")
    second = run_json("--games", "15", "--seed", "42")
    assert without_timing(first) == without_timing(second)
    other = run_json("--games", "15", "--seed", "43")
    assert without_timing(other) != without_timing(first)


def test_without_a_seed_the_printed_random_seed_repeats_the_run():
    first = run_json("--games", "5", "--players", "2")
    assert isinstance(first["seed"], int)
    again = run_json("--games", "5", "--players", "2", "--seed", str(first["seed"]))
    assert without_timing(again) == without_timing(first)
    assert "--seed" in run("--games", "1")  # the text output says how to repeat it


def test_json_output_parses_and_adds_up():
    summary = run_json("--games", "30", "--players", "4", "--seed", "9", "--blind")
    assert summary["games"] == 30 and summary["players"] == 4 and summary["blind"] is True
    assert summary["seed"] == 9 and summary["reveal_bias"] == 0.7
    assert set(TIMING_KEYS) <= set(summary)
    for key in ("moves_per_game", "rounds_per_game", "rat_alerts_per_game"):
        spread = summary[key]
        assert spread["min"] <= spread["mean"] <= spread["max"]
    wins = [row["wins"] for row in summary["wins_by_seat"]]
    assert [row["seat"] for row in summary["wins_by_seat"]] == [0, 1, 2, 3]
    # Every game has a winner; each shared victory adds one extra win per extra winner.
    shared = summary["shared_victories"]["games"]
    assert 30 + shared <= sum(wins) <= 30 + 3 * shared
    by_seat = summary["average_score_by_seat"]
    assert summary["average_score"] == pytest.approx(sum(by_seat) / 4, abs=0.01)


def test_statistics_match_the_games_played_one_by_one():
    summary = run_json("--games", "4", "--players", "2", "--seed", "100")
    records = [play_random_game(2, seed=100 + i) for i in range(4)]
    moves = [record.moves for record in records]
    assert summary["moves_per_game"] == {
        "mean": round(sum(moves) / 4, 3),
        "min": min(moves),
        "max": max(moves),
    }
    assert summary["rounds_per_game"]["max"] == max(record.rounds for record in records)


@pytest.mark.parametrize(
    "args",
    [
        ("--players", "5"),
        ("--players", "1"),
        ("--games", "0"),
        ("--games", "-3"),
        ("--games", "many"),
        ("--reveal-bias", "1.5"),
        ("--reveal-bias", "-0.1"),
        ("--reveal-bias", "nan"),
        ("--seed", "x"),
    ],
)
def test_bad_options_are_refused(args):
    with pytest.raises(CommandError):
        run(*args)


@pytest.mark.parametrize("options", [{"games": 0}, {"players": 5}, {"reveal_bias": 2.0}])
def test_bad_options_passed_as_keywords_are_refused(options):
    # call_command(**options) bypasses argparse's type and choices checks.
    with pytest.raises(CommandError):
        run(**options)


def test_progress_bar_goes_to_a_terminal_stderr_unless_switched_off():
    stderr = TerminalIO()
    out = run("--games", "3", "--seed", "1", stderr=stderr)
    assert "3/3" in stderr.getvalue()
    assert "3/3" not in out
    quiet = TerminalIO()
    run("--games", "3", "--seed", "1", "--no-progress", stderr=quiet)
    assert quiet.getvalue() == ""


def test_a_game_that_never_ends_is_an_error_not_a_hang(monkeypatch):
    monkeypatch.setattr(simulation, "MAX_MOVES_PER_GAME", 10)
    with pytest.raises(CommandError, match="did not end in 10 moves"):
        run("--games", "1", "--seed", "1")


def test_random_game_is_reproducible_and_reaches_the_end():
    record = play_random_game(3, seed=8, reveal_bias=0.5)
    assert record == play_random_game(3, seed=8, reveal_bias=0.5)
    assert len(record.scores) == 3 and record.winners
    assert max(record.scores) == record.scores[record.winners[0]]
    assert record.rounds >= 1 and record.moves > 0


def test_rat_alerts_are_the_reveals_that_put_a_second_rat_face_up(monkeypatch):
    rats_after_reveals = []
    engine_apply = piratz.apply

    def recording_apply(state, seat, action):
        after = engine_apply(state, seat, action)
        if action["action"] == "reveal":
            rats_after_reveals.append(sum(piratz.card(c)["rat"] for c in after.face_up))
        return after

    monkeypatch.setattr(piratz, "apply", recording_apply)
    # Full reveal bias: players push until a rat alert stops them, so alerts are many.
    record = play_random_game(4, seed=3, reveal_bias=1.0)
    assert record.rat_alerts == rats_after_reveals.count(2) > 0


def test_shared_victory_counts_as_a_win_for_each_winner():
    stats = SimulationStats(3)
    stats.add(GameRecord(moves=10, rounds=2, rat_alerts=1, scores=(5, 5, 2), winners=(0, 1)))
    stats.add(GameRecord(moves=20, rounds=4, rat_alerts=0, scores=(1, 2, 9), winners=(2,)))
    summary = stats.summary()
    assert [row["wins"] for row in summary["wins_by_seat"]] == [1, 1, 1]
    assert [row["percent"] for row in summary["wins_by_seat"]] == [50.0, 50.0, 50.0]
    assert summary["shared_victories"] == {"games": 1, "percent": 50.0}
    assert summary["moves_per_game"] == {"mean": 15.0, "min": 10, "max": 20}
    assert summary["rat_alerts_per_game"] == {"mean": 0.5, "min": 0, "max": 1}
    assert summary["average_score_by_seat"] == [3.0, 3.5, 5.5]
    assert summary["average_score"] == 4.0


def test_summary_of_no_games_is_refused():
    with pytest.raises(ValueError, match="no games"):
        SimulationStats(2).summary()


@pytest.mark.parametrize(
    "options",
    [{"games": 0}, {"players": 1}, {"players": 5}, {"reveal_bias": -0.5}],
)
def test_simulate_function_checks_its_arguments(options):
    arguments = {"games": 1, "players": 2, "seed": 1, **options}
    with pytest.raises(ValueError, match="must be"):
        simulate(arguments.pop("games"), arguments.pop("players"), **arguments)


def test_simulate_reports_each_game_as_it_finishes():
    seen = []
    stats = simulate(3, 2, seed=11, on_game=seen.append)
    assert stats.games == 3 and len(seen) == 3
    assert seen[0] == play_random_game(2, seed=11)


# --- Rattenscharf (--game rattenscharf) -------------------------------------------------------


def test_rattenscharf_prints_rat_losses_scores_and_ties_per_seat():
    out = run("--game", "rattenscharf", "--games", "4", "--seed", "5", "--policy", "careful")
    for label in (
        "Games played:        4 of Rattenscharf; seat 0 plays careful, seat 1 plays careful",
        "Seed:                5;",
        "Lost to rats:",
        "  seat 0 (red):",
        "  seat 1 (green):",
        "Completed:",
        "Ties:",
        "Wins by seat:",
        "Scores of completed games:",
        "mean     sd   min     q1  median     q3   max",
        "  both together",
        "Turns per game:      mean",
        "Moves per game:      mean",
        "Table reached:",
        "games/s",
    ):
        assert label in out
    assert "Rat alerts" not in out and "reveal bias" not in out  # Piratz's lines


def test_rattenscharf_json_adds_up():
    summary = run_json(
        "--game", "rattenscharf", "--games", "12", "--seed", "3", "--policy", "careful", "random"
    )
    assert summary["game"] == "rattenscharf" and summary["policies"] == ["careful", "random"]
    games = summary["games"]
    complete, rats = summary["complete"]["games"], summary["rat_losses"]["games"]
    assert games == 12 == complete + rats
    by_seat = summary["rat_losses_by_seat"]
    assert sum(row["games"] for row in by_seat) == rats
    # R23: the other seat wins a rat loss; R26: a tie is a win for both.
    wins = summary["wins_by_seat"]
    assert sum(row["wins"] for row in wins) == games + summary["ties"]["games"]
    assert [row["by_rats"] for row in wins] == [by_seat[1]["games"], by_seat[0]["games"]]
    # Uniform random play loses to its own rats (R22) far more often than careful play.
    assert by_seat[1]["games"] > by_seat[0]["games"]
    for scores in [*summary["scores_by_seat"], summary["scores_together"]]:
        if scores is not None:
            values = [scores[key] for key in ("min", "q1", "median", "q3", "max")]
            assert values == sorted(values) and scores["sd"] >= 0
    for key in ("turns_per_game", "moves_per_game", "extent"):
        spread = summary[key]
        assert spread["min"] <= spread["mean"] <= spread["max"]
    assert summary["turns_per_game"]["max"] <= 22  # R18


def test_rattenscharf_statistics_match_the_games_played_one_by_one():
    summary = run_json(
        "--game", "rattenscharf", "--games", "3", "--seed", "40", "--policy", "timeout"
    )
    records = [play_rattenscharf_game(("timeout", "timeout"), seed=40 + i) for i in range(3)]
    assert summary["policies"] == ["timeout", "timeout"]  # one policy plays both seats
    complete = [r for r in records if r.reason == "complete"]
    assert summary["complete"]["games"] == len(complete)
    if complete:
        assert summary["scores_by_seat"][0]["max"] == max(r.scores[0] for r in complete)
    assert summary["moves_per_game"]["max"] == max(r.moves for r in records)
    assert summary["turns_per_game"]["min"] == min(r.turns for r in records)
    again = run_json(
        "--game", "rattenscharf", "--games", "3", "--seed", "40", "--policy", "timeout"
    )
    assert without_timing(again) == without_timing(summary)


def test_rattenscharf_defaults_to_strong_bots():
    summary = run_json("--game", "rattenscharf", "--games", "1", "--seed", "2")
    assert summary["policies"] == ["strong", "strong"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "3"], "Rattenscharf is for 2 players"),
        (["--blind"], r"--blind is for Piratz \(--game piratz\), not Rattenscharf\."),
        (["--reveal-bias", "0.5"], "--reveal-bias is for Piratz"),
        (["--policy", "genius"], "unknown policy genius"),
        (["--policy", "random", "careful", "strong"], "one policy or one per seat"),
    ],
)
def test_rattenscharf_refuses_piratz_options_and_unknown_policies(args, message):
    with pytest.raises(CommandError, match=message):
        run("--game", "rattenscharf", "--games", "1", *args)


def test_piratz_has_no_policy_and_no_unknown_game_is_played():
    with pytest.raises(CommandError, match="--policy is for Rattenscharf"):
        run("--games", "1", "--policy", "strong")
    with pytest.raises(CommandError):
        run("--game", "chess", "--games", "1")


def test_each_games_options_are_listed_under_its_name_and_refused_for_another(capsys):
    with pytest.raises(CommandError, match=r"--policy is for Rattenscharf \(--game rattenscharf\)"):
        run("--game", "piratz", "--games", "1", policy=["random"])
    with pytest.raises(CommandError, match="--reveal-bias is for Piratz"):
        run("--game", "rattenscharf", "--games", "1", reveal_bias=0.7)  # even at its default
    from games.management.commands.simulate import Command

    help_text = Command().create_parser("manage.py", "simulate").format_help()
    piratz_part = help_text.split("Piratz (--game piratz):")[1].split("Rattenscharf (--game")[0]
    assert "--blind" in piratz_part and "--reveal-bias" in piratz_part
    assert "rat alerts per game" in piratz_part  # what the game's run prints
    assert "--policy" in help_text.split("Rattenscharf (--game rattenscharf):")[1]


def test_every_option_has_help():
    from games.management.commands.simulate import Command

    parser = Command().create_parser("manage.py", "simulate")
    ours = {"game", "games", "players", "policy", "seed", "blind", "reveal_bias", "json"}
    ours |= {"no_progress"}
    mine = [action for action in parser._actions if action.dest in ours]
    assert len(mine) == len(ours) and all(action.help for action in mine)
    assert "rattenscharf" in parser.format_help()
