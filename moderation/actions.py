"""What moderators do to players (suspend, unsuspend) and to reports, and how players file
reports. Each moderator's ``do_*`` is one transaction that writes its audit entry with the
change. (A moderator's resend of emails is the outbox's: ``notifications.outbox``.)"""

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import audit.log
from accounts.languages import language_of
from accounts.models import User
from audit.models import AuditAction
from core.errors import ServiceError
from core.text import clean_typed_text
from games import deadlines
from games.models import Game, Seat
from moderation.models import Report, ReportCategory
from notifications.outbox import queue_email

logger = logging.getLogger(__name__)


def do_suspend_user(
    moderator: User, user: User, reason: str, until: datetime | None = None
) -> User:
    """Suspend ``user`` from now until ``until`` (None: until a moderator unsuspends).

    While suspended their login links, game links and API key stop working (API: 403
    ``suspended``), they cannot create games or be invited, and their running games go on
    without them: every game waiting on them gets the deadline now, so the next deadline
    sweep plays their automatic move (rules P24), and so does each new turn of theirs.
    Suspending a suspended player again sets the new end. Raises ``ServiceError("invalid")``
    with nothing changed for a blank reason, an ``until`` not in the future, or a
    moderator suspending themselves.
    """
    reason = audit.log.clean_reason(reason)
    now = timezone.now()
    if until is not None and until <= now:
        raise ServiceError("invalid", _("A suspension must end in the future."))
    if user.pk == moderator.pk:
        raise ServiceError("invalid", _("You cannot suspend yourself."))
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        user.suspended_at = now
        user.suspended_until = until
        user.save(update_fields=["suspended_at", "suspended_until"])
        audit.log.record(
            moderator,
            AuditAction.SUSPEND_USER,
            reason=reason,
            user=user,
            extra={"until": until.isoformat() if until else None},
        )
        waiting = deadlines.refresh_deadlines_for(user)
    logger.info(
        "user %s suspended by moderator %s until %s (%d games waiting on them): %r",
        user.id,
        moderator.id,
        until or "further notice",
        waiting,
        reason,
    )
    return user


def do_unsuspend_user(moderator: User, user: User, reason: str) -> User:
    """End ``user``'s suspension now: links, API key, games and invitations work again,
    and games still waiting on them get their turn's normal deadline back.

    Raises ``ServiceError("invalid")`` with nothing changed for a blank reason or a player
    who is not suspended (a suspension that ran out counts as ended).
    """
    reason = audit.log.clean_reason(reason)
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        if not user.is_suspended():
            raise ServiceError("invalid", _("This player is not suspended."))
        until = user.suspended_until
        user.suspended_at = None
        user.suspended_until = None
        user.save(update_fields=["suspended_at", "suspended_until"])
        audit.log.record(
            moderator,
            AuditAction.UNSUSPEND_USER,
            reason=reason,
            user=user,
            extra={"was_until": until.isoformat() if until else None},
        )
        deadlines.refresh_deadlines_for(user)
    logger.info("user %s unsuspended by moderator %s: %r", user.id, moderator.id, reason)
    return user


def do_file_report(
    reporter: User, game_id, category: str, text: str, seat: int | None = None
) -> Report:
    """``reporter`` reports game ``game_id``, or the player at ``seat`` in it.

    Only about games the reporter holds a seat in: any other game is ``not_found``, as
    if it did not exist (staff without a seat: ``not_a_player``). ``invalid`` for an
    unknown category, a blank text or one the one rule for typed text refuses
    (``core.text.clean_typed_text``: over ``Report.MAX_TEXT_LENGTH`` characters, control
    characters), a seat the game does not have, or the reporter's own seat. How often one
    may report is the API's throttle.
    """
    if category not in ReportCategory.values:
        raise ServiceError(
            "invalid",
            _("category must be one of: %(choices)s.")
            % {"choices": ", ".join(ReportCategory.values)},
        )
    text = str(text or "").strip()
    if not text:
        raise ServiceError("invalid", _("Say in a few words what happened."))
    text = clean_typed_text(
        text, field_label=_("The text"), max_length=Report.MAX_TEXT_LENGTH, multiline=True
    )
    game = Game.objects.filter(id=game_id).first()
    seats = list(Seat.objects.select_related("user").filter(game=game)) if game else []
    if game is None or not any(row.user_id == reporter.id for row in seats):
        if game is not None and reporter.is_staff:
            raise ServiceError("not_a_player", _("You hold no seat in this game."))
        raise ServiceError("not_found", _("No such game, or you are not a player of it."))
    reported = None
    if seat is not None:
        reported = next((row.user for row in seats if row.seat == seat), None)
        if reported is None:
            raise ServiceError("invalid", _("This game has no seat %(seat)d.") % {"seat": seat})
        if reported.id == reporter.id:
            raise ServiceError("invalid", _("You cannot report yourself."))
    report = Report.objects.create(
        reporter=reporter, game=game, reported_user=reported, category=category, text=text
    )
    logger.info("report %s filed by user %s about game %s", report.id, reporter.id, game.id)
    return report


def do_resolve_report(moderator: User, report_id: int, note: str) -> Report:
    """Close an open report with the moderator's ``note`` (the audit entry's reason) and
    tell the reporter by email that it was handled; the email never says how.

    Raises ``ServiceError("invalid")`` with nothing changed for a blank note or a report
    already resolved (two moderators resolving the same report: the second is told).
    """
    note = audit.log.clean_reason(note)
    with transaction.atomic():
        report = (
            Report.objects.select_for_update(of=("self",))
            .select_related("reporter", "game", "reported_user")
            .get(pk=report_id)
        )
        if report.status != Report.Status.OPEN:
            raise ServiceError("invalid", _("This report has already been resolved."))
        report.status = Report.Status.RESOLVED
        report.resolved_at = timezone.now()
        report.resolved_by = moderator
        report.save(update_fields=["status", "resolved_at", "resolved_by"])
        audit.log.record(
            moderator,
            AuditAction.RESOLVE_REPORT,
            reason=note,
            game=report.game,
            user=report.reported_user,
            extra={"report": report.id, "category": report.category},
        )
        queue_email(
            report.reporter.email,
            "report_handled",
            {"name": report.reporter.public_name, "filed_at": report.created_at},
            topic=f"report:{report.id}",
            language=language_of(report.reporter),
        )
    return report
