"""Invitations: an expired invitation is closed; the cancellation email fits its reader."""

from datetime import timedelta

import pytest
import time_machine

from games import actions, sweeps
from games.models import EndReason, Game, GameStatus, Seat
from tests.factories import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def invited(anna, bert, carla) -> Game:
    """A game Anna created for Bert and Carla; Carla has accepted, Bert has not answered."""
    game = actions.do_create_game(anna, [anna.email, bert.email, carla.email])
    actions.do_accept_invitation(game.id, carla)
    return Game.objects.get(id=game.id)


class TestExpiredInvitation:
    def test_accepting_after_expiry_is_refused_and_changes_nothing(self, invited, bert):
        later = invited.invitation_expires_at + timedelta(minutes=1)
        with time_machine.travel(later), pytest.raises(actions.ServiceError) as refused:
            actions.do_accept_invitation(invited.id, bert)
        assert refused.value.code == "game_not_active"
        assert "expired" in refused.value.detail
        assert Game.objects.get(id=invited.id).status == GameStatus.INVITED
        assert Seat.objects.get(game=invited, user=bert).accepted_at is None

    def test_the_expiry_moment_itself_is_closed_as_the_sweep_sees_it(self, invited, bert):
        with time_machine.travel(invited.invitation_expires_at, tick=False):
            with pytest.raises(actions.ServiceError):
                actions.do_accept_invitation(invited.id, bert)
            assert sweeps.cancel_expired_invitations() == 1

    def test_accepting_just_before_expiry_starts_the_game(self, invited, bert):
        with time_machine.travel(invited.invitation_expires_at - timedelta(seconds=1), tick=False):
            game = actions.do_accept_invitation(invited.id, bert)
        assert game.status == GameStatus.ACTIVE

    def test_declining_after_expiry_is_refused_and_the_sweep_cancels(self, invited, bert):
        with time_machine.travel(invited.invitation_expires_at + timedelta(minutes=1)):
            with pytest.raises(actions.ServiceError) as refused:
                actions.do_decline_invitation(invited.id, bert)
            assert "expired" in refused.value.detail
            assert sweeps.cancel_expired_invitations() == 1
        game = Game.objects.get(id=invited.id)
        assert (game.status, game.end_reason) == (GameStatus.CANCELLED, EndReason.EXPIRED)

    def test_the_api_refuses_with_a_clear_message(self, invited, bert):
        with time_machine.travel(invited.invitation_expires_at + timedelta(hours=1)):
            response = client_for(bert).post(f"/api/games/{invited.id}/accept/")
        assert response.status_code == 409
        body = response.json()
        assert body["code"] == "game_not_active"
        expires = invited.invitation_expires_at.strftime("%Y-%m-%d %H:%M")
        assert body["detail"] == (
            f"This invitation expired on {expires} UTC; the game will not take place."
        )
        assert Game.objects.get(id=invited.id).status == GameStatus.INVITED


class TestCancellationEmail:
    def _cancel(self, game, user, mailoutbox, capture):
        mailoutbox.clear()
        with capture(execute=True):
            actions.do_decline_invitation(game.id, user)
        return {email.to[0]: email for email in mailoutbox}

    def test_the_host_gets_the_hosts_text(
        self, invited, anna, bert, mailoutbox, django_capture_on_commit_callbacks
    ):
        emails = self._cancel(invited, bert, mailoutbox, django_capture_on_commit_callbacks)
        to_host = emails[anna.email]
        html = to_host.alternatives[0][0]
        for text in (to_host.subject, to_host.body, html):
            assert "Ask" not in text and "Anna" not in text  # not "ask Anna", not "with Anna"
        assert to_host.subject == "The game of Piratz you set up is cancelled"
        assert "The game of Piratz you set up will not take place: Bert declined" in to_host.body
        assert "You can set up a new game any time." in to_host.body
        assert "You can set up a new game any time." in html

    def test_the_other_players_are_told_to_ask_the_host(
        self, invited, anna, bert, carla, mailoutbox, django_capture_on_commit_callbacks
    ):
        emails = self._cancel(invited, bert, mailoutbox, django_capture_on_commit_callbacks)
        assert bert.email not in emails  # who declined is not told about it
        to_carla = emails[carla.email]
        assert to_carla.subject == "Your game of Piratz with Anna is cancelled"
        assert "Ask Anna to invite you again any time." in to_carla.body
        assert "Ask Anna to invite you again any time." in to_carla.alternatives[0][0]
