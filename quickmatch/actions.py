"""Every change to a seek: post (replacing the player's waiting one), withdraw, expire, pair.

``do_post_seek`` and ``do_withdraw_seek`` are one transaction each, under the player's row
lock and the seek's. The pairing worker (``pair_waiting_seeks``, run by beat every minute
and after each new seek commits) reads the waiting seeks, asks the pure
``quickmatch.pairing.tables`` which tables to make, and starts each table's game in its
own transaction after claiming its seeks with ``SELECT … FOR UPDATE SKIP LOCKED``: a
table is started only when every one of its seeks was claimed still waiting, and the
claim marks them matched in the transaction that starts the game. So a seek is in one
game at most, however many workers run at once (docs/decisions/0003-skip-locked-sweeps.md).
"""

import logging
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.languages import language_of
from accounts.models import User
from core.errors import ServiceError
from core.tasks import task_named
from games import actions as game_actions
from games.actions.invitations import player_counts_text
from games.catalogue import kinds, rules_for
from games.models import Game
from notifications.outbox import queue_email, sent_together
from people.blocks import any_blocked, blocked_ids
from quickmatch import pairing
from quickmatch.models import Seek, SeekStatus
from ratings.models import Rating, display_rating
from ratings.skill import MU, SIGMA

logger = logging.getLogger(__name__)

# The range (displayed rating points either side) a seek may ask for.
MIN_RATING_RANGE, MAX_RATING_RANGE = 0, 1000
DEFAULT_RATING_RANGE = 200
# One run of the worker reads at most this many waiting seeks, the longest-waiting first;
# a longer queue is paired on by the next run (a minute later, or the next new seek's).
PAIRING_BATCH = 500
# The email a player gets when their seek expires (templates/emails/seek_expired/).
SEEK_EXPIRED_TEMPLATE = "seek_expired"


def rating_of(user: User, kind: str) -> int:
    """``user``'s displayed rating at ``kind`` (a new player's, 1500, when they have none)."""
    rating = Rating.objects.filter(user=user, kind=kind).first()
    return rating.display if rating is not None else display_rating(MU, SIGMA)


def _check_terms(kind, players, turn_hours_min, turn_hours_max, rated, rating_range) -> None:
    """Refuse (``invalid``) terms no seek can have; nothing is read from the database."""
    if kind not in kinds():
        raise ServiceError(
            "invalid",
            _("Unknown game %(game)r; available: %(available)s.")
            % {"game": kind, "available": kinds()},
        )
    rules = rules_for(kind)
    if not isinstance(players, int) or players not in rules.PLAYER_COUNTS:
        raise ServiceError(
            "invalid",
            _("A game of %(game)s needs %(counts)s players.")
            % {"game": rules.NAME, "counts": player_counts_text(rules)},
        )
    low, high = game_actions.MIN_TURN_HOURS, game_actions.MAX_TURN_HOURS
    for hours in (turn_hours_min, turn_hours_max):
        if not isinstance(hours, int) or not low <= hours <= high:
            raise ServiceError(
                "invalid",
                _("Hours per turn must be between %(min)d and %(max)d.")
                % {"min": low, "max": high},
            )
    if turn_hours_min > turn_hours_max:
        raise ServiceError(
            "invalid", _("The fewest hours per turn must not be more than the most.")
        )
    if not isinstance(rated, bool):
        raise ServiceError("invalid", _("rated must be true or false."))
    if not isinstance(rating_range, int) or not (
        MIN_RATING_RANGE <= rating_range <= MAX_RATING_RANGE
    ):
        raise ServiceError(
            "invalid",
            _("The rating range must be between %(min)d and %(max)d points.")
            % {"min": MIN_RATING_RANGE, "max": MAX_RATING_RANGE},
        )


