"""Redis (the broker) stopped while games are played, then started again.

Every move succeeds while the broker is gone (the email is an outbox row committed with
the move; publishing its send task gives up quickly). Once Redis is back, empty as after a
crash, the worker and beat reconnect and the outbox sweep delivers every queued email once.
Run twice: with the throttle counters in the database, and on the same Redis as the
broker, as production keeps them (the throttles then let requests through uncounted).

And a worker that holds a task when Redis goes (its message not yet acknowledged) lives
on and takes tasks again once Redis is back (Celery 5.7.0 alone dies there: decision 0010).
"""

import time

import pytest
from django.utils import timezone

from games.models import Game
from notifications.models import OutboundEmail
from tests.faults.stack import Status
from tests.processes import SilentSmtpServer
from tests.servers import wait_until

GAMES = 3
MOVES_PER_GAME = 4


@pytest.mark.parametrize("counters", ["database", "redis"])
def test_moves_succeed_without_the_broker_and_its_emails_go_out_once_after(
    stack, table_of, two_player_games, counters
):
    game_ids = two_player_games(GAMES)
    the_stack = stack(counters_on_redis=counters == "redis")
    table = table_of(the_stack)
    since = timezone.now()

    the_stack.redis.stop()
    answers = [table.play_one(game_id) for _ in range(MOVES_PER_GAME) for game_id in game_ids]
    answers = [answer for answer in answers if answer is not None]
    emails = OutboundEmail.objects.filter(created_at__gte=since)
    queued_while_down = emails.count()
    time.sleep(2)  # a worker (it cannot get tasks) must not have sent anything meanwhile
    delivered_while_down = the_stack.delivered()

    the_stack.redis.start()
    wait_until(
        lambda: not emails.exclude(status=Status.SENT).exists(), 90, "every queued email sent"
    )
    wait_until(lambda: the_stack.delivered() >= emails.count(), 10, "the sink to get them")
    time.sleep(3)  # three more sweeps: they must find nothing to send again
    counts = the_stack.email_counts(emails)
    moves_applied = sum(Game.objects.filter(id__in=game_ids).values_list("version", flat=True))
    print(
        f"\nredis down (counters in {counters}): moves {len(answers)}"
        f" ok {sum(a.status == 200 for a in answers)}"
        f" applied {moves_applied}, slowest {max(a.seconds for a in answers):.2f} s;"
        f" emails queued while down {queued_while_down}, delivered while down"
        f" {delivered_while_down}, after: {counts}"
    )

    assert [answer.status for answer in answers] == [200] * len(answers)
    assert moves_applied == len(answers) == GAMES * MOVES_PER_GAME
    assert max(answer.seconds for answer in answers) < 5  # no request waits on the broker
    assert queued_while_down >= len(answers) // 2 and delivered_while_down == 0
    assert counts["expected"] == queued_while_down
    assert counts["delivered"] == counts["expected"]
    assert counts["missing"] == counts["duplicates"] == counts["others"] == 0


def test_a_worker_holding_a_task_outlives_a_redis_restart(stack, table_of, two_player_games):
    (game_id,) = two_player_games(1)
    silent = SilentSmtpServer()  # a send waits on it (EMAIL_TIMEOUT): the task is held
    try:
        the_stack = stack(beat=False, smtp_port=silent.port)
        (worker,) = the_stack.processes
        table = table_of(the_stack)

        play_until_an_email(table, game_id)
        wait_until(lambda: silent.connections, 30, "the worker to hold a send task")
        the_stack.redis.stop()
        wait_until(
            lambda: "Connection to broker lost" in worker.output(), 10, "the worker to notice"
        )
        the_stack.redis.start()
        wait_until(
            lambda: (
                worker.output().count("Connected to redis") >= 2
                or worker.process.poll() is not None
            ),
            60,
            "the worker to reconnect or die",
        )
        assert worker.process.poll() is None, "the worker died (its log is printed below)"

        # It takes tasks again: the next email's send is tried (on the silent server too).
        held = silent.connections
        play_until_an_email(table, game_id)
        wait_until(lambda: silent.connections > held, 30, "the worker to take a new task")
    finally:
        silent.close()


def play_until_an_email(table, game_id, most: int = 20) -> None:
    """Play moves until one queues an email (a turn may take several moves)."""
    emails = OutboundEmail.objects.count()
    for _ in range(most):
        assert table.play_one(game_id).status == 200
        if OutboundEmail.objects.count() > emails:
            return
    raise AssertionError(f"no email queued in {most} moves")
