"""Due work swept from the database: each item claimed with a guarded UPDATE, acted on once."""

import logging
from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy

from accounts.models import NotificationSettings
from accounts.preferences import settings_for
from games import actions, events
from games.deadlines import reminder_due
from games.models import EndReason, Game, GameStatus
from games.notify import digest, invitation, reminder
from games.queries import SEATS_WITH_USERS

logger = logging.getLogger(__name__)


def cancel_expired_invitations(now: datetime | None = None) -> int:
    """Cancel every game still waiting for acceptances past its expiry; returns how many.

    Each game is claimed with a guarded UPDATE, so two sweeps running together (or a
    sweep racing the last acceptance) cancel and notify each game at most once.
    """
    now = now or timezone.now()
    due = Game.objects.filter(
        status=GameStatus.INVITED, invitation_expires_at__lte=now
    ).values_list("id", flat=True)
    cancelled = 0
    for game_id in list(due):
        with transaction.atomic():
            claimed = Game.objects.filter(
                id=game_id, status=GameStatus.INVITED, invitation_expires_at__lte=now
            ).update(
                status=GameStatus.CANCELLED,
                end_reason=EndReason.EXPIRED,
                ended_at=now,
                updated_at=now,
            )
            if claimed != 1:
                continue
            game = Game.objects.get(id=game_id)
            events.game_ended.send(sender=Game, game=game)
            invitation.queue_cancellation(
                # Lazy: each recipient's email renders it in their own language.
                game,
                reason=gettext_lazy("Not every player accepted the invitation in time."),
            )
            cancelled += 1
    return cancelled


def play_due_timeouts(now: datetime | None = None, limit: int | None = None) -> int:
    """Play the automatic moves in every active game whose deadline has passed: the rest
    of the turn (Piratz: one move, P24; Rattenscharf: one per strip left in hand, R34).

    Returns in how many games a turn was played; ``limit`` caps how many games this run
    looks at (None: every game due at ``now``). Each game is one transaction: its row is
    claimed with ``SELECT ... FOR UPDATE SKIP LOCKED`` through the ``game_active_deadline``
    partial index, then ``do_play_timeout`` is called with the version the claim saw.

    Exactly once: the row lock makes a second sweep (another worker, a second beat, a
    retried task) skip a game this one holds instead of queueing behind it, and then find
    it no longer due; the version guard in ``do_play_timeout`` makes a sweep that read the
    game before a player's move do nothing. (SQLite has no row locks: its writers take
    turns, and the version and deadline guards alone keep each move once.) A game whose
    automatic move fails is logged and left for the next sweep; it never blocks the others.
    """
    now = now or timezone.now()
    played = 0
    # Games this run has looked at but not moved (failed, or no longer due by the action's
    # own clock): excluded, or the loop would claim them again and again.
    passed_over: list = []
    while limit is None or played + len(passed_over) < limit:
        claimed = None
        try:
            with transaction.atomic():
                claimed = _claim_due_game(now, passed_over)
                if claimed is None:
                    break
                game_id, version = claimed
                moved = actions.do_play_timeout(game_id, expected_version=version)
        except Exception:
            if claimed is None:
                raise  # the claim itself failed (database down): nothing to skip, stop
            logger.exception("Deadline sweep: the automatic move in game %s failed", claimed[0])
            moved = None
        if moved is None:
            passed_over.append(claimed[0])
        else:
            played += 1
    return played


def due_games(now: datetime):
    """The active games whose deadline has passed by ``now``, most overdue first.

    Its condition is the ``game_active_deadline`` partial index's (``status = 'active'``),
    so the cost grows with the due games, not with all active ones (bench/sweeps.py).
    """
    return Game.objects.filter(status=GameStatus.ACTIVE, deadline__lte=now).order_by(
        "deadline", "id"
    )


def _claim_due_game(now: datetime, passed_over: list) -> tuple | None:
    """(id, version) of the most overdue active game nobody else holds, locked; or None.

    Must run inside the transaction that acts on it. ``SKIP LOCKED`` lets concurrent
    sweeps split the due games between them; other backends ignore it.
    """
    return (
        due_games(now)
        .select_for_update(skip_locked=True)
        .exclude(id__in=passed_over)
        .values_list("id", "version")
        .first()
    )


def resume_due_pauses(now: datetime | None = None) -> int:
    """Resume every paused game whose longest pause (``PAUSE_MAX_DAYS``) is over by ``now``;
    returns how many.

    Each is resumed by ``actions.resume_due_pause`` under its row lock, with the pause this
    sweep read (``paused_at``): a second sweep, or one racing the host's own resume, finds
    that pause gone and does nothing. A failing game is logged and left for the next sweep.
    """
    now = now or timezone.now()
    due = Game.objects.filter(status=GameStatus.ACTIVE, paused_until__lte=now).values_list(
        "id", "paused_at"
    )
    resumed = 0
    for game_id, paused_at in list(due):
        assert paused_at is not None  # paused_until is set only with paused_at
        try:
            resumed += actions.resume_due_pause(game_id, paused_at, now) is not None
        except Exception:
            logger.exception("Resume sweep: resuming game %s failed", game_id)
    return resumed


