"""Rattenscharf's self-play: games played by a policy per seat and the numbers that judge
a strip list, and ``manage.py simulate --game rattenscharf`` (``GameSpec.simulate``).

The self-play functions are pure (the engine only); the command part raises Django's
``CommandError``.
"""

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import fmean, quantiles, stdev

from django.core.management.base import CommandError

from games import simulation as selfplay
from games.kinds.rattenscharf import rules as rattenscharf
from games.kinds.rattenscharf.rules.board import TABLE_MAX
from games.simulation import SimulationError

# How a seat chooses in ``simulate_rattenscharf``: a uniformly random legal action, R35's
# stand-in (``timeout_action``), or a bot level (``rattenscharf.BOT_LEVELS``; its
# ``random`` is the same uniform choice as ``random``).
RATTENSCHARF_POLICIES = ("random", "timeout", *rattenscharf.BOT_LEVELS[1:])


@dataclass(frozen=True)
class RattenscharfRecord:
    """What one finished Rattenscharf game looked like (R23-R26, R32)."""

    policies: tuple[str, ...]
    reason: str  # "complete" or "rats"
    rat_loser: int | None
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    turns: int
    moves: int
    extent: int  # the largest |x| or |y| of any occupied cell (R6: the edge is 15)


def rattenscharf_action(state, policy: str, rng: random.Random) -> dict:
    """The action ``policy`` plays for the seat to move in ``state`` (see
    ``RATTENSCHARF_POLICIES``); ``ValueError`` for an unknown policy."""
    if policy == "timeout":
        return rattenscharf.timeout_action(state)
    if policy == "random":
        return rng.choice(rattenscharf.legal_actions(state, rattenscharf.current_seat(state)))
    if policy not in RATTENSCHARF_POLICIES:
        raise ValueError(f"unknown policy {policy!r}; policies: {', '.join(RATTENSCHARF_POLICIES)}")
    view = rattenscharf.view(state, rattenscharf.current_seat(state))
    return rattenscharf.choose_bot_action(view, policy, rng)


def play_rattenscharf_game(policies: Sequence[str], *, seed: int) -> RattenscharfRecord:
    """Play one Rattenscharf game with ``policies[s]`` choosing for seat ``s``.

    ``seed`` deals the pile; each seat draws its chances from its own ``random.Random``
    seeded with ``seed`` and the seat, so the same arguments give the same game. Raises
    ``SimulationError`` if the game does not end.
    """
    state = rattenscharf.new_game(2, seed=seed)
    rngs = [random.Random(f"{seed}:{seat}") for seat in range(2)]
    moves = 0
    while not rattenscharf.is_finished(state):
        if moves >= selfplay.MAX_MOVES_PER_GAME:
            raise selfplay.SimulationError(f"a Rattenscharf game (seed {seed}) did not end")
        seat = rattenscharf.current_seat(state)
        action = rattenscharf_action(state, policies[seat], rngs[seat])
        state = rattenscharf.apply(state, seat, action)
        moves += 1
    result = rattenscharf.result(state)
    return RattenscharfRecord(
        policies=tuple(policies),
        reason=result["reason"],
        rat_loser=result["rat_loser"],
        scores=tuple(player["score"] for player in result["players"]),
        winners=tuple(result["winners"]),
        turns=rattenscharf.round_number(state),
        moves=moves,
        extent=max(max(abs(x), abs(y)) for x, y in state.board.grid),
    )


