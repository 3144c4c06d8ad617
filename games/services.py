"""Every change to a game happens here: create, accept, decline, move, time out, abort.

Each ``do_*`` function is one atomic transaction that locks the game row
(``select_for_update``; on SQLite the IMMEDIATE transaction mode serialises writers
instead), checks the game is still in the state the caller saw, calls the pure
rules engine, writes the game row and its log rows, and queues emails in the same
transaction (the outbox sends them only after commit). Views, admin actions, Celery
tasks and management commands all call these functions, never ``.save()`` directly.
"""

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Prefetch, prefetch_related_objects
from django.urls import reverse
from django.utils import timezone

from accounts.models import User, normalize_email
from games.models import Actor, BuriedCard, EndReason, Game, GameStatus, Move, Seat
from games.rules import available_games
from notifications.outbox import queue_email

logger = logging.getLogger(__name__)

MIN_TURN_HOURS, MAX_TURN_HOURS = 1, 720
INVITATION_SALT = "games.invitation"


class GameError(Exception):
    """A request the service refuses; nothing was changed.

    ``code`` is one of CONTRACT.md's error codes (``invalid``, ``illegal_action``,
    ``not_found``, ``not_your_turn``, ``stale_version``, ``game_not_active``,
    ``throttled``); ``detail`` is a sentence for a person.
    """

    def __init__(self, code: str, detail: str):
        super().__init__(detail)
        self.code = code
        self.detail = detail


# --- Who may see and act ------------------------------------------------------------------


_SEATS_WITH_USERS = Prefetch("seats", queryset=Seat.objects.select_related("user"))


def games_of(user: User):
    """The games ``user`` holds a seat in (staff included), seats and users prefetched."""
    return Game.objects.filter(seats__user=user).prefetch_related(_SEATS_WITH_USERS)


def games_visible_to(user: User):
    """The games ``user`` may see: their own seats' games; every game for staff."""
    if user.is_staff:
        return Game.objects.prefetch_related(_SEATS_WITH_USERS)
    return games_of(user)


def get_visible_game(user: User, game_id) -> Game:
    """The game, or ``GameError("not_found")`` when it is missing or not the user's to see.

    Outsiders get the same answer as for a missing game, so ids cannot be probed.
    """
    game = games_visible_to(user).filter(id=game_id).first()
    if game is None:
        raise GameError("not_found", "No such game, or you are not a player of it.")
    return game


def seat_of(game: Game, user: User) -> int | None:
    """The seat ``user`` holds in ``game``, or None (uses the prefetched seats if present)."""
    for seat in game.seats.all():
        if seat.user_id == user.id:
            return seat.seat
    return None


# --- Creating games and invitations --------------------------------------------------------


def _clean_emails(emails: Iterable[str]) -> list[str]:
    cleaned = []
    for raw in emails:
        if not isinstance(raw, str):
            raise GameError("invalid", "players must be a list of email addresses.")
        email = normalize_email(raw)
        try:
            validate_email(email)
        except ValidationError:
            raise GameError("invalid", f"{raw!r} is not an email address.") from None
        cleaned.append(email)
    return cleaned


def _check_creation_limits(host: User, invitees: list[str], now: datetime) -> None:
    """Refuse a game that would let ``host`` use the service to spam strangers."""
    day_ago = now - timedelta(days=1)
    recent_games = Game.objects.filter(host=host, created_at__gte=day_ago)
    if recent_games.count() >= settings.GAMES_PER_USER_PER_DAY:
        raise GameError(
            "throttled",
            f"You can create at most {settings.GAMES_PER_USER_PER_DAY} games a day.",
        )
    sent = Seat.objects.filter(game__in=recent_games).exclude(user=host).count()
    if sent + len(invitees) > settings.INVITATIONS_PER_USER_PER_DAY:
        raise GameError(
            "throttled",
            f"You can invite at most {settings.INVITATIONS_PER_USER_PER_DAY} players a day.",
        )
    busy = [
        email
        for email in invitees
        if Seat.objects.filter(
            user__email=email, game__status=GameStatus.INVITED, accepted_at=None
        ).count()
        >= settings.PENDING_INVITATIONS_PER_ADDRESS
    ]
    if busy:
        raise GameError(
            "throttled",
            f"{', '.join(busy)} already has {settings.PENDING_INVITATIONS_PER_ADDRESS} "
            "unanswered invitations; try again when they have answered.",
        )


