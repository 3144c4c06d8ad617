"""Benchmark of the Piratz and Rattenscharf rules engines through their public entry points.

See BENCHMARKS.md "Engine"; ``--game rattenscharf`` selects the second engine, and
``--game rattenscharf --bots LEVEL ...`` times its bots' decisions instead (BENCHMARKS.md
"Bots/Rattenscharf").
"""

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.kinds.piratz import rules as piratz
from games.kinds.piratz.rules.bots import random_action as choose_action
from games.kinds.rattenscharf import rules as rattenscharf


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
    parser.add_argument(
        "--game",
        default="piratz",
        choices=("piratz", "rattenscharf"),
        help="which engine (default piratz; rattenscharf ignores --players/--reveal-bias)",
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
    parser.add_argument(
        "--bots",
        nargs="+",
        metavar="LEVEL",
        help=(
            "rattenscharf only: time the decisions of these bot levels instead "
            f"({', '.join(rattenscharf.BOT_LEVELS)}), each level against every level"
        ),
    )
    args = parser.parse_args(argv)
    if args.bots and args.game != "rattenscharf":
        parser.error("--bots times Rattenscharf's bots (Piratz's: bench/bots.py)")
    if args.bots:
        unknown = [level for level in args.bots if level not in rattenscharf.BOT_LEVELS]
        if unknown:
            parser.error(f"unknown bot level {', '.join(unknown)}")
        bench_rattenscharf_bots(args.games, args.seed, args.bots)
        return
    if args.game == "rattenscharf":
        bench_rattenscharf(args.games, args.seed)
        return
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


# --- Rattenscharf -----------------------------------------------------------------------
# legal_actions grows with the table, so the measure that matters is legal_actions on a
# crowded late table (turns 20-22: about 40 placements, hundreds of legal actions). Both
# seats play R35's stand-in (timeout_action): uniform random play loses to rats after
# about a dozen moves and would never reach that table.
LATE_TURN = 20


def bench_rattenscharf(games, seed):
    """Play ``games`` Rattenscharf games (seeds ``seed * 1_000_003 + n``) with
    timeout_action choosing every move, timing legal_actions, timeout_action, apply and
    view (both seats and a spectator) after each move, and legal_actions separately on
    late tables (turn >= LATE_TURN)."""
    clock = time.perf_counter
    moves = views = late = late_actions = 0
    t_apply = t_view = t_legal = t_late = t_timeout = late_max = 0.0
    turns = []
    for number in range(games):
        state = rattenscharf.new_game(seed=seed * 1_000_003 + number)
        while not rattenscharf.is_finished(state):
            seat = rattenscharf.current_seat(state)
            t0 = clock()
            actions = rattenscharf.legal_actions(state, seat)
            t1 = clock()
            action = rattenscharf.timeout_action(state)
            t2 = clock()
            if state.turn >= LATE_TURN:
                late += 1
                t_late += t1 - t0
                late_max = max(late_max, t1 - t0)
                late_actions += len(actions)
            state = rattenscharf.apply(state, seat, action)
            t3 = clock()
            for viewer in (0, 1, None):
                rattenscharf.view(state, viewer)
            t4 = clock()
            t_legal += t1 - t0
            t_timeout += t2 - t1
            t_apply += t3 - t2
            t_view += t4 - t3
            moves += 1
            views += 3
        turns.append(state.turn)
    playout = t_legal + t_apply + t_view
    print(f"python {platform.python_version()}, rattenscharf, {games} games of R35 stand-ins")
    print(f"moves: {moves} ({moves / games:.1f} per game, {turns.count(22)} games to turn 22)")
    print(f"apply: {t_apply / moves * 1e6:.2f} us per call")
    print(f"view: {t_view / views * 1e6:.2f} us per call ({views} calls)")
    print(f"legal_actions: {t_legal / moves * 1e6:.2f} us per call (all turns)")
    if late:
        print(
            f"legal_actions, turn >= {LATE_TURN}: {t_late / late * 1e6:.2f} us mean, "
            f"{late_max * 1e6:.2f} us max, {late_actions / late:.0f} actions on average"
        )
    print(f"timeout_action: {t_timeout / moves * 1e3:.2f} ms per call")
    print(
        f"playouts/s (legal_actions + apply + 3 views per move, no policy): {games / playout:,.1f}"
    )


def _percentile(ordered, fraction):
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def bench_rattenscharf_bots(games, seed, levels):
    """Play ``games`` Rattenscharf games for every ordered pair of ``levels`` (seeds
    ``seed * 1_000_003 + n``) and time each ``choose_bot_action`` call by the wall clock and
    by the deciding thread's CPU time (which a loaded machine does not inflate), with the
    number of legal actions and strips in hand it decided between."""
    wall, cpu, legal, twos = {}, {}, {}, {}
    pairs = [(a, b) for a in levels for b in levels]
    for number in range(games):
        for pair in pairs:
            state = rattenscharf.new_game(seed=seed * 1_000_003 + number)
            rngs = [random.Random(f"{seed}:{number}:{s}") for s in (0, 1)]
            while not rattenscharf.is_finished(state):
                seat = rattenscharf.current_seat(state)
                level = pair[seat]
                view = rattenscharf.view(state, seat)
                w0, c0 = time.perf_counter(), time.thread_time()
                action = rattenscharf.choose_bot_action(view, level, rngs[seat])
                c1, w1 = time.thread_time(), time.perf_counter()
                wall.setdefault(level, []).append(w1 - w0)
                cpu.setdefault(level, []).append(c1 - c0)
                legal.setdefault(level, []).append(len(view["legal_actions"]))
                twos.setdefault(level, []).append(len(view["hand"]) == 2)
                state = rattenscharf.apply(state, seat, action)
    print(
        f"python {platform.python_version()}, rattenscharf bots, {games} deals x "
        f"{len(pairs)} pairings of {', '.join(levels)}"
    )
    print(
        "level    decisions  legal mean  two-strip  CPU p50 ms  CPU p99 ms  CPU max ms  wall p99 ms"
    )
    for level in levels:
        c, w = sorted(cpu[level]), sorted(wall[level])
        print(
            f"{level:<8} {len(c):>9} {sum(legal[level]) / len(c):>11.0f} "
            f"{100 * sum(twos[level]) / len(c):>9.0f}% {_percentile(c, 0.5) * 1e3:>11.2f} "
            f"{_percentile(c, 0.99) * 1e3:>11.2f} {c[-1] * 1e3:>11.2f} "
            f"{_percentile(w, 0.99) * 1e3:>12.2f}"
        )


if __name__ == "__main__":
    main()
