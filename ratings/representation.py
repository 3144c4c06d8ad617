"""Ratings as JSON: for the API (``ratings.api``) and a person's data export."""

from accounts.models import User
from games.api.representation import datetime_json

from . import service
from .models import Rating, RatingChange


def rating_json(rating: Rating) -> dict:
    """A player's rating at one game: ``rating`` the number players see (mu - 3 sigma,
    rounded), the model's ``mu`` and ``sigma``, rated ``games`` and ``provisional``."""
    return {
        "game": rating.kind,
        "rating": rating.display,
        "provisional": rating.provisional,
        "games": rating.games,
        "mu": rating.mu,
        "sigma": rating.sigma,
        "updated": datetime_json(rating.updated_at),
    }


def change_json(change: RatingChange) -> dict:
    """One rated game's change: when, the place among how many, the rating before and after.
    No game id: the history shows results, not which games a reader may not see."""
    return {
        "at": datetime_json(change.at),
        "place": change.rank,
        "players": change.players,
        "rating_before": change.before,
        "rating_after": change.after,
        "mu": change.mu_after,
        "sigma": change.sigma_after,
    }


def export_ratings(user: User) -> list[dict]:
    """``user``'s ratings with their whole history (the data export's ``ratings.json``)."""
    return [
        {**rating_json(rating), "history": [change_json(c) for c in changes]}
        for rating, changes in service.ratings_of(user, history=10**9)
    ]