def do_create_game(
    host: User,
    emails: list[str],
    *,
    game: str = "piratz",
    turn_hours: int = 72,
    blind: bool = False,
) -> Game:
    """Create a game for ``emails`` (seat order, the host among them) and invite the others.

    The host's seat counts as accepted. Invitees get an email with a link to accept or
    decline; unknown addresses get an account (without a password) so they can play.
    Raises ``GameError`` (``invalid`` or ``throttled``) and creates nothing on refusal.
    """
    if game not in available_games():
        raise GameError("invalid", f"Unknown game {game!r}; available: {available_games()}.")
    if not isinstance(turn_hours, int) or not MIN_TURN_HOURS <= turn_hours <= MAX_TURN_HOURS:
        raise GameError(
            "invalid", f"turn_hours must be between {MIN_TURN_HOURS} and {MAX_TURN_HOURS}."
        )
    emails = _clean_emails(emails)
    if not 2 <= len(emails) <= 4:
        raise GameError("invalid", "A game of Piratz needs 2 to 4 players.")
    if len(set(emails)) != len(emails):
        raise GameError("invalid", "Each player may hold only one seat.")
    if host.email not in emails:
        raise GameError("invalid", "Your own address must be among the players.")

    now = timezone.now()
    invitees = [email for email in emails if email != host.email]
    with transaction.atomic():
        # Lock the host so two concurrent requests cannot both slip under the daily caps.
        User.objects.select_for_update().filter(pk=host.pk).first()
        _check_creation_limits(host, invitees, now)
        record = Game.objects.create(
            game=game,
            host=host,
            turn_hours=turn_hours,
            blind=blind,
            invitation_expires_at=now + timedelta(days=settings.INVITATION_DAYS),
        )
        for number, email in enumerate(emails):
            user = host if email == host.email else User.objects.get_or_create_for_email(email)
            Seat.objects.create(
                game=record,
                seat=number,
                user=user,
                accepted_at=now if user == host else None,
            )
        for seat in record.seats.select_related("user"):
            if seat.user_id != host.id:
                _queue_invitation(record, seat)
    logger.info("game %s created by user %s for %d players", record.id, host.id, len(emails))
    return record


def invitation_token(game: Game, seat: Seat) -> str:
    """A signed token naming one seat of one game; it proves the holder got the invitation."""
    return signing.dumps({"g": str(game.id), "u": seat.user_id}, salt=INVITATION_SALT)


def read_invitation_token(token: str) -> tuple[Game, Seat]:
    """The game and seat a token names; ``GameError("not_found")`` if tampered or expired."""
    try:
        data = signing.loads(
            token, salt=INVITATION_SALT, max_age=timedelta(days=settings.INVITATION_DAYS + 1)
        )
        seat = Seat.objects.select_related("game", "user").get(game_id=data["g"], user_id=data["u"])
    except (signing.BadSignature, Seat.DoesNotExist, KeyError, TypeError, ValueError):
        raise GameError("not_found", "This invitation link is not valid or has expired.") from None
    return seat.game, seat


def _queue_invitation(game: Game, seat: Seat) -> None:
    path = reverse("games:invitation", args=[invitation_token(game, seat)])
    queue_email(
        seat.user.email,
        "invitation",
        {
            "host": game.host.public_name,
            "players": [s.user.public_name for s in game.seats.all()],
            "turn_hours": game.turn_hours,
            "blind": game.blind,
            "link": settings.SITE_URL + path,
            "expires_at": game.invitation_expires_at,
        },
        topic=f"game:{game.id}",
    )


def _lock_game(game_id) -> Game:
    game = Game.objects.select_for_update().filter(id=game_id).first()
    if game is None:
        raise GameError("not_found", "No such game, or you are not a player of it.")
    return game


def _locked_seat(game: Game, user: User) -> Seat:
    seat = Seat.objects.select_related("user").filter(game=game, user=user).first()
    if seat is None:
        raise GameError("not_found", "No such game, or you are not a player of it.")
    return seat


