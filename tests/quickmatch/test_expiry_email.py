"""A seek that expires tells its player once (quickmatch.actions.expire_due_seeks): one
email through the outbox, in their language, however often the sweep runs; none for a seek
matched, withdrawn or still waiting."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from notifications.models import OutboundEmail
from quickmatch import actions
from quickmatch.models import Seek, SeekStatus
from tests.factories import TOY_KIND

pytestmark = pytest.mark.django_db


def _post(user, **terms) -> Seek:
    return actions.do_post_seek(
        user, game=TOY_KIND, players=2, turn_hours_min=24, turn_hours_max=72, **terms
    )


def _later(hours: float):
    return time_machine.travel(timezone.now() + timedelta(hours=hours), tick=False)


def test_an_expired_seek_emails_its_player_once_however_often_the_sweep_runs(
    toy_games, anna, settings
):
    settings.SEEK_HOURS = 2
    seek = _post(anna)
    with _later(1):
        assert actions.expire_due_seeks() == 0
    assert not OutboundEmail.objects.exists()
    with _later(3):
        assert actions.expire_due_seeks() == 1
        assert actions.expire_due_seeks() == 0
        assert actions.pair_waiting_seeks() == 0  # the worker's own expiry: nothing twice
    seek.refresh_from_db()
    assert seek.status == SeekStatus.EXPIRED
    email = OutboundEmail.objects.get()
    assert (email.to, email.template, email.topic) == (
        anna.email,
        "seek_expired",
        f"seek:{seek.id}",
    )
    rendered = email.rendered()
    assert "found no game in time" in rendered.subject
    assert "within 2 hours" in rendered.body_text and "/quickmatch/" in rendered.body_text


def test_withdrawn_and_matched_seeks_send_nothing_when_their_time_passes(toy_games, anna, bert):
    withdrawn = _post(anna)
    actions.do_withdraw_seek(anna, withdrawn.id)
    _post(bert)
    _post(anna)
    assert actions.pair_waiting_seeks() == 1
    with _later(48):
        assert actions.expire_due_seeks() == 0
    assert not OutboundEmail.objects.filter(template="seek_expired").exists()


def test_the_email_is_in_the_players_language(toy_games, anna):
    anna.language = "de"
    anna.save()
    _post(anna)
    with _later(48):
        actions.expire_due_seeks()
    email = OutboundEmail.objects.get(template="seek_expired")
    assert email.language == "de"
    assert '<html lang="de">' in email.rendered().body_html


def test_two_sweeps_that_both_read_a_seek_as_due_email_once(toy_games, anna):
    seek = _post(anna)
    with _later(48):
        now = timezone.now()
        # Both read it waiting and due; the guarded UPDATE lets only the first act.
        assert actions.expire_seek(seek.id, now) is True
        assert actions.expire_seek(seek.id, now) is False
    assert OutboundEmail.objects.filter(template="seek_expired").count() == 1
