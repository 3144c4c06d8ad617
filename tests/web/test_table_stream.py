"""The table's live stream (games.views.live, games.live): who may open it, what its events
say (the version, the status and what changed: nothing more), the catch-up on connect,
talk, clock and presence news; served under WSGI (polling), under ASGI (polling without a
news bus) and through the news bus (Redis publish/subscribe)."""

import asyncio
import json
import uuid

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient, Client
from django.urls import reverse

from games import actions, live, presence
from games.models import Game
from games.views.live import Table, TableStream, changes
from talk.actions import post_message
from tests.factories import start_toy_game, toy_move
from tests.web.game_links import entry_path

pytestmark = pytest.mark.django_db

# The only keys a table event's data may hold (docs/decisions/0007-live-table-stream.md).
TABLE_KEYS = {"version", "status", "what"}


# How many polls (and chunks) an expected event may take to come: a second of polling.
POLLS_TO_WAIT = 200


@pytest.fixture(autouse=True)
def _fast_streams(settings):
    """A poll every few milliseconds: each test's stream answers at once."""
    settings.TABLE_STREAM_POLL_SECONDS = 0.005


def events_url(game) -> str:
    return reverse("games:events", args=[game.id])


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def parse(chunks) -> list[tuple[str, dict]]:
    """The (event, data) pairs in ``chunks`` of the stream; comment lines are left out.
    A table event's id must be its version."""
    found = []
    for block in b"".join(chunks).decode().split("\n\n"):
        fields = dict(
            line.split(": ", 1) for line in block.splitlines() if line and ":" in line[1:]
        )
        if "event" in fields:
            data = json.loads(fields["data"])
            if fields["event"] == "table":
                assert fields["id"] == str(data["version"])
            found.append((fields["event"], data))
    return found


class Reader:
    """An open stream read a chunk at a time: the WSGI iterator of the test client's
    response, or a ``TableStream``'s own iterator (which ``close`` closes, as the server
    does when the reader's connection ends)."""

    def __init__(self, client: Client | None, game, stream: TableStream | None = None):
        if stream is not None:
            self.chunks = stream.events_sync()
            return
        self.response = client.get(events_url(game))
        assert self.response.status_code == 200
        self.chunks = iter(self.response.streaming_content)

    def next_events(self, count: int = 1) -> list[tuple[str, dict]]:
        """The next ``count`` events (a polling stream sends only what changed, and a
        heartbeat each poll: so a missing event fails after ``POLLS_TO_WAIT`` polls)."""
        found: list = []
        for _ in range(POLLS_TO_WAIT):
            if len(found) >= count:
                return found
            found += parse([next(self.chunks)])
        raise AssertionError(f"waited for {count} events, got {found}")

    def close(self):
        close = getattr(self.chunks, "close", None)
        if close is not None:
            close()


def test_anonymous_visitors_get_401_outsiders_and_missing_games_404(toy_game, outsider):
    assert Client().get(events_url(toy_game)).status_code == 401
    assert signed_in(outsider).get(events_url(toy_game)).status_code == 404
    missing = reverse("games:events", args=[uuid.uuid4()])
    assert signed_in(outsider).get(missing).status_code == 404


def test_the_stream_opens_with_the_table_as_it_is_and_who_is_at_it(toy_game, anna):
    reader = Reader(signed_in(anna), toy_game)
    response = reader.response
    assert response["Content-Type"] == "text/event-stream"
    assert response["Cache-Control"] == "no-store"
    assert response["X-Accel-Buffering"] == "no"
    first = next(reader.chunks)
    assert first.startswith(b"retry: ")
    assert parse([first]) == [("table", {"version": 0, "status": "active", "what": "connect"})]
    assert reader.next_events() == [("presence", {"seats": [0]})]
    reader.close()


def test_a_move_made_elsewhere_reaches_the_open_stream(toy_game, anna, bert):
    reader = Reader(signed_in(bert), toy_game)
    reader.next_events(2)  # the table and who is at it
    actions.do_play_move(toy_game.id, anna, 0, toy_move(toy_game))
    assert reader.next_events() == [("table", {"version": 1, "status": "active", "what": "move"})]
    reader.close()


