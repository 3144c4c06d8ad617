"""A move or a timeout that queues several emails has them sent by one task
(``notifications.outbox.sent_together``): each published task costs the request about
half a millisecond of CPU, and the move that ends a game queues one email per player.
Here the cache is not on Redis, so each commit publishes ``send_emails`` (with Redis,
commits share a drain: tests/notifications/test_outbox_drain.py)."""

import random

import pytest

import notifications.tasks
from games import actions, bots
from games.models import Game, GameStatus
from notifications.models import OutboundEmail
from tests.factories import TOY_KIND, reveal_or_timeout, start_game, toy_move

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(monkeypatch, django_capture_on_commit_callbacks):
    """The id lists of the ``send_emails`` tasks published (not run)."""
    tasks = []

    class Recording:
        @staticmethod
        def delay(email_ids):
            tasks.append(sorted(email_ids))

    monkeypatch.setattr(notifications.tasks.send_emails, "delay", Recording.delay)
    return tasks


def emails_since(last_id: int) -> list[int]:
    return sorted(OutboundEmail.objects.filter(id__gt=last_id).values_list("id", flat=True))


def newest_email_id() -> int:
    return OutboundEmail.objects.order_by("-id").values_list("id", flat=True).first() or 0


def test_the_move_that_ends_a_game_sends_every_players_email_with_one_task(
    toy_game, anna, bert, published, django_capture_on_commit_callbacks
):
    users, game = [anna, bert], toy_game
    while True:
        action = toy_move(game)
        before, published[:] = newest_email_id(), []
        with django_capture_on_commit_callbacks(execute=True):
            actions.do_play_move(game.id, users[game.current_seat], game.version, action)
        game = Game.objects.get(id=game.id)
        if game.status != GameStatus.ACTIVE:
            break

    assert game.status == GameStatus.FINISHED
    game_over = emails_since(before)
    assert OutboundEmail.objects.filter(id__in=game_over, template="game_over").count() == 2
    assert published == [game_over]


def test_a_timeout_sends_the_auto_moved_and_the_next_turn_email_with_one_task(
    anna, bert, published, django_capture_on_commit_callbacks, time_machine
):
    game = start_game([anna, bert])
    time_machine.move_to(game.deadline, tick=False)
    before = newest_email_id()

    with django_capture_on_commit_callbacks(execute=True):
        actions.do_play_timeout(game.id, expected_version=game.version)

    queued = emails_since(before)
    templates = OutboundEmail.objects.filter(id__in=queued).values_list("template", flat=True)
    assert sorted(templates) == ["auto_moved", "your_turn"]
    assert published == [queued]


def test_creating_a_game_and_starting_it_each_tell_everyone_with_one_task(
    anna, bert, carla, published, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = actions.do_create_game(
            anna, [anna.email, bert.email, carla.email], turn_hours=24, game="piratz"
        )
    invitations = emails_since(0)
    assert len(invitations) == 2
    assert published == [invitations]

    actions.do_accept_invitation(game.id, anna)
    actions.do_accept_invitation(game.id, bert)
    before, published[:] = newest_email_id(), []

    with django_capture_on_commit_callbacks(execute=True):
        actions.do_accept_invitation(game.id, carla)

    queued = emails_since(before)
    templates = OutboundEmail.objects.filter(id__in=queued).values_list("template", flat=True)
    assert sorted(templates) == ["game_started"] * 3 + ["your_turn"]
    assert published == [queued]


def test_a_moderators_abort_tells_everyone_with_one_task(
    anna, bert, carla, moderator, published, django_capture_on_commit_callbacks
):
    game = start_game([anna, bert, carla])
    before = newest_email_id()

    with django_capture_on_commit_callbacks(execute=True):
        actions.do_abort_game(game.id, moderator, reason="spam")

    queued = emails_since(before)
    assert len(queued) == 3
    assert published == [queued]


def test_a_bot_move_that_ends_the_game_tells_everyone_with_one_task(
    toy_games, anna, bert, published, django_capture_on_commit_callbacks, monkeypatch
):
    # The bot's choices from a seeded generator: the same game each run (tic-tac-toe for
    # three, the bot in seat 2), which the bot's move ends (asserted below): with seed 5
    # the people's first free cells leave the bot the ninth move, and its row.
    choose = bots.choose_action
    rng = random.Random(5)
    monkeypatch.setattr(bots, "choose_action", lambda game, seat: choose(game, seat, rng))
    game = actions.do_create_game(
        anna, [anna.email, bert.email, "bot:random"], game=TOY_KIND, turn_hours=24
    )
    actions.do_accept_invitation(game.id, bert)
    game = Game.objects.get(id=game.id)
    users = {seat.seat: seat.user for seat in game.seats.all()}

    while game.status == GameStatus.ACTIVE:
        before, published[:] = newest_email_id(), []
        bot_moves = bots.bot_to_move(game) is not None
        with django_capture_on_commit_callbacks(execute=True):
            if bot_moves:
                actions.do_play_bot_move(game.id, expected_version=game.version)
            else:
                action = reveal_or_timeout(game)
                actions.do_play_move(game.id, users[game.current_seat], game.version, action)
        game = Game.objects.get(id=game.id)

    assert bot_moves  # the bot played the last move
    game_over = emails_since(before)
    assert OutboundEmail.objects.filter(id__in=game_over, template="game_over").count() == 2
    assert published == [game_over]


def test_declining_tells_the_others_with_one_task(
    anna, bert, carla, published, django_capture_on_commit_callbacks
):
    game = actions.do_create_game(anna, [anna.email, bert.email, carla.email], turn_hours=24)
    actions.do_accept_invitation(game.id, bert)
    before = newest_email_id()

    with django_capture_on_commit_callbacks(execute=True):
        actions.do_decline_invitation(game.id, carla)

    queued = emails_since(before)
    assert len(queued) == 2  # Anna and Bert
    assert published == [queued]
