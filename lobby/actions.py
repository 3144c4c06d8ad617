"""Open games: create one, take a seat, leave it, withdraw it, close the ones whose time ran
out.

The only writer of ``OpenGame``. Each function is one transaction that locks the game row
first (``games.actions.common.lock_game``), so a join, a withdrawal and the expiry sweep
of one game run one after the other; the game's own seats and its start are
``games.actions.open_seats``'. Refused requests change nothing (``ServiceError``).
"""

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.languages import is_language, language_of
from accounts.models import User
from core.errors import ServiceError
from games.actions import open_seats
from games.actions.common import lock_game, refuse_if_suspended
from games.models import Game, GameStatus, Seat
from lobby.models import Closed, LeftSeat, OpenGame
from notifications.outbox import queue_email, sent_together
from people.blocks import blocked_ids
from ratings.models import DISPLAY_CENTRE, Rating

logger = logging.getLogger(__name__)

# The widest "my rating ± n" and the highest bound of an explicit range a host may ask for.
MAX_RATING_SPREAD = 1000
MAX_RATING = 5000


def rating_at(user: User, kind: str) -> int:
    """``user``'s rating at the game ``kind`` as the pages show it (``Rating.display``);
    a player who has not played it rated has a new player's, ``DISPLAY_CENTRE``."""
    found = Rating.objects.filter(user=user, kind=kind).first()
    return DISPLAY_CENTRE if found is None else found.display


def not_open() -> ServiceError:
    """The one refusal for a game that is not in the lobby for the caller: no such game,
    or one they may not meet (a block, never said), or no longer open."""
    return ServiceError("not_found", _("No such open game, or it is no longer open."))


def _lock_person(user: User) -> User:
    """``user``'s row, locked for the transaction and read fresh (a suspension since): their
    open games and joins are then counted and written one request after the other."""
    return User.objects.select_for_update().get(pk=user.pk)


def _clean_requirements(
    host: User,
    game: str,
    *,
    language: str | None,
    rating_spread: int | None,
    rating_min: int | None,
    rating_max: int | None,
) -> dict:
    """Who may join, as ``OpenGame``'s fields: ``language`` (None or "": anyone), and a
    range of the displayed rating, either the host's ± ``rating_spread`` or the explicit
    ``rating_min``/``rating_max`` (either may be None: no bound); not both ways."""
    language = language or ""
    if not isinstance(language, str) or (language and not is_language(language)):
        raise ServiceError(
            "invalid",
            _("language must be one of %(codes)s, or left out.")
            % {"codes": ", ".join(code for code, _name in settings.LANGUAGES)},
        )
    for name, value in (("rating_min", rating_min), ("rating_max", rating_max)):
        if value is not None and (
            not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_RATING
        ):
            raise ServiceError(
                "invalid",
                _("%(name)s must be a whole number from 0 to %(max)d.")
                % {"name": name, "max": MAX_RATING},
            )
    if rating_spread is not None:
        if rating_min is not None or rating_max is not None:
            raise ServiceError(
                "invalid", _("Give either rating_spread or rating_min and rating_max, not both.")
            )
        if (
            not isinstance(rating_spread, int)
            or isinstance(rating_spread, bool)
            or not 1 <= rating_spread <= MAX_RATING_SPREAD
        ):
            raise ServiceError(
                "invalid",
                _("rating_spread must be a whole number from 1 to %(max)d.")
                % {"max": MAX_RATING_SPREAD},
            )
        centre = rating_at(host, game)
        rating_min, rating_max = max(0, centre - rating_spread), centre + rating_spread
    if rating_min is not None and rating_max is not None and rating_min > rating_max:
        raise ServiceError("invalid", _("rating_min must not be above rating_max."))
    return {"language": language, "rating_min": rating_min, "rating_max": rating_max}


