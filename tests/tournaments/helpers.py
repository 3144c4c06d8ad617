"""Builders for tournament tests: players, a tournament of the toy game, its start, its
games played through the actions."""

from datetime import timedelta

import time_machine
from django.test import TestCase
from django.utils import timezone

from accounts.models import User
from games.models import Game
from ratings.models import Rating
from tests.factories import TOY_KIND, make_user, play_toy_moves
from tournaments import actions
from tournaments.models import Pairing, Result, Tournament

# Tic-tac-toe (tests/toygame): X (seat 0, the pairing's first) wins along the top row;
# the other a full board without a line.
FIRST_WINS = [1, 4, 2, 5, 3]
SECOND_WINS = [1, 4, 2, 5, 9, 6]
DRAW = [1, 2, 3, 5, 4, 6, 8, 7, 9]


def people(count: int, *, ratings: list[int] | None = None) -> list[User]:
    """``count`` players P1..Pn; with ``ratings``, each a toy-game rating shown as that."""
    made = [make_user(f"p{n}@example.com", display_name=f"P{n}") for n in range(1, count + 1)]
    for person, shown in zip(made, ratings or [], strict=False):
        # display = 1500 + 20 * (mu - 3 sigma): sigma 1, mu from the wanted number.
        Rating.objects.create(
            user=person,
            kind=TOY_KIND,
            mu=(shown - 1500) / 20 + 3,
            sigma=1,
            games=10,
            updated_at=timezone.now(),
        )
    return made


def tournament(organiser: User, **options) -> Tournament:
    options.setdefault("name", "Spring open")
    options.setdefault("game", TOY_KIND)
    options.setdefault("starts_at", timezone.now() + timedelta(hours=1))
    return actions.do_create_tournament(organiser, **options)


def start(t: Tournament) -> int:
    """Travel past the start and run the start sweep (after-commit work runs)."""
    later = t.starts_at + timedelta(seconds=1)
    with time_machine.travel(later, tick=False), TestCase.captureOnCommitCallbacks(execute=True):
        claimed = actions.start_due_tournaments()
    t.refresh_from_db()
    return claimed


def current_pairings(t: Tournament) -> list[Pairing]:
    t.refresh_from_db()
    return list(
        Pairing.objects.filter(round__tournament=t, round__number=t.current_round).select_related(
            "first__user", "second__user", "game"
        )
    )


def play(pairing_row: Pairing, cells: list[int]) -> Game:
    """Play the pairing's game out with ``cells`` (after-commit work, the advance, runs)."""
    assert pairing_row.game is not None and pairing_row.second is not None
    users = [pairing_row.first.user, pairing_row.second.user]
    with TestCase.captureOnCommitCallbacks(execute=True):
        return play_toy_moves(Game.objects.get(id=pairing_row.game_id), users, cells)


def play_round(t: Tournament, cells: list[int] = FIRST_WINS) -> list[Pairing]:
    """Every pending game of the current round played with ``cells``; the round's rows."""
    rows = current_pairings(t)
    for row in rows:
        if row.result == Result.PENDING:
            play(row, cells)
    return rows
