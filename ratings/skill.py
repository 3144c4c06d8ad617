"""The rating model: openskill's Bradley-Terry with full pairing (Weng-Lin), for 2-4
players and shared places.

Full pairing rates a game of three or four as each pair of its players: a win, a draw
(a shared place) or a loss. Its Plackett-Luce model was the first choice, but it moves
the player in third place of four as far up as two winners sharing first place (places
1, 1, 3, 4), which a shared win must not do; tests/ratings/test_skill.py holds this.

Pure: numbers in, numbers out (no database), so the live update and the rebuild compute
the same floats from the same inputs in the same order. The model's parameters are
spelled out here rather than left to the library's defaults, so an upgrade of openskill
cannot silently change what a game does to a rating.
"""

from collections.abc import Sequence

from openskill.models import BradleyTerryFull

# A new player's estimate (mu) and its uncertainty (sigma): the ordinal mu - 3 sigma is 0.
MU = 25.0
SIGMA = 25.0 / 3.0
MODEL = BradleyTerryFull(
    mu=MU,
    sigma=SIGMA,
    beta=25.0 / 6.0,  # the scale of a skill gap's effect on who wins
    kappa=0.0001,
    tau=25.0 / 300.0,  # sigma grows back a little each game: skills change
    limit_sigma=False,
    balance=False,
)


def rate(before: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """Each player's ``(mu, sigma)`` after a game they played from ``before`` (the same
    order), finishing at ``ranks`` (1 best; equal ranks share the place, e.g. a shared win)."""
    teams = [[MODEL.create_rating([mu, sigma])] for mu, sigma in before]
    after = MODEL.rate(teams, ranks=list(ranks))
    return [(team[0].mu, team[0].sigma) for team in after]


def ranks_of(result: dict, seats: Sequence[int]) -> dict[int, int]:
    """Seat -> its place in a finished game's ``result`` (``Game.result``): the winners share
    place 1; the others follow by score, best first, equal scores sharing a place; a
    resigned seat (``result["resigned"]``) comes last whatever it scored (a loss, P26/R37).
    Places count as in sports: two sharing place 1 are followed by place 3."""
    winners = set(result.get("winners") or [])
    resigned = set(result.get("resigned") or [])
    scores = {
        player["seat"]: player.get("score") or 0
        for player in result.get("players") or []
        if isinstance(player, dict) and "seat" in player
    }

    def standing(seat: int) -> tuple[int, float]:
        if seat in resigned:
            return (2, 0)
        if seat in winners:
            return (0, 0)
        return (1, -scores.get(seat, 0))

    ordered = sorted(seats, key=standing)
    places: dict[int, int] = {}
    for index, seat in enumerate(ordered):
        same = index and standing(seat) == standing(ordered[index - 1])
        places[seat] = places[ordered[index - 1]] if same else index + 1
    return places
