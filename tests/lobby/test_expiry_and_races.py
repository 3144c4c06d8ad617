"""An open game whose seats were not all taken in time is closed once, its players told;
and the last seat, taken by two people at the same moment, starts the game exactly once."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from core.errors import ServiceError
from games.models import EndReason, Game, GameStatus, Move, Seat
from lobby import actions
from lobby.models import Closed, OpenGame
from notifications.models import OutboundEmail
from tests.concurrency import at_once
from tests.factories import make_user


def _open(host, **options) -> OpenGame:
    return actions.do_create_open_game(host, **{"game": "piratz", "seats": 3, **options})


@pytest.mark.django_db
class TestExpiry:
    def test_the_sweep_closes_a_game_once_and_tells_the_host_and_joiners(
        self, anna, bert, settings
    ):
        open_game = _open(anna)
        actions.do_join_open_game(open_game.pk, bert)
        assert actions.expire_open_games() == 0  # not due yet
        later = timezone.now() + timedelta(hours=settings.OPEN_GAME_HOURS, minutes=1)
        with time_machine.travel(later, tick=False):
            assert actions.expire_open_games() == 1
            assert actions.expire_open_games() == 0  # twice: acts once
        game = Game.objects.get(pk=open_game.pk)
        assert (game.status, game.end_reason) == (GameStatus.CANCELLED, EndReason.EXPIRED)
        open_game.refresh_from_db()
        assert open_game.closed == Closed.EXPIRED
        emails = {
            e.to: e.rendered() for e in OutboundEmail.objects.filter(template="open_game_closed")
        }
        assert set(emails) == {anna.email, bert.email}
        assert emails[anna.email].subject == "Your open game of Piratz did not fill up in time"
        assert "Not every open seat of your game of Piratz was taken in time" in (
            emails[anna.email].body_text
        )
        assert "/lobby/" in emails[bert.email].body_text
        assert (
            emails[bert.email].subject == "The open game of Piratz by Anna did not fill up in time"
        )

    def test_the_email_is_in_each_readers_language(self, anna, bert, settings):
        bert.language = "de"
        bert.save()
        open_game = _open(anna)
        actions.do_join_open_game(open_game.pk, bert)
        with time_machine.travel(timezone.now() + timedelta(hours=49), tick=False):
            actions.expire_open_games()
        email = OutboundEmail.objects.get(template="open_game_closed", to=bert.email).rendered()
        assert email.language == "de"

    def test_a_game_that_started_or_was_withdrawn_is_not_swept(self, anna, bert, carla):
        started = _open(anna, seats=2)
        actions.do_join_open_game(started.pk, bert)
        withdrawn = _open(carla)
        actions.do_withdraw_open_game(withdrawn.pk, carla)
        with time_machine.travel(timezone.now() + timedelta(hours=49), tick=False):
            assert actions.expire_open_games() == 0
        assert Game.objects.get(pk=started.pk).status == GameStatus.ACTIVE
        assert not OutboundEmail.objects.filter(template="open_game_closed").exists()

    def test_a_game_cancelled_elsewhere_leaves_the_lobby_without_an_email(self, anna):
        open_game = _open(anna)
        Game.objects.filter(pk=open_game.pk).update(status=GameStatus.CANCELLED)
        with time_machine.travel(timezone.now() + timedelta(hours=49), tick=False):
            assert actions.expire_open_games() == 0
        open_game.refresh_from_db()
        assert open_game.closed == Closed.CANCELLED
        assert not OutboundEmail.objects.exists()


@pytest.mark.postgres("row locks: two people take the last seat at the same moment")
@pytest.mark.django_db(transaction=True)
def test_the_last_seat_taken_twice_at_once_starts_the_game_exactly_once():
    host = make_user("host@example.com")
    joiners = [make_user(f"joiner{n}@example.com") for n in range(6)]
    for round_number in range(3):
        open_game = _open(host, seats=3)
        actions.do_join_open_game(open_game.pk, joiners[2 * round_number])
        calls = [
            lambda user=user, game_id=open_game.pk: _join_or_refusal(game_id, user)
            for user in (
                joiners[2 * round_number + 1],
                make_user(f"late{round_number}@example.com"),
            )
        ]
        outcomes = at_once(calls)
        assert sorted(outcomes, key=str) == sorted([True, "not_found"], key=str), outcomes
        game = Game.objects.get(pk=open_game.pk)
        assert game.status == GameStatus.ACTIVE and game.version == 0
        assert Seat.objects.filter(game=game).count() == 3
        assert not Move.objects.filter(game=game).exists()
        started_emails = OutboundEmail.objects.filter(
            template="game_started", topic=f"game:{game.id}"
        )
        assert started_emails.count() == 3  # one per player: started once
        # The host may put another game in the lobby (this one left it).
        assert OpenGame.objects.get(pk=game.pk).closed == Closed.STARTED


@pytest.mark.postgres("row locks: sweeps racing each other and the last join")
@pytest.mark.django_db(transaction=True)
def test_two_sweeps_and_the_last_join_at_once_act_once(settings):
    host, first, last = (make_user(f"{name}@example.com") for name in ("host", "first", "last"))
    open_game = _open(host)
    actions.do_join_open_game(open_game.pk, first)
    due = open_game.expires_at
    OpenGame.objects.filter(pk=open_game.pk).update(
        expires_at=timezone.now() + timedelta(seconds=2)
    )
    with time_machine.travel(due, tick=True):
        outcomes = at_once(
            [
                actions.expire_open_games,
                actions.expire_open_games,
                lambda: _join_or_refusal(open_game.pk, last),
            ]
        )
    game = Game.objects.get(pk=open_game.pk)
    closed = OutboundEmail.objects.filter(template="open_game_closed").count()
    if game.status == GameStatus.ACTIVE:
        assert outcomes == [0, 0, True] and closed == 0
    else:
        assert sorted(outcomes[:2]) == [0, 1] and outcomes[2] == "not_found"
        assert closed == 2  # the host and the one who joined, once each


def _join_or_refusal(game_id, user):
    try:
        return actions.do_join_open_game(game_id, user)[1]
    except ServiceError as refusal:
        return refusal.code
