"""A league's standings: points for the places of its finished games, with tie-breaks.

Each finished game gives each player one point for every opponent they finished ahead of
and half a point for every one they tied with (two players: win 1, tie ½ each; four:
3/2/1/0). A player who resigned is behind everyone who did not; the game's ``winners``
are ahead of the others; else the higher score is ahead. Aborted or cancelled games give
nothing. Ties in points are broken by wins (games finished first, shared or alone), then
by the sum of game scores; players still equal share the rank. docs/leagues.md.
"""

from typing import Any

from games.models import GameStatus
from leagues.models import League, LeagueGame, LeagueGameStatus


def places(result: dict) -> dict[int, float]:
    """Points per seat of one finished game's ``result``, as the module docstring says."""
    players = result.get("players") or []
    resigned = set(result.get("resigned") or [])
    winners = set(result.get("winners") or [])
    scores = {p["seat"]: p.get("score", 0) for p in players}

    def rank_key(seat: int) -> tuple:
        return (seat not in resigned, seat in winners, scores.get(seat, 0))

    points: dict[int, float] = {}
    for seat in scores:
        points[seat] = sum(
            1.0
            if rank_key(seat) > rank_key(other)
            else 0.5
            if rank_key(seat) == rank_key(other)
            else 0.0
            for other in scores
            if other != seat
        )
    return points


def standings(league: League) -> list[dict]:
    """One row per member who accepted, best first: ``rank``, ``user_id``, ``name``,
    ``played``, ``points``, ``wins``, ``score``, ``left``."""
    members = [m for m in league.members.select_related("user") if m.accepted_at is not None]
    rows: dict[int, dict[str, Any]] = {
        m.user_id: {
            "user_id": m.user_id,
            "name": m.user.public_name,
            "played": 0,
            "points": 0.0,
            "wins": 0,
            "score": 0,
            "left": m.left_at is not None,
        }
        for m in members
    }
    finished = LeagueGame.objects.filter(
        league=league, status=LeagueGameStatus.STARTED, game__status=GameStatus.FINISHED
    ).select_related("game")
    for entry in finished:
        assert entry.game is not None
        result = entry.game.result or {}
        points = places(result)
        scores = {p["seat"]: p.get("score", 0) for p in result.get("players") or []}
        best = max(points.values(), default=0)
        for seat, uid in enumerate(entry.players):
            if uid not in rows or seat not in points:
                continue
            rows[uid]["played"] += 1
            rows[uid]["points"] += points[seat]
            rows[uid]["score"] += scores.get(seat, 0)
            if points[seat] == best and seat in set(result.get("winners") or []):
                rows[uid]["wins"] += 1
    ordered = sorted(
        rows.values(), key=lambda r: (-r["points"], -r["wins"], -r["score"], r["name"])
    )
    for index, row in enumerate(ordered):
        previous = ordered[index - 1] if index else None
        same = previous is not None and all(
            previous[key] == row[key] for key in ("points", "wins", "score")
        )
        row["rank"] = previous["rank"] if same and previous else index + 1
    return ordered