def do_accept_invitation(game_id, user: User) -> Game:
    """``user`` accepts their seat; when every seat has accepted the game starts.

    Accepting twice is harmless. Raises ``GameError`` (``not_found``,
    ``game_not_active`` for a cancelled or ended game).
    """
    with transaction.atomic():
        game = _lock_game(game_id)
        seat = _locked_seat(game, user)
        if game.status == GameStatus.ACTIVE and seat.accepted:
            return game  # a repeated accept of a game that has since started
        if game.status != GameStatus.INVITED:
            raise GameError("game_not_active", f"This game is {game.status}; nothing to accept.")
        now = timezone.now()
        if seat.accepted_at is None:
            seat.accepted_at = now
            seat.save(update_fields=["accepted_at"])
        if not Seat.objects.filter(game=game, accepted_at=None).exists():
            _start(game, now)
    return game


def _start(game: Game, now: datetime) -> None:
    """Deal the game (cryptographic shuffle, random cubes) and give seat 0 the first turn."""
    rules = game.rules
    players = Seat.objects.filter(game=game).count()
    state = rules.new_game(players, seed=None, blind=game.blind)
    game.state = rules.dump(state)
    game.status = GameStatus.ACTIVE
    game.version = 0
    game.current_seat = rules.current_seat(state)
    game.round = rules.round_number(state)
    game.deadline = now + game.turn_length()
    game.started_at = now
    game.invitation_expires_at = None
    game.save()
    logger.info("game %s started", game.id)


def do_decline_invitation(game_id, user: User) -> Game:
    """``user`` declines their seat: the game is cancelled and the other players are told."""
    with transaction.atomic():
        game = _lock_game(game_id)
        seat = _locked_seat(game, user)
        if game.status != GameStatus.INVITED:
            raise GameError("game_not_active", f"This game is {game.status}; nothing to decline.")
        now = timezone.now()
        seat.declined_at = now
        seat.save(update_fields=["declined_at"])
        _end(game, GameStatus.CANCELLED, EndReason.DECLINED, now)
        _queue_cancellation(game, reason=f"{user.public_name} declined the invitation.")
    return game


def _queue_cancellation(game: Game, *, reason: str, exclude_declined: bool = True) -> None:
    for seat in game.seats.select_related("user"):
        if exclude_declined and seat.declined_at is not None:
            continue
        queue_email(
            seat.user.email,
            "game_cancelled",
            {"host": game.host.public_name, "reason": reason},
            topic=f"game:{game.id}",
        )


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
            _queue_cancellation(game, reason="Not every player accepted the invitation in time.")
            cancelled += 1
    return cancelled


def _end(game: Game, status: str, reason: str, now: datetime) -> None:
    game.status = status
    game.end_reason = reason
    game.ended_at = now
    game.deadline = None
    game.current_seat = None
    game.save()


# --- Playing ----------------------------------------------------------------------------


_ENGINE_CODES = {
    # The engine's IllegalAction codes that mean something other than "illegal now".
    "malformed_action": "invalid",
    "unknown_action": "invalid",
    "not_your_turn": "not_your_turn",
    "game_finished": "game_not_active",
}


def do_play_move(game_id, user: User, version: int, action: dict) -> Game:
    """Play ``action`` for ``user``'s seat, chosen from game ``version``.

    A request repeated after it was applied (same seat, same action, the version it
    was chosen from) is answered with the current game instead of ``stale_version``,
    so a client retrying after a lost response plays its move exactly once.
    Raises ``GameError`` and changes nothing when the move is refused. The returned
    game has its seats and their users prefetched, ready to serialise.
    """
    with transaction.atomic():
        game = _lock_game(game_id)
        # Prefetched once here: the seat check below and the response both use them.
        prefetch_related_objects([game], _SEATS_WITH_USERS)
        seat = seat_of(game, user)
        if seat is None:
            raise GameError("not_found", "No such game, or you are not a player of it.")
        if version != game.version and _is_replay(game, seat, version, action):
            return game
        if game.status != GameStatus.ACTIVE:
            raise GameError("game_not_active", f"This game is {game.status}.")
        if game.current_seat != seat:
            raise GameError("not_your_turn", "It is not your turn.")
        if version != game.version:
            raise GameError(
                "stale_version",
                f"The game has moved on to version {game.version}; reload it and choose again.",
            )
        _apply(game, seat, action, actor=Actor.PLAYER, actor_user=user)
    return game


def _is_replay(game: Game, seat: int, version: int, action: dict) -> bool:
    if not isinstance(version, int) or version >= game.version:
        return False
    previous = Move.objects.filter(game=game, number=version + 1).first()
    return previous is not None and previous.seat == seat and previous.action == action


