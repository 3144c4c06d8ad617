"""The calendar feed (/calendar/<token>.ics): one event per turn of the person's own, at its
deadline, with an alarm at each reminder lead; nothing else, nothing hidden."""

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from icalendar import Calendar

from accounts import preferences
from accounts.erasure import erase_user
from accounts.models import NotificationSettings, User
from calendars import feeds
from calendars.models import CalendarFeed
from core.redaction import redact_tokens
from games import actions
from games.models import Game
from tests.api.secrets_scan import assert_no_secrets
from tests.db_scan import every_stored_value
from tests.factories import make_user, reveal_or_timeout, start_game

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def frozen(time_machine):
    time_machine.move_to(NOW, tick=False)


def url_of(token: str) -> str:
    return f"/calendar/{token}.ics"


def poll(token: str, **headers):
    return Client().get(url_of(token), **headers)


def events_of(response) -> list:
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    calendar = Calendar.from_ical(response.content)
    assert str(calendar["PRODID"]) == feeds.PRODID
    assert str(calendar["VERSION"]) == "2.0"
    return list(calendar.walk("VEVENT"))


def play(game: Game, users: list[User]) -> Game:
    """One move by the seat to move."""
    actions.do_play_move(game.id, users[game.current_seat], game.version, reveal_or_timeout(game))
    return Game.objects.get(id=game.id)


def test_the_feed_has_an_event_at_the_deadline_with_an_alarm_per_lead(anna, bert, carla):
    NotificationSettings.objects.create(user=anna, reminder_leads=[12, 3])
    game = start_game([anna, bert, carla])
    assert game.current_seat == 0 and game.deadline is not None
    _feed, token = feeds.do_create_feed(anna)

    (event,) = events_of(poll(token))

    assert event.decoded("DTSTART") == game.deadline
    assert (
        event["DTSTART"].to_ical()
        == game.deadline.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ").encode()
    )  # in UTC
    assert str(event["UID"]) == f"{game.id}-{game.version}@127.0.0.1"
    assert str(event["SUMMARY"]) == "Your turn in Piratz with Bert, carla ends"
    assert str(event["URL"]) == f"http://127.0.0.1:8000/games/{game.id}/"
    alarms = list(event.walk("VALARM"))
    assert [alarm.decoded("TRIGGER") for alarm in alarms] == [
        -timedelta(hours=12),
        -timedelta(hours=3),
    ]
    assert {str(alarm["ACTION"]) for alarm in alarms} == {"DISPLAY"}


def test_the_feed_follows_the_game_as_it_moves(anna, bert, carla):
    game = start_game([anna, bert, carla])
    _feed, anna_token = feeds.do_create_feed(anna)
    _feed, bert_token = feeds.do_create_feed(bert)
    (before,) = events_of(poll(anna_token))
    assert events_of(poll(bert_token)) == []

    while game.current_seat == 0:  # a reveal may keep the turn: play it to its end
        game = play(game, [anna, bert, carla])

    assert game.current_seat == 1
    assert events_of(poll(anna_token)) == []
    (after,) = events_of(poll(bert_token))
    assert str(after["UID"]) == f"{game.id}-{game.version}@127.0.0.1"
    assert str(after["UID"]) != str(before["UID"])  # a new turn, a new event
    assert after.decoded("DTSTART") == game.deadline


def test_another_players_games_and_paused_games_are_absent(anna, bert, carla):
    start_game([bert, carla])  # Bert's turn, a game Anna is not in
    paused = start_game([anna, carla])
    actions.do_pause_game(paused.id, anna, "Holidays")
    _feed, token = feeds.do_create_feed(anna)

    assert events_of(poll(token)) == []

    actions.do_resume_game(paused.id, anna)
    (event,) = events_of(poll(token))
    assert str(event["UID"]).startswith(str(paused.id))


def test_the_feed_is_in_the_players_language(anna, bert):
    User.objects.filter(pk=anna.pk).update(language="de")
    start_game([anna, bert])
    _feed, token = feeds.do_create_feed(anna)

    (event,) = events_of(poll(token))

    assert str(event["SUMMARY"]) == "Dein Zug in Piratz mit Bert endet"


def test_nothing_hidden_reaches_the_feed(anna, bert):
    game = start_game([anna, bert], blind=True)
    _feed, token = feeds.do_create_feed(anna)

    body = poll(token).content.decode()

    assert_no_secrets(body, game.load_state(), blind_viewer=True, server_seed=game.server_seed)
    assert "/enter/" not in body  # the game's plain page, never a link that signs in


def test_unknown_revoked_and_replaced_tokens_are_not_found(anna, bert):
    start_game([anna, bert])
    _feed, first = feeds.do_create_feed(anna)
    assert poll(first).status_code == 200

    _feed, second = feeds.do_create_feed(anna)  # a new address revokes the old
    assert poll(first).status_code == 404
    assert poll(second).status_code == 200
    assert poll("cal_" + "x" * 43).status_code == 404
    assert poll("nothing").status_code == 404

    assert feeds.do_revoke_feed(anna) is True
    assert poll(second).status_code == 404
    assert feeds.do_revoke_feed(anna) is False


def test_the_token_is_not_stored_in_plain(anna):
    feed, token = feeds.do_create_feed(anna)
    stored = every_stored_value()

    assert token not in stored
    assert token[len(CalendarFeed.TOKEN_PREFIX) :] not in stored
    assert feed.token_hash in stored


def test_polls_get_caching_headers_and_304_when_nothing_changed(anna, bert, time_machine):
    game = start_game([anna, bert])
    _feed, token = feeds.do_create_feed(anna)
    first = poll(token)
    assert first.status_code == 200
    assert first["Cache-Control"] == "private, max-age=300"
    etag, last_modified = first["ETag"], first["Last-Modified"]

    time_machine.move_to(NOW + timedelta(minutes=20), tick=False)
    assert poll(token, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert poll(token, HTTP_IF_MODIFIED_SINCE=last_modified).status_code == 304
    feed = CalendarFeed.objects.get(user=anna)
    assert feed.last_polled_at == NOW + timedelta(minutes=20)

    play(game, [anna, bert])
    changed = poll(token, HTTP_IF_NONE_MATCH=etag, HTTP_IF_MODIFIED_SINCE=last_modified)
    assert changed.status_code == 200
    assert changed["ETag"] != etag
    assert changed["Last-Modified"] != last_modified


def test_changed_reminder_leads_change_the_alarms(anna, bert):
    start_game([anna, bert])
    _feed, token = feeds.do_create_feed(anna)
    preferences.do_update_settings(anna, {"reminder_leads": [48]}, now=NOW)

    (event,) = events_of(poll(token))

    assert [alarm.decoded("TRIGGER") for alarm in event.walk("VALARM")] == [-timedelta(hours=48)]


def test_an_erased_account_has_no_feed(anna, bert):
    _feed, token = feeds.do_create_feed(anna)
    erase_user(anna.pk)

    assert poll(token).status_code == 404
    assert not CalendarFeed.objects.filter(user=anna).exists()


def test_the_token_is_redacted_from_logged_paths(anna):
    _feed, token = feeds.do_create_feed(anna)

    assert token not in redact_tokens(f"GET {url_of(token)} HTTP/1.1")


def test_a_player_without_games_gets_an_empty_calendar():
    carla = make_user("carla@example.com")
    _feed, token = feeds.do_create_feed(carla)

    assert events_of(poll(token)) == []