def do_post_seek(
    user: User,
    *,
    game: str,
    players: int,
    turn_hours_min: int,
    turn_hours_max: int,
    rated: bool = True,
    rating_range: int = DEFAULT_RATING_RANGE,
) -> Seek:
    """Post a seek for ``game`` (a catalogue kind) with ``players`` at the table (the seeker
    too), a clock of ``turn_hours_min`` to ``turn_hours_max`` hours per turn, rated or not,
    opponents within ``rating_range`` displayed points of the seeker's rating at ``game``.

    A waiting seek of the player's for the same game is withdrawn: the new one replaces
    it. The seek waits ``SEEK_HOURS``; the pairing worker is asked to look at once, after
    commit. Raises ``ServiceError`` (``invalid``, ``suspended``, ``throttled``: more than
    ``SEEKS_PER_HOUR`` seeks in an hour) and changes nothing on refusal."""
    _check_terms(game, players, turn_hours_min, turn_hours_max, rated, rating_range)
    now = timezone.now()
    with transaction.atomic():
        # The player's row, locked: their seeks are counted and replaced one request after
        # the other, so two posts at once neither slip under the limit nor both wait.
        person = User.objects.select_for_update().get(pk=user.pk)
        if person.is_suspended(now):
            raise ServiceError(
                "suspended",
                _("A moderator has suspended your account, so you cannot seek games for now."),
            )
        hour_ago = now - timedelta(hours=1)
        if Seek.objects.filter(user=person, created_at__gt=hour_ago).count() >= (
            settings.SEEKS_PER_HOUR
        ):
            raise ServiceError(
                "throttled",
                _("You can post at most %(count)d seeks an hour.")
                % {"count": settings.SEEKS_PER_HOUR},
            )
        # A worker starting a game with the old seek holds its row: this waits for it, and
        # then finds it matched (so the new seek is for one more game, as asked).
        replaced = list(
            Seek.objects.select_for_update()
            .filter(user=person, kind=game, status=SeekStatus.WAITING)
            .values_list("id", flat=True)
        )
        Seek.objects.filter(id__in=replaced, status=SeekStatus.WAITING).update(
            status=SeekStatus.WITHDRAWN, ended_at=now
        )
        seek = Seek.objects.create(
            user=person,
            kind=game,
            players=players,
            turn_hours_min=turn_hours_min,
            turn_hours_max=turn_hours_max,
            rated=rated,
            rating=rating_of(person, game),
            rating_range=rating_range,
            created_at=now,
            expires_at=now + timedelta(hours=settings.SEEK_HOURS),
        )
        # robust: the seek is committed; with the broker down the minute's run pairs it.
        transaction.on_commit(
            lambda: task_named("quickmatch.tasks.pair_seeks").delay(), robust=True
        )
    logger.info("seek %s posted by user %s for %s", seek.id, user.id, game)
    return seek


def do_withdraw_seek(user: User, seek_id) -> Seek:
    """``user`` withdraws their waiting seek. Raises ``ServiceError``: ``not_found`` (not
    theirs), ``conflict`` (matched, expired or withdrawn already: nothing to withdraw);
    a refusal changes nothing."""
    with transaction.atomic():
        # Waits for a worker holding the seek: then it is matched, and refused below.
        seek = Seek.objects.select_for_update().filter(id=seek_id, user=user).first()
        if seek is None:
            raise ServiceError("not_found", _("No such seek of yours."))
        if seek.status == SeekStatus.MATCHED:
            raise ServiceError(
                "conflict",
                _("This seek has found its game already; resign there if you must."),
            )
        if seek.status != SeekStatus.WAITING:
            raise ServiceError(
                "conflict",
                _("This seek is %(status)s already.") % {"status": seek.get_status_display()},
            )
        seek.status = SeekStatus.WITHDRAWN
        seek.ended_at = timezone.now()
        seek.save(update_fields=["status", "ended_at"])
    return seek


def expire_due_seeks(now: datetime | None = None) -> int:
    """Mark every waiting seek past ``expires_at`` expired and email its player once
    (``seek_expired``); returns how many expired.

    Each seek is claimed with a guarded UPDATE (``status = waiting``) in its own
    transaction with its email: a seek a worker is matching meanwhile is waited for and
    then no longer waiting, so it is never both matched and expired, and of two sweeps
    only the one whose UPDATE changed the row emails (a second run acts on nothing)."""
    now = now or timezone.now()
    due = Seek.objects.filter(status=SeekStatus.WAITING, expires_at__lte=now).values_list(
        "id", flat=True
    )
    return sum(expire_seek(seek_id, now) for seek_id in list(due))


def expire_seek(seek_id, now: datetime) -> bool:
    """Claim the seek ``seek_id`` as expired if it still waits past its time, and email its
    player, in one transaction; False when another run (or a match, a withdrawal) got it
    first: two sweeps that both read it as due email once."""
    with transaction.atomic():
        claimed = Seek.objects.filter(
            id=seek_id, status=SeekStatus.WAITING, expires_at__lte=now
        ).update(status=SeekStatus.EXPIRED, ended_at=now)
        if claimed != 1:
            return False
        _tell_expired(Seek.objects.select_related("user").get(id=seek_id))
    return True


def _tell_expired(seek: Seek) -> None:
    """Email ``seek``'s player that it found no game in time, with a link back to quick
    match; through the outbox in the caller's transaction. Nobody for an erased account."""
    if seek.user.erased_at is not None:
        return
    queue_email(
        seek.user.email,
        SEEK_EXPIRED_TEMPLATE,
        {
            "game_name": rules_for(seek.kind).NAME,
            "players": seek.players,
            "hours": settings.SEEK_HOURS,
            "quickmatch_link": settings.SITE_URL + reverse("quickmatch:page"),
        },
        topic=f"seek:{seek.id}",
        language=language_of(seek.user),
    )


