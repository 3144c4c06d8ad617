"""A game without webhooks is remembered as such (one query fewer per move), and forgotten
as soon as a webhook is saved for it, whoever saves it."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import start_game
from webhooks.models import Webhook, WebhookDelivery

from .conftest import add_webhook, play_some

pytestmark = pytest.mark.django_db


def webhook_queries(game):
    """Play one move; return the SQL statements it sent to the webhooks table."""
    with CaptureQueriesContext(connection) as context:
        game = play_some(game)
    return game, [q["sql"] for q in context.captured_queries if '"webhooks_webhook"' in q["sql"]]


def test_moves_of_a_new_game_without_webhooks_never_ask_the_database(game):
    game, first = webhook_queries(game)
    game, second = webhook_queries(game)
    assert first == second == []


def test_moves_of_a_game_the_cache_lost_ask_the_database_once(game):
    cache.clear()  # expired, evicted, or the cache restarted
    game, first = webhook_queries(game)
    game, second = webhook_queries(game)
    assert len(first) == 1
    assert second == []


def test_webhook_added_after_moves_gets_the_next_move(game, anna, receiver):
    game, _ = webhook_queries(game)  # remembered: no webhooks
    add_webhook(game, anna, "json", receiver.url())
    play_some(game)
    assert WebhookDelivery.objects.filter(event="move_applied").count() == 1


def test_webhook_saved_by_any_other_writer_gets_the_next_move(game, anna, receiver):
    game, _ = webhook_queries(game)
    Webhook.objects.create(game=game, owner=anna, kind="json", url=receiver.url())
    play_some(game)
    assert WebhookDelivery.objects.filter(event="move_applied").count() == 1


def test_with_the_database_cache_every_move_asks_and_the_cache_is_left_alone(settings, anna, bert):
    # The default without CACHE_URL. Asking it would be a query as well, and one that
    # fails (here: no table) would abort the move's transaction on PostgreSQL.
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "no_such_cache_table",
        }
    }
    with CaptureQueriesContext(connection) as context:
        game = start_game([anna, bert])
        game = play_some(game)
        play_some(game)
    sql = [q["sql"] for q in context.captured_queries]
    assert sum('"webhooks_webhook"' in q for q in sql) == 2
    assert not any("no_such_cache_table" in q for q in sql)