def test_talk_and_the_clock_are_news_with_the_version_unchanged(
    toy_game, anna, bert, django_capture_on_commit_callbacks
):
    reader = Reader(signed_in(bert), toy_game)
    reader.next_events(2)
    with django_capture_on_commit_callbacks(execute=True):
        post_message(toy_game, anna, "Good luck!")
    assert reader.next_events() == [("table", {"version": 0, "status": "active", "what": "talk"})]
    with django_capture_on_commit_callbacks(execute=True):
        actions.do_pause_game(toy_game.id, anna)
    assert reader.next_events() == [("table", {"version": 0, "status": "active", "what": "clock"})]
    reader.close()


def test_the_end_of_the_game_is_news(toy_game, anna, moderator):
    reader = Reader(signed_in(anna), toy_game)
    reader.next_events(2)
    actions.do_abort_game(toy_game.id, moderator, reason="test")
    [(event, data)] = reader.next_events()
    assert (event, data["status"], data["what"]) == ("table", "aborted", "ended")
    reader.close()


def test_presence_shows_who_arrives_and_who_leaves(toy_game, anna, bert):
    anna_reader = Reader(None, toy_game, TableStream(toy_game.id, 0, [0, 1]))
    anna_reader.next_events(2)
    bert_reader = Reader(None, toy_game, TableStream(toy_game.id, 1, [0, 1]))
    assert bert_reader.next_events(2)[1] == ("presence", {"seats": [0, 1]})
    assert anna_reader.next_events() == [("presence", {"seats": [0, 1]})]
    bert_reader.close()  # the tab closed: the stream's iterator is closed
    assert anna_reader.next_events() == [("presence", {"seats": [0]})]
    anna_reader.close()


def test_staff_may_watch_without_sitting_at_the_table(toy_game, anna, moderator):
    reader = Reader(signed_in(moderator), toy_game)
    assert reader.next_events(2) == [
        ("table", {"version": 0, "status": "active", "what": "connect"}),
        ("presence", {"seats": []}),
    ]
    reader.close()


def test_a_stream_carries_no_game_state(toy_game, anna, bert, django_capture_on_commit_callbacks):
    """Whatever happens, a table event says the version, the status and what changed."""
    reader = Reader(signed_in(bert), toy_game)
    seen = reader.next_events(2)
    game = actions.do_play_move(toy_game.id, anna, 0, toy_move(toy_game))
    seen += reader.next_events()
    with django_capture_on_commit_callbacks(execute=True):
        post_message(game, anna, "Your move")
    seen += reader.next_events()
    reader.close()
    tables = [data for event, data in seen if event == "table"]
    assert len(tables) == 3 and all(set(data) == TABLE_KEYS for data in tables)
    assert {event for event, _ in seen} == {"table", "presence"}


def test_what_changed_is_told_in_order_of_weight():
    before = Table(3, "active", None, [0])
    assert changes(before, Table(4, "active", None, [0])) == [
        b'event: table\nid: 4\ndata: {"version": 4, "status": "active", "what": "move"}\n\n'
    ]
    assert b'"what": "ended"' in changes(before, Table(4, "finished", None, [0]))[0]
    assert b'"what": "started"' in changes(Table(0, "invited"), Table(1, "active"))[0]
    assert b'"what": "clock"' in changes(before, Table(3, "active", "clock:x", [0]))[0]
    assert changes(before, Table(3, "active", None, [])) == [
        b'event: presence\ndata: {"seats": []}\n\n'
    ]
    assert changes(before, before) == []


# --- Under ASGI: the async iterator, polling and through the Redis layer ------------------
# The stream reads in shared worker threads with connections of their own: the test's data
# must be committed to be seen there.


def asgi(test):
    """A test of the ASGI path: committed data, and connections that do not outlive it."""
    test = pytest.mark.usefixtures("short_lived_connections")(test)
    return pytest.mark.django_db(transaction=True)(test)


ASYNC_WAIT_SECONDS = 3


async def _read_async(stream, count: int, then=None) -> list:
    """The first ``count`` events of an async stream; ``then`` (sync) runs once the
    connect event and presence are in, so the rest are its news."""
    found: list = []
    chunks = stream.__aiter__()

    async def take(wanted: int) -> None:
        nonlocal found
        while len(found) < wanted:
            found += parse([await chunks.__anext__()])

    try:
        await asyncio.wait_for(take(2), ASYNC_WAIT_SECONDS)
        if then is not None:
            await sync_to_async(then)()
        await asyncio.wait_for(take(count), ASYNC_WAIT_SECONDS)
    except TimeoutError:
        raise AssertionError(f"waited for {count} events, got {found}") from None
    finally:
        await chunks.aclose()
    return found


