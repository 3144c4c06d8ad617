"""Benchmark of the Piratz rules engine through its public entry points (see BENCHMARKS.md)."""

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules import piratz
from games.simulation import choose_action


def play(games, players, seed, reveal_bias):
    """Play ``games`` games and time each entry point.

    Returns (moves, seconds in apply, in view, in legal_actions, view calls, the sorted
    mean view time after each move).
    """
    rng = random.Random(seed)
    clock = time.perf_counter
    moves = views = 0
    t_apply = t_view = t_legal = 0.0
    per_view = []  # mean view time after each move, for the tail percentiles
    seats = list(range(players)) + [None]
    for number in range(games):
        state = piratz.new_game(players, seed=seed * 1_000_003 + number)
        while not piratz.is_finished(state):
            seat = piratz.current_seat(state)
            t0 = clock()
            actions = piratz.legal_actions(state, seat)
            t1 = clock()
            action = choose_action(actions, rng, reveal_bias)
            t2 = clock()
            state = piratz.apply(state, seat, action)
            t3 = clock()
            for viewer in seats:
                piratz.view(state, viewer)
            t4 = clock()
            t_legal += t1 - t0
            t_apply += t3 - t2
            t_view += t4 - t3
            per_view.append((t4 - t3) / len(seats))
            moves += 1
            views += len(seats)
    return moves, t_apply, t_view, t_legal, views, sorted(per_view)


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=(
            "Play random Piratz games through legal_actions, apply and view (every seat "
            "plus a spectator after each move) and report the engine's speed."
        )
    )
    parser.add_argument("--games", type=int, default=2000, help="games to play (default 2000)")
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4), help="default 4")
    parser.add_argument("--seed", type=int, default=1, help="seed for games and choices")
    parser.add_argument(
        "--reveal-bias",
        type=float,
        default=0.75,
        help="chance to reveal (or end the turn) when legal (default 0.75)",
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    moves, t_apply, t_view, t_legal, views, per_view = play(
        args.games, args.players, args.seed, args.reveal_bias
    )
    wall = time.perf_counter() - start
    print(f"python {platform.python_version()}, {args.games} games, {args.players} players")
    print(f"moves: {moves} ({moves / args.games:.1f} per game)")
    print(f"apply: {moves / t_apply:,.0f} calls/s, {t_apply / moves * 1e6:.2f} us per call")
    p99 = per_view[int(len(per_view) * 0.99)]
    print(
        f"view: {t_view / views * 1e6:.2f} us per call ({views} calls), "
        f"p99 {p99 * 1e6:.2f} us, max {per_view[-1] * 1e6:.2f} us"
    )
    print(f"legal_actions: {t_legal / moves * 1e6:.2f} us per call")
    print(f"moves/s (apply + legal_actions + {args.players + 1} views): {moves / wall:,.0f}")
    print(f"games/s: {args.games / wall:,.1f}")


if __name__ == "__main__":
    main()