def do_create_open_game(
    host: User,
    *,
    game: str,
    seats: int,
    bots: list[str] | tuple[str, ...] = (),
    turn_hours: int = 72,
    clock: dict | None = None,
    blind: bool = False,
    rated: bool | None = None,
    stand_in_bots: bool | None = None,
    public: bool = True,
    client_seed: str | None = None,
    language: str | None = None,
    rating_spread: int | None = None,
    rating_min: int | None = None,
    rating_max: int | None = None,
) -> OpenGame:
    """Put a new game in the lobby: ``host`` sits at seat 0, a bot per level in ``bots``
    after them, and the other seats of ``seats`` wait for anyone who meets the requirements
    (``_clean_requirements``) for ``OPEN_GAME_HOURS``.

    The game's options are read as a new game's (``games.actions.open_seats``); a lobby
    game is public unless ``public`` is false. Refuses, creating nothing: ``invalid``,
    ``suspended``, ``conflict`` (``OPEN_GAMES_PER_USER`` open already), ``throttled``
    (``GAMES_PER_USER_PER_DAY``).
    """
    requirements_given = (language, rating_spread, rating_min, rating_max)
    with transaction.atomic():
        person = _lock_person(host)
        refuse_if_suspended(
            person,
            _("A moderator has suspended your account, so you cannot create games for now."),
        )
        now = timezone.now()
        still_open = OpenGame.objects.filter(
            game__host=person, closed=Closed.OPEN, game__status=GameStatus.INVITED
        ).count()
        if still_open >= settings.OPEN_GAMES_PER_USER:
            raise ServiceError(
                "conflict",
                _(
                    "You have %(count)d open games in the lobby already, as many as anyone "
                    "may; withdraw one or wait until it fills."
                )
                % {"count": still_open},
            )
        record = open_seats.create_open_game(
            person,
            game=game,
            seats=seats,
            bots=bots,
            turn_hours=turn_hours,
            clock=clock,
            blind=blind,
            rated=rated,
            stand_in_bots=stand_in_bots,
            public=public,
            client_seed=client_seed,
        )
        language, rating_spread, rating_min, rating_max = requirements_given
        requirements = _clean_requirements(
            person,
            record.game,
            language=language,
            rating_spread=rating_spread,
            rating_min=rating_min,
            rating_max=rating_max,
        )
        open_game = OpenGame.objects.create(
            game=record,
            seats=seats,
            created_at=now,
            expires_at=now + timedelta(hours=settings.OPEN_GAME_HOURS),
            **requirements,
        )
    logger.info("open game %s in the lobby", record.id)
    return open_game


def do_join_open_game(
    game_id, user: User, *, reader_language: str | None = None, client_seed: str | None = None
) -> tuple[OpenGame, bool]:
    """``user`` takes the next open seat of ``game_id``; when it is the last, the game starts
    (everyone is told by the started email). Returns the open game and whether it started.

    ``reader_language``: the language ``user`` reads now (the page's or the API answer's),
    for someone who never chose one in their settings. Refuses, changing nothing:
    ``not_found`` (no open game by that id, one no longer open or past its time, or one
    where a person ``user`` may not meet is seated: said the same way), ``conflict`` (a seat
    there already; a rating or language the game does not ask for), ``suspended``,
    ``throttled`` (``LOBBY_JOINS_PER_HOUR``).
    """
    with transaction.atomic(), sent_together():
        person = _lock_person(user)
        open_game = _locked_open_game(game_id)
        game = open_game.game
        now = timezone.now()
        refuse_if_suspended(
            person, _("A moderator has suspended your account, so you cannot join games for now.")
        )
        seated = list(Seat.objects.filter(game=game).values_list("user_id", flat=True))
        if blocked_ids(person.pk) & set(seated):
            raise not_open()  # the block is never said: as if there were no such game
        waiting = open_game.is_open and game.status == GameStatus.INVITED
        if not waiting or open_game.expires_at <= now:
            raise not_open()
        if person.pk in seated:
            raise ServiceError("conflict", _("You have a seat at this game already."))
        _refuse_unless_welcome(open_game, person, reader_language)
        hour_ago = now - timedelta(hours=1)
        joined = Seat.objects.filter(
            user=person, accepted_at__gt=hour_ago, game__open_game__isnull=False
        ).exclude(game__host=person)
        left = LeftSeat.objects.filter(user=person, joined_at__gt=hour_ago)
        if joined.count() + left.count() >= settings.LOBBY_JOINS_PER_HOUR:
            raise ServiceError(
                "throttled",
                _("You can take at most %(count)d open seats an hour; try again later.")
                % {"count": settings.LOBBY_JOINS_PER_HOUR},
            )
        game, started = open_seats.do_join_open_seat(
            game.pk, person, seats=open_game.seats, client_seed=client_seed
        )
        if started:
            open_game.closed, open_game.closed_at = Closed.STARTED, now
            open_game.save(update_fields=["closed", "closed_at"])
        open_game.game = game
    return open_game, started


