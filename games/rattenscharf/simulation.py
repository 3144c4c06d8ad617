"""``manage.py simulate --game rattenscharf``: Rattenscharf games played by a policy per
seat, and the numbers that judge a strip list (``GameSpec.simulate``)."""

from django.core.management.base import CommandError

from games.rules.rattenscharf.board import TABLE_MAX
from games.simulation import SimulationError, simulate_rattenscharf


def simulate_command(command, games: int, options) -> None:
    """Validate the Rattenscharf options and play the run through ``command.run``."""
    if options["players"] not in (None, 2):
        raise CommandError(f"Rattenscharf is for 2 players, not {options['players']}.")
    if options["blind"]:
        raise CommandError("Rattenscharf has no blind option: only the draw order is hidden.")
    if options["reveal_bias"] is not None:
        raise CommandError("--reveal-bias is for Piratz; choose Rattenscharf play by --policy.")
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
