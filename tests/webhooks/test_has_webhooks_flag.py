"""``Game.has_webhooks``: the game row says whether it has an enabled webhook, so a move in
a game without one asks neither the webhooks table nor the cache; every change of a
webhook's existence or enabled state keeps it, whoever makes the change."""

import importlib
import threading
import time
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.core.cache.backends.locmem import LocMemCache
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Game
from tests.factories import start_toy_game
from webhooks import delivery
from webhooks.actions import do_delete_webhook
from webhooks.models import Webhook, WebhookDelivery

from .conftest import add_webhook, play_some

pytestmark = pytest.mark.django_db

WEBHOOKS_TABLE = '"webhooks_webhook"'


class RecordingCache(LocMemCache):
    """A local memory cache that records every key asked for, set or deleted."""

    keys: list[str] = []

    def get(self, key, *args, **kwargs):
        self.keys.append(key)
        return super().get(key, *args, **kwargs)

    def set(self, key, *args, **kwargs):
        self.keys.append(key)
        return super().set(key, *args, **kwargs)

    def add(self, key, *args, **kwargs):
        self.keys.append(key)
        return super().add(key, *args, **kwargs)

    def delete(self, key, *args, **kwargs):
        self.keys.append(key)
        return super().delete(key, *args, **kwargs)


def flag(game) -> bool:
    return Game.objects.values_list("has_webhooks", flat=True).get(id=game.id)


def webhook_queries(game):
    """Play one move; return the game and the SQL statements it sent to the webhooks table."""
    with CaptureQueriesContext(connection) as context:
        game = play_some(game)
    return game, [q["sql"] for q in context.captured_queries if WEBHOOKS_TABLE in q["sql"]]


def move_deliveries() -> int:
    return WebhookDelivery.objects.filter(event="move_applied").count()


# --- A game without webhooks: nothing asked -------------------------------------------------


@pytest.mark.parametrize(
    "cache",
    [
        # Production's kind: a cache of its own (Redis); here one that records its keys.
        {"BACKEND": "tests.webhooks.test_has_webhooks_flag.RecordingCache"},
        # The default without CACHE_URL: asking it would be a query, and a failing one
        # (here: no table) would abort the move's transaction on PostgreSQL.
        {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "no_such_table"},
    ],
    ids=["own cache", "database cache"],
)
def test_moves_of_a_game_without_webhooks_ask_neither_the_database_nor_the_cache(
    settings, toy_games, anna, bert, cache
):
    RecordingCache.keys = []
    settings.CACHES = {"default": cache}
    with CaptureQueriesContext(connection) as context:
        game = start_toy_game([anna, bert])
        game = play_some(game)
        game = play_some(game)
    sql = [q["sql"] for q in context.captured_queries]
    assert game.version == 2 and not game.has_webhooks
    assert not [q for q in sql if WEBHOOKS_TABLE in q]
    assert not [q for q in sql if "no_such_table" in q]
    assert RecordingCache.keys == []


def test_a_new_game_has_no_webhooks(toy_game):
    assert toy_game.has_webhooks is False
    assert flag(toy_game) is False


# --- Adding and enabling set the flag ---------------------------------------------------------


def test_a_webhook_added_after_moves_sets_the_flag_and_gets_the_next_move(toy_game, anna, receiver):
    toy_game, asked = webhook_queries(toy_game)
    assert asked == []
    add_webhook(toy_game, anna, "json", receiver.url())
    assert flag(toy_game) is True
    toy_game, asked = webhook_queries(toy_game)
    assert len(asked) == 1  # now it asks which ones
    assert move_deliveries() == 1


def test_a_webhook_saved_by_any_other_writer_sets_the_flag(toy_game, anna, receiver):
    toy_game, _ = webhook_queries(toy_game)
    Webhook.objects.create(game=toy_game, owner=anna, kind="json", url=receiver.url())
    assert flag(toy_game) is True
    play_some(toy_game)
    assert move_deliveries() == 1


