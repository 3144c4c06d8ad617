"""Where a move's time goes: shares of a py-spy profile of ``bench/api.py``'s in-process run.

The in-process run interleaves, per move, the move POST (``move_post``), the next
player's game GET when the turn passes (``next_player_get``) and one bare write
(``bare_write``). Sampling it with py-spy (``pip install py-spy==0.4.3``; not a
requirement of the project) and reading the samples here gives the table in
BENCHMARKS.md ("Move path"): each part of each request kind in samples, as
a share of its kind, and in units of one bare write (there is one bare write per move,
so a part's samples over all the bare writes' samples is its cost per move in bare
writes), and last what the throughput goal leaves a move's own work (``budget``)::

    py-spy record --format raw -r 400 -o /tmp/spy.txt -- \\
        .venv/bin/python bench/api.py --in-process-only --in-process-games 6 --games 1
    .venv/bin/python bench/profile_shares.py /tmp/spy.txt [--depth 3]

A part is named by the project's own frames on the stack (outermost first, ``--depth``
of them), plus DRF's authentication and throttle steps and the transaction's commit;
samples with none of these are "(framework)": Django, DRF and the middleware. Only the
standard library is used.
"""

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

KINDS = {"move_post": "move POST", "next_player_get": "game GET", "bare_write": "bare write"}
PROJECT = ("games/", "accounts/", "notifications/", "webhooks/", "piratz_site/", "mailin/", "core/")
# Project frames every request passes through: they name no part.
PASSED_THROUGH = ("middleware.py", "proxies.py", "languages.py")
DRF_STEPS = ("APIView.perform_authentication", "APIView.check_throttles")
FRAME = re.compile(r"(?P<function>\S+) \((?P<path>[^:]+):\d+\)")


def kind_of(frames: list[str]) -> str | None:
    """The request kind a stack belongs to, or None (set-up, the bench's own work)."""
    for frame in frames:
        function = frame.split(" ", 1)[0].rsplit(".", 1)[-1]
        if function in KINDS:
            return KINDS[function]
    return None


def part_of(frames: list[str], depth: int) -> str:
    """The part of the request a stack's sample is spent in (see the module docstring)."""
    chain = []
    for frame in frames:
        match = FRAME.match(frame)
        if match is None:
            continue
        function, path = match["function"], match["path"]
        if path.startswith(PROJECT) and not path.endswith(PASSED_THROUGH):
            chain.append(function)
        elif path.endswith("rest_framework/views.py") and function in DRF_STEPS:
            chain.append(function.split(".")[-1])
        elif path.endswith("db/transaction.py") and function == "Atomic.__exit__":
            chain.append("COMMIT")
    return " > ".join(chain[:depth]) or "(framework)"


def shares(lines, depth: int) -> dict[str, Counter]:
    """Samples per part, per request kind, from py-spy's raw (collapsed) lines."""
    by_kind: dict[str, Counter] = {kind: Counter() for kind in KINDS.values()}
    for line in lines:
        stack, _, count = line.rstrip("\n").rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = stack.split(";")
        kind = kind_of(frames)
        if kind is not None:
            by_kind[kind][part_of(frames, depth)] += int(count)
    return by_kind


def report(by_kind: dict[str, Counter], threshold: float) -> str:
    bare_total = sum(by_kind["bare write"].values())
    if not bare_total:
        raise SystemExit(
            "no bare-write samples: profile a run with bare writes (--in-process-only does)"
        )
    out = []
    for kind, parts in by_kind.items():
        total = sum(parts.values())
        out.append(f"\n{kind}: {total} samples = {total / bare_total:.2f} bare writes per move")
        for part, samples in parts.most_common():
            if samples / total >= threshold:
                out.append(f"  {samples / total:6.1%}  {samples / bare_total:5.2f}  {part}")
    moves = sum(sum(by_kind[k].values()) for k in ("move POST", "game GET"))
    out.append(f"\na move (POST + its share of GETs): {moves / bare_total:.2f} bare writes")
    out.append(budget(by_kind))
    return "\n".join(out)


def budget(by_kind: dict[str, Counter], goal: float = 0.7) -> str:
    """What the throughput goal leaves a move's own work, in bare writes.

    At ``goal`` times the bare writes/s, a move (POST and its share of GETs) may cost
    1/``goal`` bare writes. Cutting what every request costs (the token check, Django and
    DRF: the GET's authentication and "(framework)" samples are that and nothing else)
    cannot bring the ratio there: a move pays it more often than a bare write does. So
    take the GET at that floor and the POST at a bare write plus the move's own work
    (seats, emails, throttle, deadline, engine, answer); the move's own work may then cost
    what is left, against what it costs now (everything beyond a bare write and that floor).
    """
    bare_total = sum(by_kind["bare write"].values())
    get = by_kind["game GET"]
    every_request = ("perform_authentication", "(framework)")
    floor = sum(n for part, n in get.items() if part.split(" > ")[0] in every_request)
    floor /= bare_total
    moves = sum(sum(by_kind[k].values()) for k in ("move POST", "game GET")) / bare_total
    allowed = 1 / goal
    return (
        f"\nthe goal ({goal}x) allows a move {allowed:.2f} bare writes: a bare write, the"
        f" next player's GET at the floor every request pays ({floor:.2f}), and"
        f" {allowed - 1 - floor:.2f} for the move's own work, which costs"
        f" {moves - 1 - floor:.2f} now"
    )


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile", type=Path, help="py-spy's --format raw output")
    parser.add_argument("--depth", type=int, default=3, help="project frames per part name")
    parser.add_argument(
        "--threshold", type=float, default=0.01, help="leave out parts below this share"
    )
    args = parser.parse_args(argv)
    if not args.profile.is_file():
        parser.error(f"{args.profile} is not a file")
    with args.profile.open() as lines:
        print(report(shares(lines, args.depth), args.threshold))


if __name__ == "__main__":
    main(sys.argv[1:])
