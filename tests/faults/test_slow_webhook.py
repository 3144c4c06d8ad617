"""A webhook endpoint answering a byte every quarter second while games are played.

Two games post their moves to a tarpit on 127.0.0.1 (``tests.webhooks.tarpit``). The stack
runs as production is documented to: a worker for the default queue (email, sweeps, bots),
beat, and a worker of its own for the ``webhooks`` queue. While the posts hang, every
email still reaches the SMTP sink within seconds and the deadline sweep plays an overdue
game; each post gives up at ``WEBHOOK_TOTAL_TIMEOUT_SECONDS`` and is recorded for a retry.
"""

from datetime import timedelta

from django.utils import timezone

from games.models import Game
from notifications.models import OutboundEmail
from tests.factories import start_game
from tests.faults.stack import Status
from tests.processes import CeleryProcess
from tests.servers import wait_until
from tests.webhooks.tarpit import Tarpit
from webhooks.actions import do_add_webhook
from webhooks.models import WebhookDelivery

WEBHOOK_GAMES = 2
MOVES_PER_GAME = 3
TOTAL_TIMEOUT = 2  # seconds per post, all of it (each byte comes well within a read's 10 s)
EMAIL_BOUND = 10  # seconds from an email's row to its sending, hanging posts or not


def webhooks_worker(the_stack, tmp_path) -> CeleryProcess:
    """``celery worker -Q webhooks``, as production runs it (one process is enough here)."""
    args = ["worker", "-Q", "webhooks", "-n", "hooks@%h", "-c", "1", "--loglevel", "INFO"]
    args += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
    worker = CeleryProcess(args, the_stack.env, tmp_path / "hooks.log").start()
    the_stack.processes.append(worker)  # stopped with the stack
    worker.wait_ready()
    return worker


def test_a_trickling_webhook_endpoint_holds_neither_email_nor_sweeps(
    stack, table_of, two_player_games, anna, bert, settings, tmp_path
):
    settings.WEBHOOKS_ALLOW_INSECURE_LOCALHOST = True  # this process adds the webhooks
    tarpit = Tarpit(interval=0.25, hang_up_after=120)
    try:
        game_ids = two_player_games(WEBHOOK_GAMES)
        for game_id in game_ids:
            do_add_webhook(game_id, anna, kind="json", url=tarpit.url())
        overdue_id = start_game([anna, bert], seed=None).id
        the_stack = stack(
            WEBHOOKS_ALLOW_INSECURE_LOCALHOST="true",
            WEBHOOK_TOTAL_TIMEOUT_SECONDS=str(TOTAL_TIMEOUT),
            WEBHOOK_TIMEOUT_SECONDS="10",
        )
        webhooks_worker(the_stack, tmp_path)
        table = table_of(the_stack)
        since = timezone.now()

        answers = [table.play_one(game_id) for game_id in game_ids]
        wait_until(lambda: tarpit.open_connections() == 1, 20, "a post hanging in the tarpit")
        made_overdue = timezone.now()
        Game.objects.filter(id=overdue_id).update(deadline=made_overdue - timedelta(minutes=1))
        answers += [
            table.play_one(game_id) for _ in range(MOVES_PER_GAME - 1) for game_id in game_ids
        ]

        emails = OutboundEmail.objects.filter(created_at__gte=since)
        overdue = Game.objects.filter(id=overdue_id, version__gt=0)
        wait_until(
            lambda: overdue.exists() and not emails.exclude(status=Status.SENT).exists(),
            30,
            "every email sent and the overdue game played",
        )
        deliveries = WebhookDelivery.objects.filter(created_at__gte=since)
        queued_posts = deliveries.count()
        posts_not_yet_tried = deliveries.filter(attempts=0).count()
        waits = [(e.sent_at - e.created_at).total_seconds() for e in emails]
        first_timeout_move = Game.objects.get(id=overdue_id).moves.order_by("number").first()
        timeout_played_after = (first_timeout_move.at - made_overdue).total_seconds()

        wait_until(
            lambda: not deliveries.filter(attempts=0).exists(),
            queued_posts * (TOTAL_TIMEOUT + 3) + 30,
            "every post tried once",
        )
        # The tarpit sees a client's hang-up at its next byte.
        wait_until(lambda: tarpit.open_connections() == 0, 5, "the tarpit to see the hang-ups")
        durations = tarpit.durations()
        errors = set(deliveries.values_list("status", "last_error"))
        print(
            f"\nslow webhook: moves {len(answers)}, emails {len(waits)}, longest email wait"
            f" {max(waits):.1f} s, timeout played after {timeout_played_after:.1f} s;"
            f" posts {queued_posts}, untried when the emails were all out"
            f" {posts_not_yet_tried}, tarpit connections {len(durations)}, longest"
            f" {max(durations):.1f} s"
        )
    finally:
        tarpit.close()

    assert [answer.status for answer in answers] == [200] * len(answers)
    assert waits and max(waits) < EMAIL_BOUND
    assert timeout_played_after < EMAIL_BOUND
    assert posts_not_yet_tried >= 1  # the posts were still hanging meanwhile
    assert len(durations) == queued_posts >= WEBHOOK_GAMES * MOVES_PER_GAME
    assert max(durations) < TOTAL_TIMEOUT + 2
    assert errors == {
        (
            WebhookDelivery.Status.PENDING,
            f"No answer from 127.0.0.1: TimeoutError no complete answer within {TOTAL_TIMEOUT} s",
        )
    }
    default_worker_log = the_stack.processes[0].output()
    assert "Task webhooks." not in default_worker_log
    assert "Task notifications." in default_worker_log