def test_disabling_by_a_save_clears_the_flag_and_enabling_sets_it_again(toy_game, anna, receiver):
    webhook, _ = add_webhook(toy_game, anna, "json", receiver.url())
    webhook.disabled_at, webhook.disabled_reason = timezone.now(), "switched off"
    webhook.save()
    assert flag(toy_game) is False
    toy_game, asked = webhook_queries(toy_game)
    assert (asked, move_deliveries()) == ([], 0)

    webhook.disabled_at, webhook.disabled_reason = None, ""
    webhook.save()
    assert flag(toy_game) is True
    play_some(toy_game)
    assert move_deliveries() == 1


def test_disabling_one_of_two_keeps_the_flag(toy_game, anna, bert, receiver):
    first, _ = add_webhook(toy_game, anna, "json", receiver.url("/a"))
    add_webhook(toy_game, bert, "json", receiver.url("/b"))
    first.disabled_at = timezone.now()
    first.save()
    assert flag(toy_game) is True
    play_some(toy_game)
    assert move_deliveries() == 1


# --- The worker's automatic disabling ---------------------------------------------------------


def test_the_workers_disabling_of_the_last_webhook_clears_the_flag(
    toy_game, anna, receiver, settings
):
    settings.WEBHOOK_DISABLE_AFTER_FAILURES = 1
    receiver.answers = [404]
    add_webhook(toy_game, anna, "json", receiver.url())
    toy_game = play_some(toy_game)
    assert delivery.send_due_deliveries().failed == 1
    assert Webhook.objects.get().enabled is False
    assert flag(toy_game) is False
    toy_game, asked = webhook_queries(toy_game)
    assert asked == []
    assert move_deliveries() == 1


def test_the_workers_disabling_of_one_of_two_keeps_the_flag(
    toy_game, anna, bert, receiver, settings
):
    settings.WEBHOOK_DISABLE_AFTER_FAILURES = 1
    add_webhook(toy_game, anna, "json", receiver.url("/gone"))
    add_webhook(toy_game, bert, "json", receiver.url("/fine"))
    toy_game = play_some(toy_game)
    gone = WebhookDelivery.objects.get(webhook__url__endswith="/gone")
    receiver.answers = [404]
    delivery.send_pending_delivery(gone.id)
    assert Webhook.objects.filter(disabled_at__isnull=False).count() == 1
    assert flag(toy_game) is True
    play_some(toy_game)
    assert WebhookDelivery.objects.filter(webhook__url__endswith="/fine").count() == 2


def test_disable_webhooks_refreshes_each_of_their_games(toy_game, anna, bert, carla, receiver):
    other = start_toy_game([bert, carla])
    add_webhook(toy_game, anna, "json", receiver.url())
    add_webhook(other, bert, "json", receiver.url())
    add_webhook(other, carla, "json", receiver.url())
    disabled = delivery.disable_webhooks(
        Webhook.objects.filter(owner__in=[anna, bert]), "moderator"
    )
    assert disabled == 2
    assert (flag(toy_game), flag(other)) == (False, True)


# --- Deleting -----------------------------------------------------------------------------


def test_deleting_the_last_webhook_clears_the_flag(toy_game, anna, bert, receiver):
    first, _ = add_webhook(toy_game, anna, "json", receiver.url())
    second, _ = add_webhook(toy_game, bert, "json", receiver.url())
    do_delete_webhook(toy_game.id, anna, first.id)
    assert flag(toy_game) is True
    do_delete_webhook(toy_game.id, bert, second.id)
    assert flag(toy_game) is False
    toy_game, asked = webhook_queries(toy_game)
    assert (asked, move_deliveries()) == ([], 0)


def test_a_webhook_deleted_by_any_other_writer_clears_the_flag(toy_game, anna, receiver):
    add_webhook(toy_game, anna, "json", receiver.url())
    assert flag(toy_game) is True  # set, so that clearing it is what is tested
    Webhook.objects.all().delete()
    assert flag(toy_game) is False


# --- The game row first, then the webhooks ----------------------------------------------------


def game_row_first(sql: list[str], first_write: str) -> None:
    """The game row was locked before the first statement starting with ``first_write``."""
    lock = next(i for i, q in enumerate(sql) if q.startswith("SELECT") and '"games_game"' in q)
    write = next(i for i, q in enumerate(sql) if q.startswith(first_write))
    assert lock < write, sql
    if connection.features.has_select_for_update:
        assert sql[lock].endswith("FOR UPDATE"), sql[lock]