def send_due_reminders(now: datetime | None = None) -> int:
    """Queue every turn reminder due by ``now`` (``next_reminder_at``); returns how many.

    Each reminder is claimed with a guarded UPDATE on the game row (its id, the
    ``version``, ``deadline`` and ``next_reminder_at`` this sweep read) that advances
    ``next_reminder_at`` to the turn's next reminder (or null) and records the leads
    sent, in the transaction that queues the email. So two workers or beats, a retried
    task, or a sweep racing the player's move queue each reminder at most once per turn,
    and never after the player moved: a move changes the version and schedules the next
    turn's reminders, and the guard then matches no row. A failing game is logged and
    left for the next sweep; it never blocks the others.
    """
    now = now or timezone.now()
    due = (
        Game.objects.filter(status=GameStatus.ACTIVE, next_reminder_at__lte=now)
        .order_by("next_reminder_at")
        .values_list("id", "version", "deadline", "next_reminder_at")
    )
    sent = 0
    for game_id, version, deadline, reminder_at in list(due):
        try:
            with transaction.atomic():
                sent += _send_reminder(game_id, version, deadline, reminder_at, now)
        except Exception:
            logger.exception("Reminder sweep: the reminder in game %s failed", game_id)
    return sent


def _send_reminder(game_id, version: int, deadline, reminder_at, now: datetime) -> int:
    """Claim and queue one game's due reminder (see ``send_due_reminders``); 1 if queued."""
    game = Game.objects.prefetch_related(SEATS_WITH_USERS).filter(id=game_id).first()
    if game is None or game.current_seat is None:
        return 0
    player = next(s.user for s in game.seats.all() if s.seat == game.current_seat)
    assert player is not None  # reminders are scheduled for people only (schedule_reminders)
    # The player's lead times as they are now (they may have changed them mid-turn): every
    # unsent lead whose time has come is marked sent; one email covers them all.
    leads, sent_leads = settings_for(player).reminder_leads, list(game.reminder_leads_sent)
    while (upcoming := reminder_due(deadline, game.turn_length(), leads, sent_leads)) and (
        upcoming[0] <= now
    ):
        sent_leads.append(upcoming[1])
    claimed = Game.objects.filter(
        id=game_id,
        status=GameStatus.ACTIVE,
        version=version,
        deadline=deadline,
        next_reminder_at=reminder_at,
    ).update(
        next_reminder_at=upcoming[0] if upcoming else None,
        reminder_leads_sent=sent_leads,
        updated_at=now,
    )
    if claimed != 1 or sent_leads == game.reminder_leads_sent or deadline <= now:
        # Lost the race, or nothing is due any more (leads changed), or the deadline has
        # passed and the timeout sweep acts instead: rescheduled, no email.
        return 0
    # None when the player no longer wants reminders (changed mid-turn): claimed all the same.
    return int(reminder.queue_reminder(game, game.current_seat, deadline) is not None)


def send_due_digests(now: datetime | None = None) -> int:
    """Queue the daily digest of every person whose digest is due by ``now``; returns how many.

    Each person's row is claimed with a guarded UPDATE (the ``next_digest_at`` this sweep
    read) that advances it to their next local digest hour (DST-correct, see
    ``NotificationSettings.next_digest_after``), in the transaction that queues the
    email, so a digest goes out at most once a day however many sweeps run. A person with
    no game waiting for them gets no email (``queue_digest`` returns False).
    """
    now = now or timezone.now()
    due = NotificationSettings.objects.filter(
        mode=NotificationSettings.Mode.DIGEST, next_digest_at__lte=now
    ).values_list("id", "next_digest_at")
    sent = 0
    for settings_id, digest_at in list(due):
        try:
            with transaction.atomic():
                sent += _send_digest(settings_id, digest_at, now)
        except Exception:
            logger.exception("Digest sweep: the digest of settings %s failed", settings_id)
    return sent


def _send_digest(settings_id, digest_at, now: datetime) -> int:
    """Claim and queue one person's due digest (see ``send_due_digests``); 1 if queued."""
    prefs = NotificationSettings.objects.select_related("user").get(id=settings_id)
    claimed = NotificationSettings.objects.filter(
        id=settings_id, mode=NotificationSettings.Mode.DIGEST, next_digest_at=digest_at
    ).update(next_digest_at=prefs.next_digest_after(now))
    if claimed != 1:
        return 0
    waiting = (
        Game.objects.filter(
            status=GameStatus.ACTIVE, seats__user=prefs.user, seats__seat=F("current_seat")
        )
        .prefetch_related(SEATS_WITH_USERS)
        .order_by("deadline")
    )
    return int(digest.queue_digest(prefs.user, list(waiting)))
