"""The SMTP server down for a while, then up: every email is delivered exactly once.

Moves are played over HTTP while nothing listens on the SMTP port: the worker's sends are
refused, recorded (``attempts``, ``last_error``) and put back with a later ``send_after``.
The sink comes back on the same port; we move the retries' due time to now (as the clock
would, a minute later) and the outbox sweep delivers each email once.
"""

import time

from django.utils import timezone

from notifications.models import OutboundEmail
from tests.faults.stack import Status
from tests.servers import wait_until

GAMES = 3
MOVES_PER_GAME = 5


def test_emails_refused_by_a_down_smtp_server_are_each_delivered_once_when_it_is_back(
    stack, table_of, two_player_games
):
    game_ids = two_player_games(GAMES)
    the_stack = stack()
    table = table_of(the_stack)
    since = timezone.now()

    the_stack.smtp_down()
    answers = [table.play_one(game_id) for _ in range(MOVES_PER_GAME) for game_id in game_ids]
    emails = OutboundEmail.objects.filter(created_at__gte=since)
    queued = emails.count()
    # Each email was tried while the server was down, and refused.
    wait_until(
        lambda: emails.filter(status=Status.PENDING, attempts__gte=1).count() == queued,
        30,
        "every email to have been tried and refused",
    )
    refused = emails.exclude(last_error="").count()

    the_stack.smtp_up()
    emails.filter(status=Status.PENDING).update(send_after=timezone.now())  # the clock jumps
    wait_until(lambda: not emails.exclude(status=Status.SENT).exists(), 30, "every email sent")
    wait_until(lambda: the_stack.delivered() >= queued, 10, "the sink to receive them")
    time.sleep(3)  # three more sweeps: they must send nothing again
    counts = the_stack.email_counts(emails)
    attempts = sorted(set(emails.values_list("attempts", flat=True)))
    print(
        f"\nsmtp down: moves {len(answers)}, emails queued {queued}, refused while down"
        f" {refused}, attempts per email {attempts}, after: {counts}"
    )

    assert [answer.status for answer in answers] == [200] * len(answers)
    assert queued >= len(answers) // 2 and refused == queued
    assert counts["expected"] == counts["delivered"] == queued
    assert counts["missing"] == counts["duplicates"] == counts["others"] == 0
    assert min(attempts) >= 2  # refused at least once, then sent
