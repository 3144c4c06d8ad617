"""The service layer beyond the API: expiry sweep, automatic moves (P24, P25), moderation."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games import actions, sweeps, tasks
from games.models import Actor, EndReason, Game, GameStatus, Move
from tests.factories import TOY_KIND, start_game, start_toy_game

pytestmark = pytest.mark.django_db


class TestInvitationExpiry:
    def test_unanswered_game_is_cancelled_after_seven_days_once(
        self, toy_games, anna, bert, mailoutbox, django_capture_on_commit_callbacks
    ):
        game = actions.do_create_game(anna, [anna.email, bert.email], game=TOY_KIND)
        mailoutbox.clear()
        with time_machine.travel(timezone.now() + timedelta(days=6, hours=23)):
            assert sweeps.cancel_expired_invitations() == 0
        with time_machine.travel(timezone.now() + timedelta(days=7, minutes=1)):
            with django_capture_on_commit_callbacks(execute=True):
                assert tasks.cancel_expired_invitations() == 1
            assert sweeps.cancel_expired_invitations() == 0  # a second sweep does nothing

        game.refresh_from_db()
        assert (game.status, game.end_reason) == (GameStatus.CANCELLED, EndReason.EXPIRED)
        assert sorted(m.to[0] for m in mailoutbox) == [anna.email, bert.email]
        assert "in time" in mailoutbox[0].body

    def test_started_games_are_not_touched(self, toy_games, anna, bert):
        game = start_toy_game([anna, bert])
        with time_machine.travel(timezone.now() + timedelta(days=30)):
            assert sweeps.cancel_expired_invitations() == 0
        assert Game.objects.get(id=game.id).status == GameStatus.ACTIVE


class TestAutomaticMove:
    def test_deadline_passed_plays_the_timeout_action_once(self, toy_game):
        game, rules = toy_game, toy_game.rules  # any game: the engine's own timeout_action
        state = rules.load(game.state)
        expected = rules.apply(state, 0, rules.timeout_action(state))
        with time_machine.travel(game.deadline + timedelta(seconds=1)):
            assert actions.do_play_timeout(game.id, expected_version=0) is not None
            assert actions.do_play_timeout(game.id, expected_version=0) is None  # new deadline

        game.refresh_from_db()
        assert game.version == 1
        assert rules.load(game.state) == expected
        move = Move.objects.get(game=game)
        assert (move.automatic, move.actor, move.seat) == (True, Actor.SERVICE, 0)

    def test_a_move_between_the_sweeps_read_and_its_action_makes_it_do_nothing(self, game, anna):
        # The sweep saw version 0 with the deadline passed; before its action runs, Anna
        # reveals a card. That keeps her turn (no new deadline: it is still passed), so
        # only the version guard stands between the stale sweep and a second move.
        with time_machine.travel(game.deadline + timedelta(seconds=1)):
            actions.do_play_move(game.id, anna, 0, {"action": "reveal"})
            game.refresh_from_db()
            assert game.deadline < timezone.now() and game.current_seat == 0

            assert actions.do_play_timeout(game.id, expected_version=0) is None

        game.refresh_from_db()
        assert game.version == 1
        assert list(Move.objects.values_list("automatic", "actor")) == [(False, Actor.PLAYER)]

    def test_nothing_happens_before_the_deadline(self, toy_game):
        assert actions.do_play_timeout(toy_game.id, expected_version=0) is None
        assert not Move.objects.exists()

    def test_moderator_can_force_it_any_time(self, toy_game, moderator):
        actions.do_play_timeout(toy_game.id, moderator=moderator, reason="test")
        move = Move.objects.get(game=toy_game)
        assert (move.actor, move.actor_user) == (Actor.MODERATOR, moderator)

    def test_p25_a_round_of_only_automatic_moves_aborts_the_game(self, anna, bert, moderator):
        game = start_game([anna, bert], seed=3)
        while game.status == GameStatus.ACTIVE and game.round == 1:
            actions.do_play_timeout(game.id, moderator=moderator, reason="test")
            game.refresh_from_db()
        assert (game.status, game.end_reason) == (GameStatus.ABORTED, EndReason.ABANDONED)
        assert game.result is None and game.deadline is None

    def test_p25_one_real_move_keeps_the_game_going(self, anna, bert, moderator):
        game = start_game([anna, bert], seed=3)
        actions.do_play_move(game.id, anna, 0, {"action": "reveal"})
        game.refresh_from_db()
        while game.status == GameStatus.ACTIVE and game.round == 1:
            actions.do_play_timeout(game.id, moderator=moderator, reason="test")
            game.refresh_from_db()
        assert game.status == GameStatus.ACTIVE and game.round == 2


class TestModeration:
    def test_extend_deadline(self, toy_game, moderator):
        before = toy_game.deadline
        actions.do_extend_deadline(toy_game.id, moderator, 24, reason="test")
        toy_game.refresh_from_db()
        assert toy_game.deadline == before + timedelta(hours=24)

    @pytest.mark.parametrize("hours", [0, 721, "5"])
    def test_extend_deadline_rejects_bad_hours(self, toy_game, moderator, hours):
        with pytest.raises(actions.ServiceError) as refused:
            actions.do_extend_deadline(toy_game.id, moderator, hours, reason="test")
        assert refused.value.code == "invalid"

    def test_abort(self, toy_game, moderator):
        assert toy_game.next_reminder_at is not None  # the turn's first reminder, pending
        actions.do_abort_game(toy_game.id, moderator, reason="test")
        toy_game.refresh_from_db()
        assert (toy_game.status, toy_game.end_reason) == (GameStatus.ABORTED, EndReason.MODERATOR)
        # Nothing is due any more (the admin showed an aborted game's "next reminder").
        still_due = (toy_game.deadline, toy_game.next_reminder_at, toy_game.current_seat)
        assert still_due == (None, None, None)
        with pytest.raises(actions.ServiceError) as refused:
            actions.do_abort_game(toy_game.id, moderator, reason="test")
        assert refused.value.code == "game_not_active"
        with pytest.raises(actions.ServiceError):
            actions.do_play_timeout(toy_game.id, moderator=moderator, reason="test")
