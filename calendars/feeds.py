"""Calendar feeds: made, replaced and revoked by their owner; found by token; written as
iCalendar (RFC 5545, with the ``icalendar`` package).

A feed holds one event per game where it is the person's own turn (``games_waiting_on``:
not a seat a stand-in bot plays) and the clock runs (not paused, a deadline set): the
deadline, with an alarm at each of their reminder leads. Nothing else of the game is in
it: the players' names, the game's kind and a link to its page, all of which the person
sees anyway; no table, no cards.
"""

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from icalendar import Alarm, Calendar, Event

from accounts.languages import language_of
from accounts.models import User
from accounts.preferences import settings_for
from games.models import Game
from games.queries import SEATS_WITH_PEOPLE, games_waiting_on

from .models import CalendarFeed

PRODID = "-//Piratz by mail//Calendar feed//EN"
# How often a poll may write ``last_polled_at``: calendar apps poll every few minutes at
# most, and "when was it last polled" needs no finer grain than this.
POLL_RECORD_INTERVAL = timedelta(minutes=10)


def feed_of(user: User) -> CalendarFeed | None:
    """``user``'s feed, or None when they have none."""
    return CalendarFeed.objects.filter(user=user).first()


def do_create_feed(user: User) -> tuple[CalendarFeed, str]:
    """A new feed of ``user``, replacing (and so revoking) any old one: the row and its URL
    token, which only this answer ever holds (only its hash is stored)."""
    token = CalendarFeed.new_token()
    with transaction.atomic():
        CalendarFeed.objects.filter(user=user).delete()
        feed = CalendarFeed.objects.create(
            user=user, token_hash=CalendarFeed.hash_token(token), prefix=token[:10]
        )
    return feed, token


def do_revoke_feed(user: User) -> bool:
    """Delete ``user``'s feed: its URL stops working at once. Whether there was one."""
    deleted, _rows = CalendarFeed.objects.filter(user=user).delete()
    return bool(deleted)


def delete_feed_of(user: User, now: datetime) -> None:
    """The account erasure's part of calendars (``accounts.erasure``): the feed goes."""
    CalendarFeed.objects.filter(user=user).delete()


def export_feed(user: User) -> dict:
    """The person's data export's part (``accounts.personal_data``): whether they have a
    feed and its dates (never its token, which is stored nowhere)."""
    feed = feed_of(user)
    if feed is None:
        return {"calendar_feed": None}
    return {
        "calendar_feed": {
            "prefix": feed.prefix,
            "created_at": feed.created_at,
            "last_polled_at": feed.last_polled_at,
        }
    }


def feed_for_token(token: str) -> CalendarFeed | None:
    """The feed whose URL token is ``token``, with its person, or None (unknown, revoked,
    or its person's account is no longer active).

    The lookup is by the token's SHA-256 in a unique index: how long it takes does not
    depend on how much of a guess matches a real token, so timing tells nothing.
    """
    if not token.startswith(CalendarFeed.TOKEN_PREFIX) or len(token) > 100:
        return None
    feed = (
        CalendarFeed.objects.select_related("user")
        .filter(token_hash=CalendarFeed.hash_token(token))
        .first()
    )
    if feed is None or not feed.user.is_active:
        return None
    return feed


@dataclass(frozen=True)
class FeedAnswer:
    """What a poll answers: the calendar, its entity tag and when it last changed."""

    body: bytes
    etag: str
    last_modified: datetime


def poll(feed: CalendarFeed, now: datetime) -> FeedAnswer:
    """The feed's calendar as of ``now``; records the poll (at most every
    ``POLL_RECORD_INTERVAL``) and, when the calendar differs from the last poll's, when it
    changed: ``Last-Modified`` is then exact whatever changed it (a move, a new deadline, a
    pause, the person's reminder leads or a player's name)."""
    body = calendar_of(feed.user)
    etag = hashlib.sha256(body).hexdigest()
    updates: dict = {}
    if etag != feed.etag or feed.changed_at is None:
        updates.update(etag=etag, changed_at=now)
    if feed.last_polled_at is None or now - feed.last_polled_at >= POLL_RECORD_INTERVAL:
        updates["last_polled_at"] = now
    if updates:
        CalendarFeed.objects.filter(pk=feed.pk).update(**updates)
        for field, value in updates.items():
            setattr(feed, field, value)
    assert feed.changed_at is not None
    return FeedAnswer(body=body, etag=etag, last_modified=feed.changed_at)


def games_in_feed(user: User) -> list[Game]:
    """The games with an event in ``user``'s feed: their own turn, the clock running; by
    deadline, with their seats (and those seats' people) in seat order."""
    return list(
        Game.objects.filter(pk__in=games_waiting_on(user).values("pk"))
        .filter(paused_at__isnull=True, deadline__isnull=False)
        .prefetch_related(SEATS_WITH_PEOPLE)
        .order_by("deadline", "id")
    )


def calendar_of(user: User) -> bytes:
    """``user``'s calendar (RFC 5545), in their language, times in UTC.

    One VEVENT per game of ``games_in_feed``: UID stable for the game and its version (the
    turn), DTSTART the deadline, SUMMARY who the game is with, URL the game's page (not a
    signed link: the feed URL must not sign anyone in), a DISPLAY alarm at each reminder
    lead. DTSTAMP is when the turn began, so the same turn gives the same bytes.
    """
    leads = settings_for(user).reminder_leads
    host = urlsplit(settings.SITE_URL).hostname or "localhost"
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    with translation.override(language_of(user)):
        calendar.add("x-wr-calname", _("Piratz by mail: your turns"))
        for game in games_in_feed(user):
            calendar.add_component(_event(game, user, leads, host))
    return calendar.to_ical()


def _event(game: Game, user: User, leads: list[int], host: str) -> Event:
    assert game.deadline is not None  # games_in_feed keeps only games with a deadline
    others = [seat.public_name for seat in game.seats.all() if seat.user_id != user.pk]
    summary = _("Your turn in %(game)s with %(others)s ends") % {
        "game": game.rules.NAME,
        "others": ", ".join(str(name) for name in others),
    }
    url = settings.SITE_URL.rstrip("/") + reverse("games:game", args=[game.id])
    event = Event()
    event.add("uid", f"{game.id}-{game.version}@{host}")
    event.add("dtstamp", game.turn_started_at or game.started_at or game.deadline)
    event.add("dtstart", game.deadline)
    event.add("summary", summary)
    event.add("description", _("Play your turn: %(url)s") % {"url": url})
    event.add("url", url)
    for lead in leads:
        alarm = Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", summary)
        alarm.add("trigger", -timedelta(hours=lead))
        event.add_component(alarm)
    return event
