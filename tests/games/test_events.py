"""games.events: every applied move, start and end is announced once, in order, in the
transaction that made it (so a rolled-back change announces nothing)."""

from contextlib import contextmanager
from datetime import timedelta

import pytest
import time_machine
from django.db import transaction
from django.utils import timezone

from core.errors import ServiceError
from games import actions, events, sweeps
from games.models import GameStatus
from tests.factories import start_game, toy_move

pytestmark = pytest.mark.django_db


@contextmanager
def heard():
    """The announcements made inside the block, as (signal name, version, extra) tuples."""
    seen = []
    receivers = {}
    for name in ("move_applied", "game_started", "game_ended"):

        def receiver(sender, game, name=name, **kwargs):
            move = kwargs.get("move")
            seen.append((name, game.version, game.status, move.number if move else None))

        receivers[name] = receiver
        getattr(events, name).connect(receiver)
    try:
        yield seen
    finally:
        for name, receiver in receivers.items():
            getattr(events, name).disconnect(receiver)


def test_accepting_the_last_seat_announces_the_start(anna, bert):
    game = actions.do_create_game(anna, [anna.email, bert.email])
    with heard() as seen:
        actions.do_accept_invitation(game.id, bert)
    assert seen == [("game_started", 0, GameStatus.ACTIVE, None)]


def test_each_move_is_announced_with_its_number(toy_game, anna, bert):
    game = toy_game
    with heard() as seen:
        for version, user in ((0, anna), (1, bert)):
            game.refresh_from_db()
            actions.do_play_move(game.id, user, version, toy_move(game))
    assert seen == [
        ("move_applied", 1, GameStatus.ACTIVE, 1),
        ("move_applied", 2, GameStatus.ACTIVE, 2),
    ]


def test_a_refused_move_announces_nothing(anna, bert):
    game = start_game([anna, bert])
    with heard() as seen, pytest.raises(ServiceError):
        actions.do_play_move(game.id, bert, 0, {"action": "reveal"})
    assert seen == []


def test_a_rolled_back_move_is_heard_only_inside_its_transaction(anna, bert):
    """Receivers run inside the transaction: the work they schedule with on_commit dies
    with it. This pins that the signal is sent before commit, not after."""
    game = start_game([anna, bert])

    def move_then_fail():
        with transaction.atomic():
            actions.do_play_move(game.id, anna, 0, {"action": "reveal"})
            raise RuntimeError("roll back")

    with heard() as seen, pytest.raises(RuntimeError):
        move_then_fail()
    assert [name for name, *_ in seen] == ["move_applied"]
    game.refresh_from_db()
    assert game.version == 0


def test_the_last_move_is_announced_before_the_end(toy_game, anna, bert):
    game = toy_game
    with heard() as seen:
        while True:
            game.refresh_from_db()
            if game.status != GameStatus.ACTIVE:
                break
            user = anna if game.current_seat == 0 else bert
            actions.do_play_move(game.id, user, game.version, toy_move(game))
    assert seen[-1][0] == "game_ended"
    assert seen[-2] == ("move_applied", game.version, GameStatus.FINISHED, game.version)
    assert [name for name, *_ in seen].count("game_ended") == 1
    assert len(seen) == game.version + 1


def test_abort_decline_and_expiry_announce_the_end(anna, bert, carla, moderator):
    aborted = start_game([anna, bert])
    declined = actions.do_create_game(anna, [anna.email, bert.email])
    actions.do_create_game(anna, [anna.email, carla.email])  # expires
    with heard() as seen:
        actions.do_abort_game(aborted.id, moderator, reason="testing")
        actions.do_decline_invitation(declined.id, bert)
        with time_machine.travel(timezone.now() + timedelta(days=8)):
            assert sweeps.cancel_expired_invitations() == 1
            assert sweeps.cancel_expired_invitations() == 0
    assert [(name, status) for name, _, status, _ in seen] == [
        ("game_ended", GameStatus.ABORTED),
        ("game_ended", GameStatus.CANCELLED),
        ("game_ended", GameStatus.CANCELLED),
    ]
