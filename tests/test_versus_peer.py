"""bench/versus_peer.py: the table comparing the service with boardgame.io, and the peer
playing our engine's own deck (BENCHMARKS.md, "The service against boardgame.io")."""

import json
from importlib import resources
from pathlib import Path

import pytest

from bench.versus_peer import ENGINE_DECK, PEER, comparison_table, floor_lines
from games.kinds.piratz.rules.deck import TREASURES, validate_deck


def run(moves, p50, p99, server, postgres):
    return {
        "moves_per_s": moves,
        "p50_ms": p50,
        "p99_ms": p99,
        "server_cpu_ms_per_move": server,
        "postgres_cpu_ms_per_move": postgres,
    }


def row(table: str, label: str) -> list[str]:
    (line,) = [line for line in table.splitlines() if line.startswith(f"| {label} |")]
    return [cell.strip() for cell in line.strip("|").split("|")]


def test_table_shows_each_pair_the_medians_and_the_service_over_the_peer():
    peer = [run(180, 20, 70, 5.0, 2.0), run(200, 22, 80, 5.5, 2.1), run(170, 18, 60, 5.2, 2.2)]
    service = [run(90, 40, 160, 20.0, 3.0), run(75, 50, 170, 22.0, 2.8), run(100, 35, 150, 19, 3)]
    table = comparison_table(peer, service)
    moves = row(table, "moves/s")
    assert moves[1:4] == ["180.0 / 90.0", "200.0 / 75.0", "170.0 / 100.0"]
    assert moves[4:] == ["180.0", "90.0", "0.50x (peer ahead)"]
    p99 = row(table, "move p99 ms")
    assert p99[4:] == ["70.0", "160.0", "2.29x (peer ahead)"]
    total = row(table, "CPU ms/move, server + PostgreSQL")
    assert total[4:] == ["7.4", "23.0", "3.11x (peer ahead)"]


def test_lower_is_ahead_for_latency_and_cpu_higher_for_throughput():
    table = comparison_table([run(100, 30, 90, 8, 2)], [run(150, 20, 60, 4, 1)])
    assert row(table, "moves/s")[-1] == "1.50x (service ahead)"
    assert row(table, "move p50 ms")[-1] == "0.67x (service ahead)"
    assert row(table, "PostgreSQL CPU ms/move")[-1] == "0.50x (service ahead)"


def test_a_missing_figure_is_a_dash_not_a_crash():
    peer = run(100, 30, 90, None, 2)  # load.js without --server-pid
    table = comparison_table([peer], [run(150, 20, 60, 4, 1)])
    assert row(table, "server CPU ms/move")[1:] == ["- / 4.0", "-", "4.0", "-"]


def test_pairs_must_match():
    with pytest.raises(ValueError, match="as many peer runs"):
        comparison_table([run(1, 1, 1, 1, 1)], [])


def test_the_peer_plays_the_engines_own_deck():
    # The runner points the peer at the engine's deck file; what game.js reads from it must
    # be what the engine plays with (P1-P3).
    packaged = resources.files("games.kinds.piratz.rules").joinpath("deck.json")
    assert Path(str(packaged)) == ENGINE_DECK  # the file load_deck() reads
    raw = json.loads(ENGINE_DECK.read_text())
    validate_deck(raw)  # P1-P3
    assert raw["treasure_types"] == list(TREASURES)
    assert {"id", "treasures", "rat", "skull"} <= set(raw["cards"][0])  # what game.js reads
    game_js = (PEER / "game.js").read_text()
    assert "process.env.PIRATZ_DECK || '../../games/kinds/piratz/rules/deck.json'" in game_js


def test_the_peers_packages_are_pinned_exactly():
    package = json.loads((PEER / "package.json").read_text())
    lock = json.loads((PEER / "package-lock.json").read_text())
    assert package["dependencies"] == {"boardgame.io": "0.50.2", "bgio-postgres": "1.0.16"}
    assert lock["packages"]["node_modules/boardgame.io"]["version"] == "0.50.2"
    assert lock["packages"]["node_modules/bgio-postgres"]["version"] == "1.0.16"


def test_the_floor_says_what_a_move_could_do_at_best_at_the_stacks_cost_per_request():
    peer = [run(400, 17, 40, 2.3, 1.1), run(420, 17, 38, 2.3, 1.1)]
    bare = {"writes_per_s": 540.0, "server_cpu_ms": 2.6, "postgres_cpu_ms": 0.5}
    floored = {"requests_per_move": 1.5, "floor": bare}
    service = [{**run(170, 28, 67, 8.6, 1.2), **floored}, run(187, 27, 63, 8.0, 1.1)]
    floor, move, one_request = floor_lines(peer, service)
    assert "540.0 writes/s, CPU 2.6 + 0.5 ms" in floor
    assert "median of 1" in floor
    # 540 / 1.5 = 360 moves/s against the peer's 410; 3.1 ms x 1.5 = 4.65 against 3.4.
    assert "at most 360.0 moves/s (0.88x the peer's)" in move
    assert "at least 4.7 ms of CPU (1.37x the peer's)" in move
    # A move of one request: 540 against 410 moves/s, 3.1 against 3.4 ms.
    assert "at most 540.0 moves/s (1.32x the peer's)" in one_request
    assert "at least 3.1 ms of CPU (0.91x the peer's)" in one_request


def test_no_floor_is_said_when_no_service_run_measured_it():
    assert floor_lines([run(400, 17, 40, 2.3, 1.1)], [run(170, 28, 67, 8.6, 1.2)]) == []