def _locked_open_game(game_id) -> OpenGame:
    """The open game ``game_id`` with its game row locked (``not_open`` if there is none)."""
    try:
        exists = OpenGame.objects.filter(pk=game_id).exists()
    except ValidationError:  # not a game id at all
        exists = False
    if not exists:
        raise not_open()
    game = lock_game(game_id)
    open_game = OpenGame.objects.get(pk=game_id)
    open_game.game = game
    return open_game


def _refuse_unless_welcome(open_game: OpenGame, person: User, reader_language: str | None):
    """``conflict`` when ``person`` does not meet what the host asked for: the language
    they read, their rating at the game."""
    if open_game.language:
        reads = language_of(person, fallback=reader_language)
        if reads != open_game.language:
            raise ServiceError(
                "conflict",
                _("This game is for players who read %(language)s (your settings say so).")
                % {"language": dict(settings.LANGUAGES)[open_game.language]},
            )
    if open_game.rating_min is None and open_game.rating_max is None:
        return
    rating = rating_at(person, open_game.game.game)
    low = open_game.rating_min if open_game.rating_min is not None else 0
    high = open_game.rating_max if open_game.rating_max is not None else MAX_RATING
    if not low <= rating <= high:
        raise ServiceError(
            "conflict",
            _("This game is for players rated %(low)d to %(high)d at it; yours is %(rating)d.")
            % {"low": low, "high": high, "rating": rating},
        )


def do_leave_open_game(game_id, user: User) -> OpenGame:
    """``user``, who took a seat at the open game ``game_id``, gives it up before the game
    starts: the seat is open again (``games.actions.open_seats.do_leave_open_seat``) and the
    game stays in the lobby. The join still counts against ``LOBBY_JOINS_PER_HOUR``
    (``LeftSeat``). Nobody is emailed, as nobody is when someone joins.

    Refuses, changing nothing: ``not_found`` (no such open game, or ``user`` holds no seat
    in it), ``not_host`` (the host withdraws their game instead), ``game_not_active`` (it
    has started or closed already; a second leave finds no seat: ``not_found``).
    """
    with transaction.atomic():
        open_game = _locked_open_game(game_id)
        game = open_game.game
        if not Seat.objects.filter(game=game, user_id=user.pk).exists():
            raise not_open()
        if game.host_id == user.pk:
            raise ServiceError(
                "not_host", _("The host cannot leave their own game; withdraw it instead.")
            )
        if not open_game.is_open or game.status != GameStatus.INVITED:
            raise ServiceError("game_not_active", _("This game is no longer open."))
        game, joined_at = open_seats.do_leave_open_seat(game.pk, user)
        LeftSeat.objects.create(
            game=game, user_id=user.pk, joined_at=joined_at, left_at=timezone.now()
        )
        open_game.game = game
    logger.info("user %s left open game %s", user.pk, game.id)
    return open_game


