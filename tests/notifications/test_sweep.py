"""The every-minute sweep: requeues stuck emails, sends due ones, never one twice."""

import time
from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.core.mail.backends import locmem

from notifications import tasks
from notifications.models import OutboundEmail
from notifications.outbox import STUCK_ERROR, SweepResult, send_due_emails
from piratz_site.celery import app
from tests.concurrency import at_once

pytestmark = pytest.mark.django_db

Status = OutboundEmail.Status


def test_sweep_sends_due_emails_and_leaves_the_others_alone(make_email, mailoutbox, now):
    due = make_email(to="due@example.com", send_after=now - timedelta(minutes=3))
    later = make_email(to="later@example.com", send_after=now + timedelta(minutes=1))
    sent = make_email(to="sent@example.com", status=Status.SENT, sent_at=now)
    failed = make_email(to="failed@example.com", status=Status.FAILED, attempts=6)

    assert send_due_emails() == SweepResult(sent=1)

    assert [message.to for message in mailoutbox] == [["due@example.com"]]
    statuses = dict(OutboundEmail.objects.values_list("id", "status"))
    assert statuses == {
        due.id: Status.SENT,
        later.id: Status.PENDING,
        sent.id: Status.SENT,
        failed.id: Status.FAILED,
    }


def test_sweep_requeues_an_email_stuck_in_sending_and_sends_it(make_email, mailoutbox, now):
    stuck = make_email(status=Status.SENDING, claimed_at=now - timedelta(minutes=11), attempts=1)
    in_progress = make_email(status=Status.SENDING, claimed_at=now - timedelta(minutes=9))

    assert send_due_emails() == SweepResult(requeued=1, sent=1)

    stuck.refresh_from_db()
    assert (stuck.status, stuck.attempts) == (Status.SENT, 3)  # the lost attempt counts
    in_progress.refresh_from_db()
    assert in_progress.status == Status.SENDING
    assert len(mailoutbox) == 1


def test_email_that_keeps_killing_its_worker_ends_up_failed(make_email, settings, now):
    settings.EMAIL_MAX_ATTEMPTS = 3
    stuck = make_email(status=Status.SENDING, claimed_at=now - timedelta(hours=1), attempts=2)

    assert send_due_emails() == SweepResult(requeued=1)

    stuck.refresh_from_db()
    assert (stuck.status, stuck.attempts, stuck.last_error) == (Status.FAILED, 3, STUCK_ERROR)


def test_sweep_retries_an_email_whose_backoff_is_over(
    make_email, mail_server_fails, mailoutbox, now, time_machine
):
    email = make_email()
    mail_server_fails(ConnectionResetError("reset by peer"))

    assert send_due_emails() == SweepResult(retrying=1)
    assert send_due_emails() == SweepResult()  # backing off
    time_machine.shift(timedelta(minutes=1))
    assert send_due_emails() == SweepResult(sent=1)

    email.refresh_from_db()
    assert (email.status, email.attempts) == (Status.SENT, 2)
    assert len(mailoutbox) == 1


def test_two_overlapping_sweeps_send_each_email_once(make_email, monkeypatch, mailoutbox, now):
    """Sweep A has claimed both emails (one chunk); sweep B runs while A sends the first
    one, and finds nothing left to claim: no email twice, no claim spent on A's."""
    first = make_email(to="first@example.com", send_after=now - timedelta(minutes=2))
    second = make_email(to="second@example.com", send_after=now - timedelta(minutes=1))
    deliver = locmem.EmailBackend.send_messages
    sweep_b_results = []
    sweep_b_started = False

    def deliver_while_sweep_b_runs(self, messages):
        nonlocal sweep_b_started
        if not sweep_b_started:  # only during the first send, which is sweep A's
            sweep_b_started = True
            sweep_b_results.append(send_due_emails())
        return deliver(self, messages)

    monkeypatch.setattr(locmem.EmailBackend, "send_messages", deliver_while_sweep_b_runs)
    sweep_a = send_due_emails()

    assert sweep_b_results == [SweepResult()]
    assert sweep_a == SweepResult(sent=2)
    assert sorted(message.to[0] for message in mailoutbox) == [
        "first@example.com",
        "second@example.com",
    ]
    assert set(OutboundEmail.objects.values_list("status", flat=True)) == {Status.SENT}
    assert {first.id, second.id} == set(OutboundEmail.objects.values_list("id", flat=True))


@pytest.mark.postgres("SQLite serialises the claims whole, so sweeps cannot overlap")
@pytest.mark.django_db(transaction=True)
def test_concurrent_sweeps_claim_different_emails(make_email, mailoutbox, monkeypatch):
    """Drains and sweeps over a backlog: each takes emails no other holds (SKIP LOCKED).
    Walking one shared list with a claim per email, 4 of them lost 3 claims per email."""
    emails = [make_email(to=f"player{n}@example.com") for n in range(60)]
    deliver = locmem.EmailBackend.send_messages

    def like_smtp(self, messages):
        time.sleep(0.002)  # a round trip to the mail server: the sweeps overlap meanwhile
        return deliver(self, messages)

    monkeypatch.setattr(locmem.EmailBackend, "send_messages", like_smtp)

    results = at_once([send_due_emails] * 4)

    assert sum(result.sent for result in results) == 60
    assert sum(result.skipped for result in results) == 0
    assert sorted(message.to[0] for message in mailoutbox) == sorted(e.to for e in emails)
    assert set(OutboundEmail.objects.values_list("status", flat=True)) == {Status.SENT}


def test_sweep_tries_at_most_its_limit_oldest_due_first(make_email, mailoutbox, now):
    for minutes in (1, 3, 2):
        make_email(to=f"{minutes}@example.com", send_after=now - timedelta(minutes=minutes))

    assert send_due_emails(limit=2) == SweepResult(sent=2)

    assert [message.to[0] for message in mailoutbox] == ["3@example.com", "2@example.com"]


def test_sweep_task_reports_what_it_did(make_email, mailoutbox, now):
    make_email()
    assert tasks.send_due_emails.delay().get() == {
        "requeued": 0,
        "sent": 1,
        "retrying": 0,
        "failed": 0,
        "skipped": 0,
        "held": 0,
        "dropped": 0,
    }


def test_send_task_sends_by_id(make_email, mailoutbox, now):
    email = make_email()
    assert tasks.send_emails.delay([email.id]).get() == {"sent": 1}
    assert len(mailoutbox) == 1


def test_send_task_of_one_email_still_runs_for_those_queued_before_batching(
    make_email, mailoutbox, now
):
    email = make_email()
    assert tasks.send_email.delay(email.id).get() == "sent"
    assert len(mailoutbox) == 1


def test_sweep_runs_every_minute_on_celery_beat():
    entry = django_settings.CELERY_BEAT_SCHEDULE["send-due-emails"]
    assert entry["schedule"] == 60
    assert entry["task"] in app.tasks
