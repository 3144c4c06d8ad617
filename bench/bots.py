"""Benchmark of one bot decision per level, wall clock and CPU time (see BENCHMARKS.md "Bots").

The tournament command times decisions by the wall clock, which a busy machine inflates;
this also reports the CPU time of the deciding thread, which it does not.
"""

import argparse
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.kinds.piratz import rules as piratz
from games.simulation import play_bot_game, seatings


def percentile(values, fraction):
    return values[min(len(values) - 1, max(0, round(fraction * len(values)) - 1))]


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=(
            "Play bot games (every seating of the levels, each deal in all of them) and "
            "report each level's decision time: p50, p99 and max, wall clock and CPU."
        )
    )
    parser.add_argument("--games", type=int, default=60, help="games to play (default 60)")
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4), help="default 4")
    parser.add_argument("--seed", type=int, default=1, help="first deal's seed (default 1)")
    parser.add_argument("--blind", action="store_true", help="blind games (rules P23)")
    parser.add_argument(
        "--bots",
        nargs="+",
        default=list(piratz.BOT_LEVELS),
        help="levels (default all)",
    )
    args = parser.parse_args(argv)
    wall = {level: [] for level in args.bots}
    cpu = {level: [] for level in args.bots}

    def timed(view, level, rng, memory):
        w0, c0 = time.perf_counter(), time.thread_time()
        action = piratz.choose_bot_action(view, level, rng, memory)
        cpu[level].append(time.thread_time() - c0)
        wall[level].append(time.perf_counter() - w0)
        return action

    cycle = seatings(args.bots, args.players)
    for number in range(args.games):
        levels = cycle[number % len(cycle)]
        # The engine itself, not its kind: the bench runs without Django (no catalogue).
        play_bot_game(
            levels,
            seed=args.seed + number // len(cycle),
            blind=args.blind,
            choose=timed,
            game=piratz,
        )
    print(
        f"python {platform.python_version()}, {args.games} games, {args.players} players"
        f"{', blind' if args.blind else ''}"
    )
    for level in args.bots:
        line = [f"{level:<8} {len(wall[level]):>6} decisions"]
        for name, times in (("wall", wall[level]), ("cpu", cpu[level])):
            times.sort()
            line.append(
                f"{name} p50 {1000 * percentile(times, 0.5):.2f} ms, "
                f"p99 {1000 * percentile(times, 0.99):.2f} ms, max {1000 * times[-1]:.1f} ms"
            )
        print(" | ".join(line))


if __name__ == "__main__":
    main()
