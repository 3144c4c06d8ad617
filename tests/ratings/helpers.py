"""Finished games for the ratings tests: ended through the actions' own ``end_game``, so
the ``game_ended`` signal fires as in play, with a result the test chooses."""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games.actions.common import end_game
from games.models import EndReason, Game, GameStatus
from tests.factories import start_game

_clock = [timezone.now() - timedelta(days=30)]


def result(scores: list[int], *, winners: list[int] | None = None, resigned=()) -> dict:
    """A game's result in the shape both games keep: players' scores, the winners (by
    default the best score: ties share) and the resigned seats, if any."""
    if winners is None:
        winners = [seat for seat, score in enumerate(scores) if score == max(scores)]
    found = {
        "players": [{"seat": seat, "score": score} for seat, score in enumerate(scores)],
        "winners": winners,
    }
    if resigned:
        found["resigned"] = list(resigned)
    return found


def finish(game: Game, outcome: dict | None, *, status: str = GameStatus.FINISHED) -> Game:
    """End ``game`` with ``outcome`` (``status``: finished, or aborted/cancelled), each game
    a minute after the last one ended (the order a rebuild follows)."""
    _clock[0] += timedelta(minutes=1)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        game.result = outcome
        reason = EndReason.NONE if status == GameStatus.FINISHED else EndReason.MODERATOR
        end_game(game, status, reason, _clock[0])
    return game


def played(users, scores: list[int], **options) -> Game:
    """A started game of ``users`` (seat order) finished with ``scores``."""
    winners = options.pop("winners", None)
    resigned = options.pop("resigned", ())
    return finish(start_game(users, **options), result(scores, winners=winners, resigned=resigned))
