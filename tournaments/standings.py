"""A tournament's standings from its decided pairings (docs/tournaments.md "Results and standings").

Swiss: score (a win or a bye 1, a draw ½, a loss or a game without a result 0), then
Buchholz (the sum of the opponents' scores: ``tournaments.pairing.swiss_standings``), then
the seed rating. Elimination: the winner, then by the round each one went out in (later
first), then by seed.
"""

from typing import Any

from tournaments.models import Entrant, Pairing, Result, Tournament, TournamentFormat
from tournaments.pairing import swiss_standings


def standings(tournament: Tournament) -> list[dict[str, Any]]:
    """One row per seeded entrant (none before the start), best first: ``rank``,
    ``entrant``, ``user_id``, ``name``, ``seed``, ``rating``, ``score``, ``buchholz``,
    ``wins``, ``draws``, ``losses``, ``byes``, ``withdrawn``, and for elimination ``out_in``
    (the round they went out in; None while in, or for the winner)."""
    entrants = {
        e.pk: e
        for e in Entrant.objects.filter(tournament=tournament, seed__isnull=False).select_related(
            "user"
        )
    }
    decided = (
        Pairing.objects.filter(round__tournament=tournament)
        .exclude(result=Result.PENDING)
        .select_related("round")
    )
    games = []
    out_in: dict[int, int] = {}
    for row in decided:
        games.append(
            (row.first_id, row.second_id, row.first_points() or 0.0, row.second_points() or 0.0)
        )
        if row.second_id is not None and row.advances_id is not None:
            loser = row.second_id if row.advances_id == row.first_id else row.first_id
            out_in[loser] = row.round.number
    lines = swiss_standings({pk: e.seed_rating or 0 for pk, e in entrants.items()}, games)
    rows: list[dict[str, Any]] = [
        {
            "rank": line.rank,
            "entrant": entrants[line.id],
            "user_id": entrants[line.id].user_id,
            "name": str(entrants[line.id].user.public_name),
            "seed": entrants[line.id].seed,
            "rating": entrants[line.id].seed_rating,
            "score": line.score,
            "buchholz": line.buchholz,
            "wins": line.wins,
            "draws": line.draws,
            "losses": line.losses,
            "byes": line.byes,
            "withdrawn": entrants[line.id].withdrawn_at is not None,
            "out_in": out_in.get(line.id),
        }
        for line in lines
    ]
    if tournament.format == TournamentFormat.SWISS:
        return rows
    # Elimination: still in (or the winner) first, then who went out later, then by seed;
    # who withdrew without losing a game last.
    rows.sort(
        key=lambda r: (
            r["out_in"] is None and r["withdrawn"],
            r["out_in"] is not None,
            -(r["out_in"] or 0),
            r["seed"],
        )
    )
    for index, line in enumerate(rows):
        previous = rows[index - 1] if index else None
        tied = previous is not None and previous["out_in"] == line["out_in"] and line["out_in"]
        line["rank"] = previous["rank"] if tied and previous is not None else index + 1
    return rows