def candidate(seek: Seek) -> pairing.Candidate:
    """``seek`` as the pure pairing sees it."""
    return pairing.Candidate(
        key=seek.id,
        user=seek.user_id,
        kind=seek.kind,
        players=seek.players,
        hours_min=seek.turn_hours_min,
        hours_max=seek.turn_hours_max,
        rated=seek.rated,
        rating=seek.rating,
        rating_range=seek.rating_range,
        posted_at=seek.created_at,
    )


def pair_waiting_seeks(now: datetime | None = None) -> int:
    """The pairing worker: expire what is due, then start a game for every table
    ``pairing.tables`` makes of the waiting seeks; returns how many games it started.

    Safe to run twice and on several workers at once: each table is claimed in the
    transaction that starts its game (``_start_table``), and a table some of whose seeks
    are held or gone is left to the next run. A table that fails to start is logged and
    left; it never blocks the others."""
    now = now or timezone.now()
    expire_due_seeks(now)
    waiting = list(
        Seek.objects.filter(status=SeekStatus.WAITING, expires_at__gt=now)
        .exclude(user__in=User.objects.filter(User.suspended_q(now)))
        .order_by("created_at")[:PAIRING_BATCH]
    )
    if len(waiting) < 2:
        return 0
    blocked = {
        pairing.blocked_pair(user_id, other)
        for user_id in {seek.user_id for seek in waiting}
        for other in blocked_ids(user_id)
    }
    made = pairing.tables(
        [candidate(seek) for seek in waiting],
        now,
        widening_per_minute=settings.SEEK_WIDENING_PER_MINUTE,
        blocked=blocked,
    )
    started = 0
    for table in made:
        try:
            started += _start_table(table, now) is not None
        except Exception:
            logger.exception("Quick match: the game of seeks %s failed to start", table)
    return started


def _start_table(table: tuple[pairing.Candidate, ...], now: datetime) -> Game | None:
    """Claim ``table``'s seeks and start their game, in one transaction; the game, or None
    when the table no longer stands (a seek taken by another worker, withdrawn, replaced or
    expired; a block or a suspension since it was read): then nothing is changed."""
    ids = [str(seek.key) for seek in table]
    with transaction.atomic(), sent_together():
        # SKIP LOCKED: a seek another worker holds is left to it, not waited for. Only the
        # seeks' rows (``of``): a player's row is locked while they post, and the people
        # are read below, in this transaction, to see a suspension since the run began.
        claimed = list(
            Seek.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(id__in=ids, status=SeekStatus.WAITING, expires_at__gt=now)
            .select_related("user")
        )
        if len(claimed) != len(ids):
            return None
        people = [seek.user for seek in claimed]
        if any(
            person.is_suspended(now) or person.erased_at is not None for person in people
        ) or any_blocked(person.pk for person in people):
            return None
        # The seat order is drawn (who begins is chance, as a colour is on lichess); the
        # longest-waiting seeker holds the host's chair.
        seated = list(people)
        secrets.SystemRandom().shuffle(seated)
        host = min(claimed, key=lambda seek: seek.created_at).user
        first = claimed[0]
        game = game_actions.do_create_arranged_game(
            host,
            seated,
            game=first.kind,
            turn_hours=pairing.turn_hours_for(table),
            rated=first.rated,
            public=True,
        )
        Seek.objects.filter(id__in=ids, status=SeekStatus.WAITING).update(
            status=SeekStatus.MATCHED, game=game, ended_at=now
        )
    logger.info("quick match: game %s started for seeks %s", game.id, ids)
    return game


def withdraw_seeks_of(user: User, now: datetime) -> int:
    """The quick match eraser (``accounts.erasure.erasing_account``, in
    ``QuickmatchConfig.ready``): ``user`` deleted their account, so their waiting seeks
    are withdrawn in the erasure's transaction and nobody is paired with them."""
    return Seek.objects.filter(user=user, status=SeekStatus.WAITING).update(
        status=SeekStatus.WITHDRAWN, ended_at=now
    )


def export_seeks(user: User) -> list[dict]:
    """``user``'s seeks for their data export (``accounts.personal_data.export_asked``)."""
    return [
        {
            "game": seek.kind,
            "players": seek.players,
            "turn_hours_min": seek.turn_hours_min,
            "turn_hours_max": seek.turn_hours_max,
            "rated": seek.rated,
            "rating": seek.rating,
            "rating_range": seek.rating_range,
            "status": seek.status,
            "created_at": seek.created_at.isoformat(),
            "ended_at": seek.ended_at.isoformat() if seek.ended_at else None,
            "game_id": str(seek.game_id) if seek.game_id else None,
        }
        for seek in Seek.objects.filter(user=user).order_by("created_at")
    ]
