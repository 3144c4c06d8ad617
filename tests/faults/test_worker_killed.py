"""A Celery worker SIGKILLed in the middle of a sweep over many due games.

Eighty games are past their deadline and twenty more are due a turn reminder. The
worker (and its pool) is killed at the worst moment: one game's transaction has written
its move but not committed. A new worker takes over; every timeout is played exactly once
and every reminder sent at most once, each email delivered once (the emails a killed worker
had claimed, a chunk at most, are given back after the outbox's timeout; the one it may
have had in hand goes at least once).
"""

from datetime import timedelta

from django.utils import timezone

from notifications.models import SENDING_TIMEOUT, OutboundEmail
from notifications.outbox import CLAIM_CHUNK, requeue_stuck_emails
from tests.faults.stack import Status
from tests.games.test_exactly_once import (
    games_due_a_reminder,
    moves_per_game,
    overdue_games,
    played,
    writing_transactions,
)
from tests.servers import wait_until

OVERDUE = 80
DUE_A_REMINDER = 20


def test_a_worker_killed_mid_sweep_plays_each_timeout_once_and_reminds_at_most_once(
    stack, anna, bert
):
    game_ids = overdue_games(anna, bert, OVERDUE)
    reminded_ids = games_due_a_reminder(anna, bert, DUE_A_REMINDER)
    since = timezone.now()
    the_stack = stack(worker=False, web=False)  # beat only: the worker starts below
    worker = the_stack.start_worker("doomed", concurrency=1)

    at_kill = wait_until(
        lambda: (
            (0 < (count := played(game_ids)) < OVERDUE - 30) and writing_transactions() and count
        ),
        60,
        "the sweep under way, a game's move written but not committed",
        every=0.002,
    )
    worker.kill()
    killed_at = timezone.now()
    after_kill = played(game_ids)
    the_stack.start_worker("w2")
    wait_until(lambda: played(game_ids) == OVERDUE, 60, "every timeout to be played")

    reminders = OutboundEmail.objects.filter(created_at__gte=since, template="reminder")
    wait_until(lambda: reminders.count() >= DUE_A_REMINDER, 30, "the reminders")
    emails = OutboundEmail.objects.filter(created_at__gte=since)
    # Sent, but for those the killed worker had claimed (a chunk at most), still "sending".
    wait_until(
        lambda: (
            not emails.filter(status=Status.PENDING).exists()
            and not emails.filter(status=Status.SENDING, claimed_at__gte=killed_at).exists()
        ),
        60,
        "the emails to be sent",
    )
    stuck = emails.filter(status=Status.SENDING).count()
    # The clock jumps past the outbox's timeout: those emails are given back, due now.
    requeue_stuck_emails(timezone.now() + SENDING_TIMEOUT + timedelta(seconds=1))
    emails.filter(status=Status.PENDING).update(send_after=timezone.now())
    wait_until(lambda: not emails.exclude(status=Status.SENT).exists(), 30, "the requeued email")
    wait_until(lambda: the_stack.delivered() >= emails.count(), 15, "the sink to get them")

    timeouts = moves_per_game(game_ids)
    reminder_topics = list(reminders.values_list("topic", flat=True))
    counts = the_stack.email_counts(emails)
    print(
        f"\nworker killed: timeouts due {OVERDUE}, played at the kill {at_kill}-{after_kill},"
        f" played in all {sum(timeouts.values())} (games played twice:"
        f" {sum(n > 1 for n in timeouts.values())}); reminders due {DUE_A_REMINDER}, sent"
        f" {len(reminder_topics)} (distinct games {len(set(reminder_topics))}); emails"
        f" stuck at the kill {stuck}, {counts}"
    )

    assert at_kill <= after_kill < OVERDUE  # the kill left work undone...
    assert timeouts == dict.fromkeys(game_ids, 1)  # ...done later, each exactly once
    assert len(reminder_topics) == len(set(reminder_topics)) <= DUE_A_REMINDER
    assert moves_per_game(reminded_ids) == {}
    assert stuck <= CLAIM_CHUNK  # at most the chunk claimed before the kill
    assert counts["missing"] == counts["others"] == 0
    # Concurrency 1: only the email in hand at the kill may have gone out and go again.
    assert counts["duplicates"] <= min(stuck, 1)
