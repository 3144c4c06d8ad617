"""``manage.py simulate --game piratz``: random Piratz games and their statistics
(``GameSpec.simulate``)."""

from django.core.management.base import CommandError

from games.simulation import simulate


def simulate_command(command, games: int, options) -> None:
    """Validate the Piratz options and play the run through ``command.run``."""
    if options["policy"] is not None:
        raise CommandError("--policy is for Rattenscharf; Piratz games are random.")
    players = 4 if options["players"] is None else options["players"]
    reveal_bias = 0.7 if options["reveal_bias"] is None else options["reveal_bias"]
    if players not in (2, 3, 4):
        raise CommandError(f"--players must be 2, 3 or 4, not {players}.")
    if not 0 <= reveal_bias <= 1:
        raise CommandError(f"--reveal-bias must be between 0 and 1, not {reveal_bias}.")
    command.run(
        games,
        options,
        lambda seed, on_game: simulate(
            games,
            players,
            seed=seed,
            blind=options["blind"],
            reveal_bias=reveal_bias,
            on_game=on_game,
        ),
        settings={"blind": options["blind"], "reveal_bias": reveal_bias},
        format_summary=format_summary,
    )


def format_summary(summary: dict, *, seed_given: bool) -> str:
    """The statistics as a few aligned lines for a person."""

    def spread(key):
        values = summary[key]
        return f"mean {values['mean']:.2f}, min {values['min']}, max {values['max']}"

    seed = summary["seed"]
    repeat = "" if seed_given else f" (random; --seed {seed} repeats this run)"
    scores = summary["average_score_by_seat"]
    by_seat = ", ".join(f"seat {seat} {score:.2f}" for seat, score in enumerate(scores))
    shared = summary["shared_victories"]
    lines = [
        f"Games played:        {summary['games']} with {summary['players']} players"
        f"{', blind' if summary['blind'] else ''}, reveal bias {summary['reveal_bias']}",
        f"Seed:                {seed}{repeat}; game i uses seed {seed}+i",
        f"Moves per game:      {spread('moves_per_game')}",
        f"Rounds per game:     {spread('rounds_per_game')}",
        f"Rat alerts per game: {spread('rat_alerts_per_game')}",
        "Wins by seat (a shared victory counts as a win for every winner):",
        *(
            f"  seat {row['seat']}: {row['wins']} ({row['percent']:.2f}%)"
            for row in summary["wins_by_seat"]
        ),
        f"Shared victories:    {shared['games']} games ({shared['percent']:.2f}%)",
        f"Average score:       {summary['average_score']:.2f} ({by_seat})",
        f"Elapsed:             {summary['elapsed_seconds']:.2f} s "
        f"({summary['games_per_second']} games/s)",
    ]
    return "\n".join(lines)
