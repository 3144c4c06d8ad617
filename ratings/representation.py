"""Ratings as JSON: for the API (``ratings.api``) and a person's data export."""

from accounts.models import User
from games.api.representation import datetime_json

from . import service
from .models import Rating, RatingChange


def rating_json(rating: Rating) -> dict:
    """A player's rating at one game: ``rating`` the model's ordinal (mu - 3 sigma) rounded,
    ``display`` the number the pages show (1500 for a new player), ``ordinal`` unrounded,
    the model's ``mu`` and ``sigma``, rated ``games`` and ``provisional``."""
    return {
        "game": rating.kind,
        "rating": rating.rating,
        "display": rating.display,
        "provisional": rating.provisional,
        "games": rating.games,
        "mu": rating.mu,
        "sigma": rating.sigma,
        "ordinal": rating.ordinal,
        "updated": datetime_json(rating.updated_at),
    }


def change_json(change: RatingChange) -> dict:
    """One rated game's change: when, the place among how many, the rating before and after.
    No game id: the history shows results, not which games a reader may not see."""
    return {
        "at": datetime_json(change.at),
        "place": change.rank,
        "players": change.players,
        "rating_before": change.rating_before,
        "rating_after": change.rating_after,
        "display_before": change.before,
        "display_after": change.after,
        "mu": change.mu_after,
        "sigma": change.sigma_after,
    }


def export_ratings(user: User) -> list[dict]:
    """``user``'s ratings with their whole history (the data export's ``ratings.json``)."""
    return [
        {**rating_json(rating), "history": [change_json(c) for c in changes]}
        for rating, changes in service.ratings_of(user, history=10**9)
    ]
