"""``manage.py tournament`` and games.simulation's bot tournaments: seating, statistics, output."""

import json
import random
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games import actions
from games.kinds.piratz import rules as piratz
from games.kinds.rattenscharf import rules as rattenscharf
from games.models import Game
from games.movelog import public_log
from games.simulation import (
    BotGameRecord,
    TournamentStats,
    play_bot_game,
    seat_memory,
    seatings,
    tournament,
)
from tests.factories import start_game


class TerminalIO(StringIO):
    """A stderr that claims to be a terminal, so tqdm draws its bar."""

    def isatty(self) -> bool:
        return True


def run(*args, stderr=None) -> str:
    out = StringIO()
    call_command("tournament", *args, stdout=out, stderr=stderr or StringIO())
    return out.getvalue()


def test_the_tournament_prints_its_table():
    stderr = TerminalIO()
    out = run(
        "--bots",
        "random",
        "careful",
        "--games",
        "20",
        "--players",
        "2",
        "--seed",
        "4",
        stderr=stderr,
    )
    assert "Games played: 20 with 2 players; seed 4" in out
    header = next(line for line in out.splitlines() if line.startswith("level"))
    assert header.split() == [
        "level",
        "seats",
        "win",
        "rate",
        "mean",
        "score",
        "decisions",
        "p50",
        "ms",
        "p99",
        "ms",
    ]
    rows = {
        line.split()[0]: line
        for line in out.splitlines()
        if line.split()[:1] in (["random"], ["careful"])
    }
    assert set(rows) == {"random", "careful"}
    assert "20" in rows["careful"].split()  # 20 seats: one per game
    assert "careful beats random" in out  # the ordering is robust at this seed (20 to 0)
    assert "%" in rows["careful"] and "±" in rows["careful"]
    assert "game" in stderr.getvalue() and "20/20" in stderr.getvalue()  # the progress bar


def test_the_json_output_has_every_level_and_pair():
    summary = json.loads(run("--games", "3", "--players", "3", "--seed", "9", "--json", "--blind"))
    assert summary["games"] == 3 and summary["players"] == 3 and summary["blind"] is True
    assert [row["level"] for row in summary["levels"]] == list(piratz.BOT_LEVELS)
    for row in summary["levels"]:
        assert row["seats"] == 3  # 3 levels in 3 seats: each sits in every game
        assert row["decisions"] > 0
        assert 0 <= row["decision_ms_p50"] <= row["decision_ms_p99"] <= row["decision_ms_max"]
    assert sum(row["win_rate"] * row["seats"] for row in summary["levels"]) == pytest.approx(3)
    assert {(pair["better"], pair["worse"]) for pair in summary["pairs"]} | {
        (pair["worse"], pair["better"]) for pair in summary["pairs"]
    } >= {("random", "careful"), ("random", "strong"), ("careful", "strong")}


def timeless(summary: dict) -> dict:
    """The summary without what the clock measured."""
    del summary["elapsed_seconds"], summary["jobs"]
    for row in summary["levels"]:
        for key in ("decision_ms_p50", "decision_ms_p99", "decision_ms_max"):
            del row[key]
    return summary


def test_the_same_seed_plays_the_same_tournament():
    args = (
        "--bots",
        "careful",
        "strong",
        "--games",
        "2",
        "--players",
        "2",
        "--seed",
        "3",
        "--json",
    )
    first, second = json.loads(run(*args)), json.loads(run(*args))
    assert timeless(first) == timeless(second)


def test_split_between_processes_the_results_are_the_same():
    args = (
        "--bots",
        "random",
        "careful",
        "--games",
        "23",
        "--players",
        "3",
        "--seed",
        "8",
        "--json",
    )
    alone = json.loads(run(*args))
    split = json.loads(run(*args, "--jobs", "2"))
    assert split["jobs"] == 2
    assert timeless(split) == timeless(alone)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "random", "genius"], "Unknown bot level genius"),
        (["--games", "0"], "--games must be at least 1"),
        (["--jobs", "0"], "--jobs must be at least 1"),
    ],
)
def test_bad_arguments_are_refused(args, message):
    with pytest.raises(CommandError, match=message):
        run(*args)


def test_every_option_has_help():
    from games.management.commands.tournament import Command

    parser = Command().create_parser("manage.py", "tournament")
    ours = {"game", "bots", "games", "players", "seed", "blind", "jobs", "json", "no_progress"}
    mine = [action for action in parser._actions if action.dest in ours]
    assert len(mine) == len(ours) and all(action.help for action in mine)


def test_seatings_put_every_level_in_every_seat():
    assert seatings(["a", "b", "c"], 2) == [
        ("a", "b"),
        ("a", "c"),
        ("b", "a"),
        ("b", "c"),
        ("c", "a"),
        ("c", "b"),
    ]
    four = seatings(["a", "b", "c"], 4)
    assert four == [("a", "b", "c", "a"), ("b", "c", "a", "b"), ("c", "a", "b", "c")]
    for seat in range(4):
        assert sorted(cycle[seat] for cycle in four) == ["a", "b", "c"]


