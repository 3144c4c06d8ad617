"""The only writers of table talk: players post, moderators hide (audited), players report.

``post_message`` is what every way of writing calls: the API, the game page, mail-in.
"""

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import audit.log
from accounts.models import User
from audit.models import AuditAction
from core.errors import ServiceError
from core.text import clean_typed_text
from games import queries
from games.models import Game, Seat
from people.blocks import blocked_by
from talk import emails, events
from talk.models import Message, MessageReport

RATE_WINDOW = timedelta(hours=1)
# The longest reason a player gives when reporting a message (the page's field says so too).
REPORT_REASON_MAX_LENGTH = 500


def clean_text(text) -> str:
    """``text`` as stored: line ends made ``\\n``, trimmed. ``ServiceError("invalid")`` when
    it is not a string, empty, over ``Message.MAX_LENGTH`` characters or holds what the one
    rule for typed text refuses in several lines (``core.text.clean_typed_text``: control
    characters other than line breaks and tabs, lone surrogates, direction overrides)."""
    return clean_typed_text(
        text, field_label=_("A message"), max_length=Message.MAX_LENGTH, multiline=True
    )


def _writer_seat(game: Game, user: User) -> int:
    seat = queries.seat_of(game, user)
    if seat is not None:
        return seat
    if user.is_staff:
        raise ServiceError("not_a_player", _("Only the game's players can write at its table."))
    raise ServiceError("not_found", _("No such game, or you are not a player of it."))


def post_message(game: Game, user: User, text, *, now: datetime | None = None) -> Message:
    """``user`` writes ``text`` at ``game``'s table; returns the new message.

    Players only, whatever the game's state (an ended game's players may still talk).
    Refusals (``ServiceError``, nothing written): ``not_found`` for someone not at the
    table (``not_a_player`` for staff), ``suspended`` while a moderator's suspension runs,
    ``invalid`` for text ``clean_text`` refuses, ``throttled`` beyond
    ``TALK_MESSAGES_PER_HOUR`` messages of this player at this game in the last hour.
    Marks it due for the others' table talk emails (``talk.emails``) and sends
    ``talk.events.message_posted`` in the transaction that writes it.
    """
    now = now or timezone.now()
    seat = _writer_seat(game, user)
    if user.is_suspended(now):
        raise ServiceError(
            "suspended", _("A moderator has suspended this account, so it cannot write now.")
        )
    text = clean_text(text)
    with transaction.atomic():
        # The seat row is the player's lock at this table: two posts at once are counted
        # one after the other, so the limit holds.
        Seat.objects.select_for_update().filter(game=game, seat=seat).exists()
        recent = Message.objects.filter(
            game=game, author=user, created_at__gt=now - RATE_WINDOW
        ).count()
        if recent >= settings.TALK_MESSAGES_PER_HOUR:
            raise ServiceError(
                "throttled",
                _(
                    "You have written %(count)d messages at this table within the hour; "
                    "wait a while before the next."
                )
                % {"count": recent},
            )
        message = Message.objects.create(
            game=game, seat=seat, author=user, text=text, created_at=now
        )
        # In the same transaction: the table talk emails are marked due (talk.emails) and
        # a webhook's post is written with the message (talk.events).
        emails.note_message(message)
        events.message_posted.send(sender=Message, message=message)
        return message


def messages_of(game: Game, reader: User | None = None):
    """The game's table talk, oldest first, each with its author (for the name); for a
    ``reader``, without the messages of the people they blocked (``unblocked_for``)."""
    found = unblocked_for(Message.objects.filter(game=game), reader.pk if reader else None)
    return found.select_related("author").order_by("created_at", "id")


def unblocked_for(found, reader_id: int | None):
    """``found`` (messages) without those written by people ``reader_id`` has blocked: a
    blocker no longer reads them, anywhere (docs/people.md "Blocking")."""
    if reader_id is None:
        return found
    return found.exclude(author_id__in=blocked_by(reader_id))


def seat_reader_id(game: Game, seat: int) -> int | None:
    """The person at ``seat`` of ``game`` (None for a bot's own seat)."""
    return Seat.objects.filter(game=game, seat=seat).values_list("user_id", flat=True).first()