def distribution(values: list[int]) -> dict | None:
    """Mean, standard deviation, minimum, quartiles and maximum; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    if len(ordered) > 1:
        q1, median, q3 = quantiles(ordered, n=4, method="inclusive")
    else:
        q1 = median = q3 = ordered[0]
    return {
        "mean": round(fmean(ordered), 3),
        "sd": round(stdev(ordered), 3) if len(ordered) > 1 else 0.0,
        "min": ordered[0],
        "q1": q1,
        "median": median,
        "q3": q3,
        "max": ordered[-1],
    }


@dataclass
class RattenscharfStats:
    """Running totals over finished Rattenscharf games; ``add`` each game."""

    policies: tuple[str, ...]
    records: list[RattenscharfRecord] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.records)

    def add(self, record: RattenscharfRecord) -> None:
        self.records.append(record)

    def summary(self) -> dict:
        """The statistics as JSON-ready data (what ``simulate --game rattenscharf --json``
        prints). Scores are those of completed games only: a game lost to rats has no final
        scoring (R23). A tie is a win for both seats (R26), so wins may add up to more than
        the games. Raises ``ValueError`` before any game was added.
        """
        games = self.games
        if not games:
            raise ValueError("no games were played")
        records = self.records
        complete = [r for r in records if r.reason == "complete"]
        ties = sum(1 for r in complete if len(r.winners) > 1)
        seats = range(2)
        return {
            "game": "rattenscharf",
            "games": games,
            "policies": list(self.policies),
            "complete": {"games": len(complete), "percent": selfplay.percent(len(complete), games)},
            "rat_losses": {
                "games": games - len(complete),
                "percent": selfplay.percent(games - len(complete), games),
            },
            "rat_losses_by_seat": [
                {
                    "seat": seat,
                    "colour": rattenscharf.COLOURS[seat],
                    "games": (lost := sum(1 for r in records if r.rat_loser == seat)),
                    "percent": selfplay.percent(lost, games),
                }
                for seat in seats
            ],
            "wins_by_seat": [
                {
                    "seat": seat,
                    "colour": rattenscharf.COLOURS[seat],
                    "wins": (wins := sum(1 for r in records if seat in r.winners)),
                    "percent": selfplay.percent(wins, games),
                    "by_rats": sum(1 for r in records if r.rat_loser == 1 - seat),
                }
                for seat in seats
            ],
            "ties": {"games": ties, "percent_of_complete": selfplay.percent(ties, len(complete))},
            "scores_by_seat": [distribution([r.scores[seat] for r in complete]) for seat in seats],
            "scores_together": distribution([sum(r.scores) for r in complete]),
            "turns_per_game": selfplay.spread([r.turns for r in records]),
            "moves_per_game": selfplay.spread([r.moves for r in records]),
            "extent": selfplay.spread([r.extent for r in records]),
        }


def simulate_rattenscharf(
    games: int, policies: Sequence[str], *, seed: int, on_game=None
) -> RattenscharfStats:
    """Play ``games`` Rattenscharf games (game ``i`` with seed ``seed + i``), seat ``s``
    choosing by ``policies[s]`` (one policy: both seats), and return the totals.

    ``on_game`` (optional) gets each ``RattenscharfRecord`` as it finishes. Raises
    ``ValueError`` for arguments out of range and ``SimulationError`` if a game does not end.
    """
    if type(games) is not int or games < 1:
        raise ValueError(f"games must be at least 1, not {games!r}")
    policies = tuple(policies)
    if len(policies) == 1:
        policies *= 2
    if len(policies) != 2:
        raise ValueError(f"give one policy or one per seat (2), not {len(policies)}")
    unknown = [policy for policy in policies if policy not in RATTENSCHARF_POLICIES]
    if unknown:
        raise ValueError(
            f"unknown policy {', '.join(unknown)}; policies: {', '.join(RATTENSCHARF_POLICIES)}"
        )
    stats = RattenscharfStats(policies)
    for number in range(games):
        record = play_rattenscharf_game(policies, seed=seed + number)
        stats.add(record)
        if on_game is not None:
            on_game(record)
    return stats


def add_simulation_arguments(group) -> None:
    """Rattenscharf's own options of ``manage.py simulate``
    (``GameSpec.add_simulation_arguments``)."""
    group.description = (
        "Two players choosing by --policy: games lost to rats per seat, the score "
        "distribution per seat (completed games), ties, wins per seat, game length and how "
        "far the table spread: the numbers that judge a strip list."
    )
    group.add_argument(
        "--policy",
        nargs="+",
        metavar="POLICY",
        help=(
            "How the seats choose, one policy for both seats or one per seat "
            f"({', '.join(RATTENSCHARF_POLICIES)}; default strong). random: a uniformly "
            "random legal action; timeout: the stand-in of rules R35; careful and strong: "
            "the bots (strong costs about 1 s per game)."
        ),
    )


def simulate_command(command, games: int, options) -> None:
    """Validate the Rattenscharf options and play the run through ``command.run``."""
    if options["players"] not in (None, 2):
        raise CommandError(f"Rattenscharf is for 2 players, not {options['players']}.")
    policies = tuple(options["policy"] or ("strong",))
    command.run(
        games,
        options,
        lambda seed, on_game: simulate_rattenscharf(games, policies, seed=seed, on_game=on_game),
        settings={},
        format_summary=format_summary,
        errors=(ValueError, SimulationError),
    )


def format_summary(summary: dict, *, seed_given: bool) -> str:
    """The Rattenscharf statistics as aligned lines for a person."""
    seed = summary["seed"]
    repeat = "" if seed_given else f" (random; --seed {seed} repeats this run)"
    games = summary["games"]

    def seat_label(row):
        return f"seat {row['seat']} ({row['colour']})"

    def spread(values):
        return f"mean {values['mean']:.2f}, min {values['min']}, max {values['max']}"

    policies = summary["policies"]
    rats, complete, ties = summary["rat_losses"], summary["complete"], summary["ties"]
    lines = [
        f"Games played:        {games} of Rattenscharf; seat 0 plays {policies[0]}, "
        f"seat 1 plays {policies[1]}",
        f"Seed:                {seed}{repeat}; game i uses seed {seed}+i",
        f"Lost to rats:        {rats['games']} games ({rats['percent']:.2f}%)",
        *(
            f"  {seat_label(row)}: {row['games']} ({row['percent']:.2f}% of games)"
            for row in summary["rat_losses_by_seat"]
        ),
        f"Completed:           {complete['games']} games ({complete['percent']:.2f}%)",
        f"Ties:                {ties['games']} ({ties['percent_of_complete']:.2f}% of "
        "completed games; a tie is a win for both)",
        "Wins by seat:",
        *(
            f"  {seat_label(row)}: {row['wins']} ({row['percent']:.2f}%), "
            f"{row['by_rats']} of them by the other's rats"
            for row in summary["wins_by_seat"]
        ),
        "Scores of completed games:",
        f"  {'':<15} {'mean':>7} {'sd':>6} {'min':>5} {'q1':>6} {'median':>7} {'q3':>6} {'max':>5}",
    ]
    rows = [
        (seat_label(row), scores)
        for row, scores in zip(summary["wins_by_seat"], summary["scores_by_seat"], strict=True)
    ]
    rows.append(("both together", summary["scores_together"]))
    for label, scores in rows:
        if scores is None:
            lines.append(f"  {label:<15} (no completed game)")
            continue
        lines.append(
            f"  {label:<15} {scores['mean']:>7.2f} {scores['sd']:>6.2f} {scores['min']:>5} "
            f"{scores['q1']:>6.1f} {scores['median']:>7.1f} {scores['q3']:>6.1f} "
            f"{scores['max']:>5}"
        )
    lines += [
        f"Turns per game:      {spread(summary['turns_per_game'])}",
        f"Moves per game:      {spread(summary['moves_per_game'])}",
        f"Table reached:       largest |x| or |y| {spread(summary['extent'])} "
        f"(the edge is {TABLE_MAX})",
        f"Elapsed:             {summary['elapsed_seconds']:.2f} s "
        f"({summary['games_per_second']} games/s)",
    ]
    return "\n".join(lines)