def test_each_deal_is_played_in_every_seating():
    records = []
    tournament(["random", "careful"], 4, 2, seed=10, on_game=records.append)
    assert [record.levels for record in records] == [
        ("random", "careful"),
        ("careful", "random"),
    ] * 2
    # Games 0 and 1 share deal 10, games 2 and 3 deal 11.
    assert records[0] == play_bot_game(("random", "careful"), seed=10)
    assert records[1] == play_bot_game(("careful", "random"), seed=10)
    assert records[3] == play_bot_game(("careful", "random"), seed=11)


def test_shared_victories_are_split_and_pairs_compare_the_same_games():
    stats = TournamentStats(("a", "b"))
    stats.add(BotGameRecord(levels=("a", "b"), scores=(5, 5), winners=(0, 1), moves=9))
    stats.add(BotGameRecord(levels=("b", "a"), scores=(3, 7), winners=(1,), moves=9))
    stats.add(BotGameRecord(levels=("a", "b"), scores=(6, 2), winners=(0,), moves=9))
    summary = stats.summary()
    a, b = summary["levels"]
    assert a["win_rate"] == pytest.approx((0.5 + 1 + 1) / 3)
    assert b["win_rate"] == pytest.approx(0.5 / 3)
    assert a["mean_score"] == pytest.approx(6)
    (pair,) = summary["pairs"]
    assert (pair["better"], pair["worse"], pair["games"]) == ("a", "b", 3)
    assert pair["win_rate_difference"] == pytest.approx((0 + 1 + 1) / 3)
    assert pair["score_difference"] == pytest.approx((0 + 4 + 4) / 3)
    # Differences 0, 1, 1: standard error sqrt(1/3)/sqrt(3) = 1/3, so the CI is ±0.653.
    assert pair["win_rate_difference_ci"] == pytest.approx(1.959964 / 3, rel=1e-5)
    assert pair["significant"] is True
    assert pair["p_value"] == pytest.approx(0.0455, abs=1e-3)
    with pytest.raises(ValueError, match="no games"):
        TournamentStats(("a",)).summary()


def test_a_tournament_refuses_unknown_levels_and_sizes():
    with pytest.raises(ValueError, match="unknown bot level"):
        tournament(["random", "genius"], 2, 2, seed=1)
    with pytest.raises(ValueError, match="players"):
        tournament(["random"], 2, 5, seed=1)


@pytest.mark.django_db
def test_seat_memory_is_what_public_log_shows_each_seat(anna, bert, carla):
    """The pure tournament's memory follows rules P23 exactly as the service's log does."""
    game = start_game([anna, bert, carla], seed=5, blind=True)
    users = [anna, bert, carla]
    rng = random.Random(5)
    for _ in range(14):
        game = Game.objects.get(id=game.id)
        state = piratz.load(game.state)
        seat = game.current_seat
        action = piratz.choose_bot_action(piratz.view(state, seat), "random", rng)
        actions.do_play_move(game.id, users[seat], game.version, action)
    game = Game.objects.get(id=game.id)
    full = public_log(game, None)
    assert any(entry["revealed"] for entry in full)
    for seat in range(3):
        assert seat_memory(full, seat, blind=True) == public_log(game, seat)
    assert seat_memory(full, 0, blind=False) == full


# --- Rattenscharf (--game rattenscharf) -------------------------------------------------------


def test_a_rattenscharf_tournament_seats_its_levels_in_two_player_games():
    out = run("--game", "rattenscharf", "--games", "6", "--seed", "1")
    assert "Games played: 6 of Rattenscharf with 2 players; seed 1" in out
    summary = json.loads(run("--game", "rattenscharf", "--games", "6", "--seed", "1", "--json"))
    assert (summary["game"], summary["players"]) == ("rattenscharf", 2)
    assert [row["level"] for row in summary["levels"]] == list(rattenscharf.BOT_LEVELS)
    for row in summary["levels"]:
        assert row["seats"] == 4  # 6 ordered pairs of 3 levels: each level in 4 seats
        assert row["decisions"] > 0
    # Rattenscharf's games, not Piratz's: one decision per strip, 42 strips at most (R18).
    assert sum(row["decisions"] for row in summary["levels"]) <= 6 * 42
    # A tie (R26) is split; every game has a winner.
    assert sum(row["win_rate"] * row["seats"] for row in summary["levels"]) == pytest.approx(6)


def test_a_rattenscharf_tournament_split_between_processes_is_the_same():
    args = ("--game", "rattenscharf", "--bots", "random", "careful", "--games", "4")
    alone = json.loads(run(*args, "--seed", "6", "--json"))
    split = json.loads(run(*args, "--seed", "6", "--json", "--jobs", "2"))
    assert timeless(split) == timeless(alone)


def test_rattenscharf_games_are_the_bots_own():
    record = play_bot_game(("careful", "strong"), seed=12, game="rattenscharf")
    assert record == play_bot_game(("careful", "strong"), seed=12, game="rattenscharf")
    assert record.levels == ("careful", "strong") and record.winners


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "4"], "--players must be 2 for Rattenscharf"),
        (["--blind"], "Rattenscharf has no blind option"),
        (["--bots", "random", "genius"], "Unknown bot level genius"),
    ],
)
def test_a_rattenscharf_tournament_refuses_what_the_game_does_not_have(args, message):
    with pytest.raises(CommandError, match=message):
        run("--game", "rattenscharf", "--games", "1", *args)