@asgi
def test_under_asgi_the_view_streams_with_the_same_headers(toy_game, anna):
    async def open_stream():
        client = AsyncClient()
        await client.aforce_login(anna)
        response = await client.get(events_url(toy_game))
        events = await _read_async(response.streaming_content, 2)
        return response, events

    response, events = async_to_sync(open_stream)()
    assert response.status_code == 200 and response["X-Accel-Buffering"] == "no"
    assert events[0] == ("table", {"version": 0, "status": "active", "what": "connect"})


@asgi
def test_under_asgi_without_a_layer_a_move_is_read_from_the_version(toy_game, anna, bert):
    stream = TableStream(toy_game.id, 1, [0, 1])

    def move():
        actions.do_play_move(toy_game.id, anna, 0, toy_move(toy_game))

    events = async_to_sync(_read_async)(stream.events_async(), 3, move)
    assert events[2] == ("table", {"version": 1, "status": "active", "what": "move"})


@pytest.fixture
def short_lived_connections():
    """The stream's worker threads close their connections after each read (as with
    CONN_MAX_AGE=0), so none outlives the test: PostgreSQL could not drop the test database."""
    from django.db import connection

    before = connection.settings_dict["CONN_MAX_AGE"]
    connection.settings_dict["CONN_MAX_AGE"] = 0  # the dict every thread's connection reads
    yield
    connection.settings_dict["CONN_MAX_AGE"] = before


@pytest.fixture
def redis_layer(settings, redis_url):
    """The news bus on the test Redis (its channels are named by game: no test shares one)."""
    settings.TABLE_NEWS_URL = redis_url
    settings.TABLE_STREAM_POLL_SECONDS = 60  # nothing may come by polling


@asgi
def test_through_the_redis_layer_moves_and_talk_arrive_pushed(
    redis_layer, toy_game, anna, bert, django_capture_on_commit_callbacks
):
    stream = TableStream(toy_game.id, 1, [0, 1])

    def move_and_talk():
        with django_capture_on_commit_callbacks(execute=True):
            game = actions.do_play_move(toy_game.id, anna, 0, toy_move(toy_game))
        with django_capture_on_commit_callbacks(execute=True):
            post_message(game, anna, "There.")

    events = async_to_sync(_read_async)(stream.events_async(), 4, move_and_talk)
    assert events[2:] == [
        ("table", {"version": 1, "status": "active", "what": "move"}),
        ("table", {"version": 1, "status": "active", "what": "talk"}),
    ]
    assert Game.objects.get(id=toy_game.id).version == 1


def test_news_without_a_layer_costs_a_move_nothing(toy_game, django_assert_num_queries):
    """Without a layer a move's news is the version itself: announcing it does nothing."""
    with django_assert_num_queries(0):
        live.announce(toy_game.id, 1, "active", live.MOVE)


def test_the_table_page_names_its_stream_and_wraps_what_a_change_changes(toy_game, anna, bert):
    page = signed_in(bert).get(reverse("games:game", args=[toy_game.id])).content.decode()
    assert f'data-events-url="{events_url(toy_game)}"' in page
    assert page.count('id="table-live-region"') == 1
    region = page[page.index('id="table-live-region"') :]
    assert 'class="game-table"' in region and "data-your-turn" not in region  # Anna's turn
    page = signed_in(anna).get(reverse("games:game", args=[toy_game.id])).content.decode()
    assert "data-your-turn" in page


def test_an_ended_table_opens_no_stream(toy_game, anna, moderator):
    actions.do_abort_game(toy_game.id, moderator, reason="test")
    page = signed_in(anna).get(reverse("games:game", args=[toy_game.id])).content.decode()
    assert "data-events-url" not in page and 'id="table-live-region"' in page


def test_a_game_link_session_watches_its_own_game_only(toy_game, anna, bert):
    other = start_toy_game([anna, bert])
    client = Client()
    client.post(entry_path(toy_game, bert))  # the game email's link, as Bert
    assert client.get(events_url(toy_game)).status_code == 200
    assert client.get(events_url(other)).status_code == 401  # signed out elsewhere


def test_a_stream_closing_after_its_players_next_page_leaves_them_at_the_table(toy_game):
    old_page = Reader(None, toy_game, TableStream(toy_game.id, 0, [0, 1]))
    old_page.next_events(2)
    presence.mark_live(toy_game.id, 0)  # the page that replaced it (a move's redirect)
    old_page.close()  # its server notices the old page's stream closed only now
    assert presence.live_seats(toy_game.id, [0, 1]) == [0]