def do_hide_message(moderator: User, message_id: int, reason: str) -> Message:
    """A moderator hides a message (players see that it was there, not what it said),
    with the reason in the audit log, and resolves its open reports. ``ServiceError``:
    ``invalid`` without a reason or if it is hidden already; ``not_found`` for a
    non-moderator or no such message."""
    reason = audit.log.clean_reason(reason)
    with transaction.atomic():
        message = _locked(message_id)
        if message.is_hidden:
            raise ServiceError("invalid", _("This message is hidden already."))
        now = timezone.now()
        audit.log.record(
            moderator,
            AuditAction.HIDE_MESSAGE,
            reason=reason,
            game=message.game,
            user=message.author,
            extra={"message": message.pk},
        )
        message.hidden_at, message.hidden_by, message.hidden_reason = now, moderator, reason
        message.save(update_fields=["hidden_at", "hidden_by", "hidden_reason"])
        MessageReport.objects.filter(message=message, resolved_at=None).update(resolved_at=now)
    return message


def do_unhide_message(moderator: User, message_id: int, reason: str) -> Message:
    """A moderator shows a hidden message again (a mistake undone), audited like hiding."""
    reason = audit.log.clean_reason(reason)
    with transaction.atomic():
        message = _locked(message_id)
        if not message.is_hidden:
            raise ServiceError("invalid", _("This message is not hidden."))
        audit.log.record(
            moderator,
            AuditAction.UNHIDE_MESSAGE,
            reason=reason,
            game=message.game,
            user=message.author,
            extra={"message": message.pk},
        )
        message.hidden_at, message.hidden_by, message.hidden_reason = None, None, ""
        message.save(update_fields=["hidden_at", "hidden_by", "hidden_reason"])
    return message


def do_report_message(reporter: User, message_id: int, reason: str = "") -> MessageReport:
    """A player of the message's game reports it to the moderators (once; again changes
    nothing), with an optional ``reason`` kept on one line. ``not_found`` for someone not
    at that table or no such message; ``invalid`` for a reason the one rule for typed text
    refuses (``core.text.clean_typed_text``: over ``REPORT_REASON_MAX_LENGTH`` characters,
    control or invisible characters)."""
    message = Message.objects.select_related("game").filter(pk=message_id).first()
    if message is None or queries.seat_of(message.game, reporter) is None:
        raise ServiceError("not_found", _("No such message at a table of yours."))
    reason = clean_typed_text(
        " ".join(reason.split()) if isinstance(reason, str) else reason,  # one line
        field_label=_("The reason"),
        max_length=REPORT_REASON_MAX_LENGTH,
        required=False,
    )
    report, _created = MessageReport.objects.get_or_create(
        message=message, reporter=reporter, defaults={"reason": reason}
    )
    return report


def _locked(message_id: int) -> Message:
    message = (
        Message.objects.select_for_update(of=("self",))
        .select_related("game", "author")
        .filter(pk=message_id)
    ).first()
    if message is None:
        raise ServiceError("not_found", _("No such message."))
    return message


def messages_since(
    game: Game, since: datetime | None, exclude_seat: int, limit: int
) -> tuple[list[dict], int]:
    """The reader ``games.table_talk`` asks for the emails: the newest ``limit`` messages
    of ``game`` written after ``since`` (all when None) by seats other than
    ``exclude_seat``, oldest first, each ``{"name", "text", "hidden"}`` (a hidden one's
    text never leaves: ``""``); and how many earlier such messages were left out."""
    found = Message.objects.filter(game=game).exclude(seat=exclude_seat)
    found = unblocked_for(found, seat_reader_id(game, exclude_seat))
    if since is not None:
        found = found.filter(created_at__gt=since)
    newest = list(found.select_related("author").order_by("-created_at", "-id")[: limit + 1])
    earlier = found.count() - limit if len(newest) > limit else 0
    listed = [
        {
            "name": str(message.author.public_name),
            "text": "" if message.is_hidden else message.text,
            "hidden": message.is_hidden,
        }
        for message in reversed(newest[:limit])
    ]
    return listed, earlier