def test_deleting_a_webhook_locks_the_game_row_before_its_rows(toy_game, anna, receiver):
    # A move holds the game row and, at its commit, waits for the webhook row its new
    # delivery refers to: a delete that took the webhook's rows first and then waited for
    # the game (to refresh the flag) would deadlock with it.
    webhook, _ = add_webhook(toy_game, anna, "json", receiver.url())
    play_some(toy_game)
    with CaptureQueriesContext(connection) as context:
        do_delete_webhook(toy_game.id, anna, webhook.id)
    game_row_first([q["sql"] for q in context.captured_queries], "DELETE")


def test_a_failure_that_may_disable_locks_the_game_row_before_the_delivery(
    toy_game, anna, receiver
):
    receiver.answers = [404]
    add_webhook(toy_game, anna, "json", receiver.url())
    play_some(toy_game)
    with CaptureQueriesContext(connection) as context:
        delivery.send_due_deliveries()
    sql = [q["sql"] for q in context.captured_queries]
    # The claim is its own transaction; the outcome's starts with the game row.
    claim = next(i for i, q in enumerate(sql) if q.startswith("UPDATE"))
    game_row_first(sql[claim + 1 :], "UPDATE")


@pytest.mark.django_db(transaction=True)
def test_a_refresh_waiting_for_the_lock_sees_the_webhook_added_meanwhile(
    toy_games, anna, bert, receiver
):
    """Whoever refreshes after waiting for the game row sees what the holder added: on
    PostgreSQL a lone UPDATE … EXISTS that waited would use its snapshot from before the
    wait, and clear the flag the holder had just set."""
    if not connection.features.has_select_for_update:
        pytest.skip("SQLite serialises the whole transactions (IMMEDIATE): no such wait")
    game = start_toy_game([anna, bert])
    added, may_commit, refreshed = threading.Event(), threading.Event(), threading.Event()
    errors = []

    def add_and_hold():
        try:
            with transaction.atomic():
                Webhook.objects.create(game=game, owner=anna, kind="json", url=receiver.url())
                added.set()
                # Hold the game row until the other refresh waits for it.
                if not may_commit.wait(10):
                    raise AssertionError("never told to commit")
        except BaseException as exc:  # reported by the test
            errors.append(exc)
        finally:
            connections.close_all()

    def refresh():
        try:
            added.wait(10)
            delivery.refresh_has_webhooks(game.id)
            refreshed.set()
        except BaseException as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=add_and_hold), threading.Thread(target=refresh)]
    for thread in threads:
        thread.start()
    try:
        added.wait(10)
        waited = any(waiting_for_a_lock() or time.sleep(0.05) for _ in range(100))
    finally:
        may_commit.set()
        for thread in threads:
            thread.join(30)
    assert waited, "the refresh never waited for the game row"
    assert not errors, errors
    assert refreshed.is_set()
    assert flag(game) is True


def waiting_for_a_lock() -> bool:
    """Another connection to the test database waits for a lock (asked outside a
    transaction: within one, PostgreSQL answers from the snapshot of its first read)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0] > 0


# --- The migration's backfill -----------------------------------------------------------------


def test_the_migrations_backfill_sets_each_games_flag_from_its_webhooks(
    toy_games, anna, bert, carla, receiver
):
    migration = importlib.import_module("games.migrations.0007_game_has_webhooks")
    with_one = start_toy_game([anna, bert])
    with_a_disabled_one = start_toy_game([anna, carla])
    without = start_toy_game([bert, carla])
    wrongly_set = start_toy_game([carla, anna])
    add_webhook(with_one, anna, "json", receiver.url())
    disabled, _ = add_webhook(with_a_disabled_one, anna, "json", receiver.url())
    Webhook.objects.filter(id=disabled.id).update(disabled_at=timezone.now())
    Game.objects.update(has_webhooks=False)  # as the column starts
    Game.objects.filter(id=wrongly_set.id).update(has_webhooks=True)

    migration.set_has_webhooks(apps, SimpleNamespace(connection=connection))

    assert [flag(g) for g in (with_one, with_a_disabled_one, without, wrongly_set)] == [
        True,
        False,
        False,
        False,
    ]
