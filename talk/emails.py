"""Table talk by email: the others' messages as they come, at most one email per game an
hour, for the players who chose it (``NotificationSettings.talk_emails``).

``note_message`` runs in the transaction that writes a message and marks the talk waiting
for each other player who wants it (``TalkEmail``: due now, or an hour after their last
email); ``send_due_talk_emails`` (a sweep, every minute) claims the due rows and queues one
email each, composed when it is sent (``_compose_talk_email``): a message a moderator hid
meanwhile shows as hidden, never its text.
"""

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from accounts.languages import language_of
from accounts.preferences import settings_for
from accounts.schedule import EmailKind
from accounts.unsubscribe import settings_url, unsubscribe_url
from games.models import Game, Seat
from games.notify import common
from games.queries import game_with_seats
from games.table_talk import MAX_LISTED
from notifications.outbox import queue_email
from notifications.rendering import Composed, composer
from people.blocks import blocked_by
from talk.models import Message, TalkEmail

logger = logging.getLogger(__name__)

# At most one table talk email per player and game in this time.
INTERVAL = timedelta(hours=1)
# One sweep claims at most this many rows; the next sweep, a minute later, takes the rest.
SWEEP_BATCH_SIZE = 500
COMPOSER = "talk.table_talk"


def note_message(message: Message) -> None:
    """Mark ``message`` waiting to be emailed to each other player of its game who wants
    table talk emails (not its writer, not a seat that declined the invitation). Inside
    the transaction that wrote it; the row lock keeps a sweep that is emailing the talk
    from clearing what this adds."""
    seats = Seat.objects.filter(
        game_id=message.game_id, user__isnull=False, declined_at__isnull=True
    ).select_related("user__notification_settings")
    for seat in seats:
        if seat.seat == message.seat or seat.user_id == message.author_id:
            continue
        assert seat.user is not None  # filtered above
        if not settings_for(seat.user).wants(EmailKind.TABLE_TALK):
            continue
        row, _created = TalkEmail.objects.select_for_update().get_or_create(
            game_id=message.game_id, user=seat.user
        )
        if row.due_at is not None:
            continue  # already waiting: the email due then lists this message too
        row.pending_since = message.created_at
        row.due_at = message.created_at
        if row.last_sent_at is not None:
            row.due_at = max(row.due_at, row.last_sent_at + INTERVAL)
        row.save(update_fields=["pending_since", "due_at"])


def send_due_talk_emails(now: datetime | None = None) -> int:
    """Queue the table talk emails due by ``now``; returns how many were queued.

    Each row is claimed in its own transaction (``SKIP LOCKED``, due by ``now``) and
    cleared in it, with the email queued in it: a sweep that runs twice, or two at once,
    sends each email once. A player who no longer wants the emails, or left the table,
    or whose waiting talk is only their own, gets none (the row is cleared all the same).
    """
    now = now or timezone.now()
    due = list(
        TalkEmail.objects.filter(due_at__lte=now)
        .order_by("due_at")
        .values_list("id", flat=True)[:SWEEP_BATCH_SIZE]
    )
    sent = 0
    for row_id in due:
        try:
            with transaction.atomic():
                sent += _send(row_id, now)
        except Exception:
            logger.exception("Talk email sweep: the talk email %s failed", row_id)
    return sent


def _send(row_id: int, now: datetime) -> int:
    """Claim one due row and queue its email (see ``send_due_talk_emails``); 1 if queued."""
    row = (
        TalkEmail.objects.select_for_update(skip_locked=True, of=("self",))
        .select_related("user")
        .filter(id=row_id, due_at__lte=now)
        .first()
    )
    if row is None:
        return 0  # claimed by another sweep, or cleared since
    since = row.pending_since
    row.pending_since = row.due_at = None
    user = row.user
    game = game_with_seats(row.game_id)
    seat = next((s.seat for s in game.seats.all() if s.user_id == user.id), None) if game else None
    prefs = settings_for(user)
    if (
        game is None
        or seat is None
        or since is None
        or not user.is_active
        or not prefs.wants(EmailKind.TABLE_TALK)
        or not _others_messages(game, seat, since, now).exists()
    ):
        row.save(update_fields=["pending_since", "due_at"])
        return 0
    row.last_sent_at = now
    row.save(update_fields=["pending_since", "due_at", "last_sent_at"])
    unsubscribe = unsubscribe_url(user, EmailKind.TABLE_TALK)
    queue_email(
        user.email,
        EmailKind.TABLE_TALK,
        Composed(
            COMPOSER,
            {
                "game_id": str(game.id),
                "seat": seat,
                "since": since,
                "until": now,
                # The one the List-Unsubscribe header holds (its token is timestamped).
                "unsubscribe_link": unsubscribe,
            },
        ),
        topic=f"game:{game.id}",
        # Talk is no reason to wake anyone: it waits for the end of quiet hours.
        send_after=prefs.quiet_until(now),
        headers={
            # RFC 8058, as every game email: a one-click unsubscribe.
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
        language=language_of(user),
    )
    return 1


def _others_messages(game: Game, seat: int, since: datetime, until: datetime):
    """The messages of ``game`` written from ``since`` to ``until`` by the other seats, but
    not by people the reader at ``seat`` has blocked (docs/people.md "Blocking")."""
    found = Message.objects.filter(game=game, created_at__gte=since, created_at__lte=until)
    reader = Seat.objects.filter(game=game, seat=seat).values_list("user_id", flat=True).first()
    if reader is not None:
        found = found.exclude(author_id__in=blocked_by(reader))
    return found.exclude(seat=seat)


@composer(COMPOSER)
def _compose_talk_email(*, game_id, seat, since, until, unsubscribe_link) -> dict:
    """The context of a table talk email to ``seat``: the others' messages written from
    ``since`` to ``until`` (the newest ``MAX_LISTED``, with how many earlier ones were left
    out), each ``{"name", "text", "hidden"}``, a hidden one's text ``""`` (hidden as it is
    when sent); names, link and settings as they are now."""
    game = game_with_seats(game_id)
    if game is None:
        raise Game.DoesNotExist(f"game {game_id} is gone: its talk email cannot be composed")
    seat_row = next(s for s in game.seats.all() if s.seat == seat)
    assert seat_row.user is not None  # talk emails are queued for people only
    context = common.game_email_context(
        game, seat_row, settings_for(seat_row.user).zone, with_table=False
    )
    found = _others_messages(game, seat, since, until).select_related("author")
    newest = list(found.order_by("-created_at", "-id")[:MAX_LISTED])
    messages = [
        {
            "name": str(message.author.public_name),
            "text": "" if message.is_hidden else message.text,
            "hidden": message.is_hidden,
        }
        for message in reversed(newest)
    ]
    earlier = found.count() - len(newest)
    context["talk"] = {"messages": messages, "earlier": earlier}
    context["writers"] = sorted({m["name"] for m in messages})
    return {**context, "unsubscribe_link": unsubscribe_link, "settings_link": settings_url()}