def do_withdraw_open_game(game_id, user: User) -> OpenGame:
    """The host takes their open game out of the lobby: it is cancelled, and whoever took a
    seat is told by email. Refuses, changing nothing: ``not_found`` (no such open game, or
    ``user`` holds no seat in it), ``not_host`` (a player who joined), ``game_not_active``
    (it has started or closed already)."""
    with transaction.atomic(), sent_together():
        open_game = _locked_open_game(game_id)
        game = open_game.game
        if game.host_id != user.pk:
            if Seat.objects.filter(game=game, user=user).exists():
                raise ServiceError("not_host", _("Only the host can withdraw an open game."))
            raise not_open()
        if not open_game.is_open or game.status != GameStatus.INVITED:
            raise ServiceError("game_not_active", _("This game is no longer open."))
        _close(open_game, Closed.WITHDRAWN, timezone.now())
    return open_game


def expire_open_games(now: datetime | None = None) -> int:
    """Close every open game whose time (``expires_at``) is up by ``now``, telling its host
    and whoever joined; returns how many were closed.

    Each is claimed under its game's row lock with a guarded UPDATE of the open game
    (still open), so two sweeps, or a sweep racing the last join or the host's withdrawal,
    close and tell each game at most once. A failing game is logged and left for the next
    sweep; it never blocks the others.
    """
    now = now or timezone.now()
    due = OpenGame.objects.filter(closed=Closed.OPEN, expires_at__lte=now).values_list(
        "game_id", flat=True
    )
    closed = 0
    for game_id in list(due):
        try:
            with transaction.atomic(), sent_together():
                lock_game(game_id)
                open_game = OpenGame.objects.select_related("game").get(pk=game_id)
                if open_game.is_open and open_game.expires_at <= now:
                    closed += _close(open_game, Closed.EXPIRED, now)
        except Exception:
            logger.exception("Lobby sweep: closing open game %s failed", game_id)
    return closed


def _close(open_game: OpenGame, why: str, now: datetime) -> bool:
    """Take ``open_game`` out of the lobby (``why``: expired or withdrawn) and cancel its
    game, telling the players; the game row is locked by the caller. False when another
    transaction closed it first (the guarded UPDATE matched nothing)."""
    claimed = OpenGame.objects.filter(pk=open_game.pk, closed=Closed.OPEN).update(
        closed=why, closed_at=now
    )
    if claimed != 1:
        return False
    open_game.closed, open_game.closed_at = why, now
    game = open_seats.do_close_open_game(open_game.pk, expired=why == Closed.EXPIRED, now=now)
    if game is None:
        # Ended elsewhere already (a moderator, an account deletion): out of the lobby, and
        # its players were told then.
        OpenGame.objects.filter(pk=open_game.pk).update(closed=Closed.CANCELLED)
        open_game.closed = Closed.CANCELLED
        return False
    _tell_closed(game, expired=why == Closed.EXPIRED)
    return True


def _tell_closed(game: Game, *, expired: bool) -> None:
    """Email the players of ``game``, closed before it filled: the host when its time ran
    out (they withdrew it themselves otherwise), and everyone who took a seat."""
    lobby_link = settings.SITE_URL + reverse("lobby:lobby")
    for seat in Seat.objects.filter(game=game, user__isnull=False).select_related("user"):
        assert seat.user is not None  # filtered
        for_host = seat.user_id == game.host_id
        if (for_host and not expired) or seat.user.erased_at is not None:
            continue
        queue_email(
            seat.user.email,
            "open_game_closed",
            {
                "game_name": game.rules.NAME,
                "host": game.host.public_name,
                "for_host": for_host,
                "expired": expired,
                "hours": settings.OPEN_GAME_HOURS,
                "lobby_link": lobby_link,
            },
            topic=f"game:{game.id}",
            language=language_of(seat.user),
        )