def do_play_timeout(game_id, *, expected_version: int | None = None, moderator: User | None = None):
    """Play the automatic move (rules P24) for the player whose turn it is.

    The deadline sweep passes the ``expected_version`` it saw, so a sweep that runs
    twice, or races the player's own move, acts at most once: a changed version means
    somebody already moved, and nothing happens (returns None). A moderator forcing
    the move passes ``moderator`` instead. Returns the game after the move.
    """
    with transaction.atomic():
        game = _lock_game(game_id)
        if game.status != GameStatus.ACTIVE:
            if moderator is not None:
                raise GameError("game_not_active", f"This game is {game.status}.")
            return None
        if expected_version is not None and game.version != expected_version:
            return None
        if moderator is None and (game.deadline is None or game.deadline > timezone.now()):
            return None  # not due (deadline extended since the sweep looked)
        state = game.load_state()
        action = game.rules.timeout_action(state)
        _apply(
            game,
            game.current_seat,
            action,
            actor=Actor.MODERATOR if moderator else Actor.SERVICE,
            actor_user=moderator,
            automatic=True,
        )
    return game


def do_abort_game(game_id, moderator: User) -> Game:
    """A moderator ends a game for good: status ``aborted``, no result."""
    with transaction.atomic():
        game = _lock_game(game_id)
        if game.status not in (GameStatus.INVITED, GameStatus.ACTIVE):
            raise GameError("game_not_active", f"This game is already {game.status}.")
        _end(game, GameStatus.ABORTED, EndReason.MODERATOR, timezone.now())
        logger.info("game %s aborted by moderator %s", game.id, moderator.id)
    return game


def do_extend_deadline(game_id, moderator: User, hours: int) -> Game:
    """A moderator gives the player to move ``hours`` more time."""
    if not isinstance(hours, int) or not 1 <= hours <= MAX_TURN_HOURS:
        raise GameError("invalid", f"hours must be between 1 and {MAX_TURN_HOURS}.")
    with transaction.atomic():
        game = _lock_game(game_id)
        if game.status != GameStatus.ACTIVE:
            raise GameError("game_not_active", f"This game is {game.status}.")
        game.deadline = max(game.deadline or timezone.now(), timezone.now()) + timedelta(
            hours=hours
        )
        game.save(update_fields=["deadline", "updated_at"])
        logger.info("game %s deadline extended by %dh by %s", game.id, hours, moderator.id)
    return game


def _apply(
    game: Game,
    seat: int,
    action: dict,
    *,
    actor: str,
    actor_user: User | None,
    automatic: bool = False,
) -> None:
    """Apply one move to the locked ``game``: engine step, log rows, game row.

    Must run inside the transaction that locked the game row.
    """
    rules = game.rules
    before = rules.load(game.state)
    try:
        after = rules.apply(before, seat, action)
    except rules.IllegalAction as error:
        code = _ENGINE_CODES.get(error.code, "illegal_action")
        raise GameError(code, str(error)) from None

    now = timezone.now()
    effects = rules.move_effects(before, after, seat, action)
    round_played = rules.round_number(before)
    move = Move.objects.create(
        game=game,
        number=game.version + 1,
        round=round_played,
        seat=seat,
        action=action,
        revealed=effects["revealed"]["id"] if effects["revealed"] else None,
        automatic=automatic,
        actor=actor,
        actor_user=actor_user,
        at=now,
    )
    if effects["buried"] is not None:
        BuriedCard.objects.create(
            game=game, move=move, round=round_played, seat=seat, card=effects["buried"]
        )

    game.state = rules.dump(after)
    game.version += 1
    game.round = rules.round_number(after)
    if rules.is_finished(after):
        game.result = rules.view(after, None)["result"]
        _end(game, GameStatus.FINISHED, EndReason.NONE, now)
        return
    if game.round != round_played and _round_was_abandoned(game, round_played):
        # Rules P25: nobody played a single move of a whole round: they have all gone.
        _end(game, GameStatus.ABORTED, EndReason.ABANDONED, now)
        return
    if effects["new_turn"]:
        game.deadline = now + game.turn_length()
    game.current_seat = rules.current_seat(after)
    game.save(update_fields=["state", "version", "round", "current_seat", "deadline", "updated_at"])


def _round_was_abandoned(game: Game, round_number: int) -> bool:
    return not Move.objects.filter(game=game, round=round_number, automatic=False).exists()
