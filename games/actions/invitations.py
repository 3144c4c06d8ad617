"""Creating games and answering invitations: create, accept (which starts the game), decline."""

import logging
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User, normalize_email
from accounts.preferences import settings_for
from core.errors import ServiceError, status_word
from games import bots, deadlines, events
from games.actions.common import (
    MAX_TURN_HOURS,
    MIN_TURN_HOURS,
    end_game,
    lock_game,
    refuse_if_suspended,
    seat_row,
)
from games.catalogue import kinds, rules_for
from games.clocks import clean_clock
from games.fairness import clean_client_seed, new_server_seed, shuffle_key
from games.invitation_limits import check_invitation_limits, lock_inviter
from games.models import ClockKind, EndReason, Game, GameStatus, Seat
from games.notify import invitation, started, turn
from notifications.outbox import sent_together

logger = logging.getLogger(__name__)


def clean_emails(emails: Iterable[str]) -> list[str]:
    """Each entry as a canonical address (``normalize_email``); ``ServiceError("invalid")``
    naming the first that is not a string or not an address. Every door that invites by
    address reads addresses through here (games, leagues)."""
    cleaned = []
    for raw in emails:
        if not isinstance(raw, str):
            raise ServiceError("invalid", _("players must be a list of email addresses."))
        email = normalize_email(raw)
        try:
            validate_email(email)
        except ValidationError:
            raise ServiceError(
                "invalid", _("%(address)r is not an email address.") % {"address": raw}
            ) from None
        cleaned.append(email)
    return cleaned


def _check_creation_limits(host: User, invitees: list[str], now: datetime) -> None:
    """Refuse a game that would let ``host`` use the service to spam strangers
    (``GAMES_PER_USER_PER_DAY``, and the invitation limits every door shares:
    ``games.invitation_limits``), or that a suspended player would host or be invited to
    (``User.is_suspended``). The host's row is locked (``lock_inviter``)."""
    if User.objects.filter(User.suspended_q(now), pk=host.pk).exists():
        raise ServiceError(
            "suspended",
            _("A moderator has suspended your account, so you cannot create games for now."),
        )
    day_ago = now - timedelta(days=1)
    if Game.objects.filter(host=host, created_at__gte=day_ago).count() >= (
        settings.GAMES_PER_USER_PER_DAY
    ):
        raise ServiceError(
            "throttled",
            _("You can create at most %(count)d games a day.")
            % {"count": settings.GAMES_PER_USER_PER_DAY},
        )
    check_invitation_limits(host, invitees, now)


def do_create_game(
    host: User,
    emails: list[str],
    *,
    game: str | None = None,
    turn_hours: int = 72,
    blind: bool = False,
    client_seed: str | None = None,
    stand_in_bots: bool | None = None,
    rated: bool | None = None,
    clock: dict | None = None,
    clock_zone: str | None = None,
    public: bool = False,
) -> Game:
    """Create a game for ``emails`` (seat order, the host among them) and invite the others.

    An entry ``"bot:<level>"`` instead of an address seats a bot of that level
    (``games.bots``; one of the rules' ``BOT_LEVELS``); ``"player:<public id>"`` seats
    the person with that player page (``User.public_id``: a challenge from their page, by
    someone who may not know their address). The host's and the bots' seats
    count as accepted; when they are all, the game starts at once. Invitees get an email
    with a link to accept or decline; unknown addresses get an account (without a
    password) so they can play. ``stand_in_bots`` (None: on for 3-4 players) lets a bot
    take the seat of a player who keeps timing out (docs/bots.md "Bots at the table").
    ``client_seed`` is the host's optional contribution to the shuffle key (a checkable
    shuffle: ``games.fairness``); the game's server seed is drawn and committed to here.
    ``rated`` (None: rated unless a bot holds a seat) moves the players' ratings when the
    game finishes (the ratings app); a game with a bot is never rated (true is refused).
    ``clock`` (None: ``turn_hours`` per turn) is a time bank or a daily deadline as
    ``games.clocks.clean_clock`` takes it; a daily deadline keeps the host's time zone
    (``clock_zone``: another one, as a rematch keeps the first game's).
    Raises ``ServiceError`` (``invalid``, ``throttled``, or ``suspended`` for a suspended
    host; a suspended invitee reads as ``throttled``) and creates nothing on refusal.
    ``game`` (None: the catalogue's first game) is the kind of game. ``public``: anyone may
    watch it once it has begun (``games.watching``).
    """
    if game is None:
        game = kinds()[0]
    if game not in kinds():
        raise ServiceError(
            "invalid",
            _("Unknown game %(game)r; available: %(available)s.")
            % {"game": game, "available": kinds()},
        )
    if not isinstance(turn_hours, int) or not MIN_TURN_HOURS <= turn_hours <= MAX_TURN_HOURS:
        raise ServiceError(
            "invalid",
            _("turn_hours must be between %(min)d and %(max)d.")
            % {"min": MIN_TURN_HOURS, "max": MAX_TURN_HOURS},
        )
    entries = emails
    if not isinstance(entries, list | tuple):
        raise ServiceError("invalid", _("players must be a list of email addresses."))
    entries = _players_by_page(entries)
    bot_levels = _bot_levels(game, entries)
    emails = clean_emails(e for e, level in zip(entries, bot_levels, strict=True) if not level)
    rules = rules_for(game)
    if len(entries) not in rules.PLAYER_COUNTS:
        raise ServiceError(
            "invalid",
            _("A game of %(game)s needs %(counts)s players.")
            % {"game": rules.NAME, "counts": player_counts_text(rules)},
        )
    if blind and "blind" not in rules.OPTIONS:
        raise ServiceError(
            "invalid",
            _("%(game)s has no blind mode: nothing but the draw order is hidden.")
            % {"game": rules.NAME},
        )
    if len(set(emails)) != len(emails):
        raise ServiceError("invalid", _("Each player may hold only one seat."))
    if host.email not in emails:
        raise ServiceError("invalid", _("Your own address must be among the players."))

    if stand_in_bots is None:
        stand_in_bots = len(entries) >= 3
    if not isinstance(stand_in_bots, bool):
        raise ServiceError("invalid", _("stand_in_bots must be true or false."))
    if rated is not None and not isinstance(rated, bool):
        raise ServiceError("invalid", _("rated must be true or false."))
    if rated and any(bot_levels):
        raise ServiceError(
            "invalid", _("A game with a bot is never rated: leave rated out, or false.")
        )
    rated = not any(bot_levels) if rated is None else rated
    if not isinstance(public, bool):
        raise ServiceError("invalid", _("public must be true or false."))

    clock_fields = clean_clock(clock)
    if clock_fields["clock"] == ClockKind.DAILY:
        clock_fields["daily_zone"] = clock_zone or settings_for(host).zone.key
    first_bank = None
    if clock_fields["clock"] == ClockKind.BANK:
        # In seconds of the turn clock (games.models.turn_hours: shorter on a fast clock).
        first_bank = clock_fields["bank_hours"] * settings.TURN_HOUR_SECONDS

    client_seed = clean_client_seed(game, client_seed)
    server_seed, commitment = new_server_seed(game)
    now = timezone.now()
    invitees = [email for email in emails if email != host.email]
    # sent_together: one send task for every invitation.
    with transaction.atomic(), sent_together():
        # Lock the host so two concurrent requests cannot both slip under the daily caps.
        lock_inviter(host)
        _check_creation_limits(host, invitees, now)
        record = Game.objects.create(
            game=game,
            host=host,
            turn_hours=turn_hours,
            blind=blind,
            server_seed=server_seed,
            seed_commitment=commitment,
            stand_in_bots=stand_in_bots,
            rated=rated,
            public=public,
            invitation_expires_at=now + timedelta(days=settings.INVITATION_DAYS),
            **clock_fields,
        )
        humans = iter(emails)
        for number, level in enumerate(bot_levels):
            if level:
                # A bot accepts at once.
                Seat.objects.create(
                    game=record, seat=number, bot=level, accepted_at=now, bank_seconds=first_bank
                )
                continue
            email = next(humans)
            user = host if email == host.email else User.objects.get_or_create_for_email(email)
            Seat.objects.create(
                game=record,
                seat=number,
                user=user,
                accepted_at=now if user == host else None,
                client_seed=client_seed if user == host else "",
                bank_seconds=first_bank,
            )
        for seat in record.seats.select_related("user"):
            if seat.user_id is not None and seat.user_id != host.id:
                invitation.queue_invitation(record, seat)
        if not invitees:
            _start(record, now)  # the host and bots only: everybody has accepted
    logger.info("game %s created by user %s for %d players", record.id, host.id, len(emails))
    return record


def do_create_arranged_game(
    host: User,
    players: list[User],
    *,
    game: str,
    turn_hours: int,
    blind: bool = False,
    rated: bool = True,
    public: bool = False,
    clock: dict | None = None,
    clock_zone: str | None = None,
) -> Game:
    """Create and start at once a game for ``players`` (seat order), every seat accepted.

    For games whose players agreed to them elsewhere (a league's one invitation covers
    all its games: ``leagues``; a tournament's sign-up: ``tournaments``): no invitation
    emails, no daily caps (the caller's agreement had its own). ``host`` is one of
    ``players`` (it gets the host's controls); the caller has checked the kind, its
    options, the player count and ``turn_hours``. Stand-in bots are on for 3-4 players,
    as in ``do_create_game``. ``rated`` and ``public`` are the game's fields; ``clock``
    (None: ``turn_hours`` per turn) as ``games.clocks.clean_clock`` takes it, a daily
    deadline in ``clock_zone`` (None: the host's). Must run inside the caller's
    transaction; the game starts as ``do_accept_invitation``'s last acceptance does.
    Refuses (``invalid``) a player who has deleted their account: nobody is left to seat.
    """
    if any(player.erased_at is not None for player in players):
        raise ServiceError("invalid", _("A player of this game has deleted their account."))
    clock_fields = clean_clock(clock)
    if clock_fields["clock"] == ClockKind.DAILY:
        clock_fields["daily_zone"] = clock_zone or settings_for(host).zone.key
    first_bank = None
    if clock_fields["clock"] == ClockKind.BANK:
        # In seconds of the turn clock, as do_create_game's.
        first_bank = clock_fields["bank_hours"] * settings.TURN_HOUR_SECONDS
    server_seed, commitment = new_server_seed(game)
    now = timezone.now()
    record = Game.objects.create(
        game=game,
        host=host,
        turn_hours=turn_hours,
        blind=blind,
        rated=rated,
        public=public,
        server_seed=server_seed,
        seed_commitment=commitment,
        stand_in_bots=len(players) >= 3,
        **clock_fields,
    )
    Seat.objects.bulk_create(
        Seat(game=record, seat=number, user=player, accepted_at=now, bank_seconds=first_bank)
        for number, player in enumerate(players)
    )
    _start(record, now)
    return record


BOT_PREFIX = "bot:"
PLAYER_PREFIX = "player:"


def _players_by_page(entries) -> list:
    """``entries`` with each ``"player:<public id>"`` replaced by that person's address
    (which never leaves the service); ``invalid`` when no living person has that page."""
    found = []
    for entry in entries:
        if isinstance(entry, str) and entry.strip().lower().startswith(PLAYER_PREFIX):
            public_id = entry.strip().lower()[len(PLAYER_PREFIX) :]
            person = User.objects.filter(public_id=public_id, erased_at=None).first()
            if person is None:
                raise ServiceError(
                    "invalid", _("No player has the page %(page)r.") % {"page": public_id}
                )
            entry = person.email
        found.append(entry)
    return found


def player_counts_text(rules) -> str:
    """The numbers of players a game seats, as people read them: ``2``, ``2 to 4``."""
    counts = sorted(rules.PLAYER_COUNTS)
    if len(counts) == 1:
        return str(counts[0])
    if counts == list(range(counts[0], counts[-1] + 1)):
        return _("%(low)d to %(high)d") % {"low": counts[0], "high": counts[-1]}
    return ", ".join(str(count) for count in counts)


def _bot_levels(game: str, entries) -> list[str | None]:
    """For each entry, its bot level (``"bot:<level>"``), or None for an address; refuses
    a level the game's rules do not offer (or any bot in a game without bots)."""
    levels = bots.levels_of(rules_for(game))
    found: list[str | None] = []
    for entry in entries:
        found.append(None)
        if isinstance(entry, str) and entry.strip().lower().startswith(BOT_PREFIX):
            level = entry.strip().lower()[len(BOT_PREFIX) :]
            if not levels:
                raise ServiceError("invalid", _("This game cannot seat bots."))
            if level not in levels:
                raise ServiceError(
                    "invalid",
                    _("Unknown bot level %(level)r; choose from %(levels)s.")
                    % {"level": level, "levels": ", ".join(levels)},
                )
            found[-1] = level
    return found


def do_accept_invitation(game_id, user: User, client_seed: str | None = None) -> Game:
    """``user`` accepts their seat; when every seat has accepted the game starts.

    ``client_seed`` is the player's optional contribution to the shuffle key
    (``games.fairness``); only the first acceptance's counts.

    Accepting twice is harmless. Raises ``ServiceError`` (``not_found``,
    ``game_not_active`` for a cancelled or ended game, ``suspended`` for a suspended player).
    """
    # sent_together: the last acceptance starts the game, an email to every player.
    with transaction.atomic(), sent_together():
        game = lock_game(game_id)
        seat = seat_row(game, user)
        assert seat.user is not None  # found by its user
        refuse_if_suspended(
            seat.user,
            _("A moderator has suspended your account, so you cannot join games for now."),
        )
        if game.status == GameStatus.ACTIVE and seat.accepted:
            return game  # a repeated accept of a game that has since started
        if game.status != GameStatus.INVITED:
            raise ServiceError(
                "game_not_active",
                _("This game is %(status)s; nothing to accept.")
                % {"status": status_word(game.status)},
            )
        now = timezone.now()
        _refuse_if_expired(game, now)
        if seat.accepted_at is None:
            seat.accepted_at = now
            seat.client_seed = clean_client_seed(game.game, client_seed)
            seat.save(update_fields=["accepted_at", "client_seed"])
        if not Seat.objects.filter(game=game, accepted_at=None).exists():
            _start(game, now)
    return game


def _refuse_if_expired(game: Game, now: datetime) -> None:
    """Refuse any answer once the invitation's time is up, even before the sweep has run.

    The game is left for ``cancel_expired_invitations`` to cancel and tell everyone; a
    refused answer changes nothing.
    """
    if game.invitation_has_expired(now):
        raise ServiceError(
            "game_not_active",
            _("This invitation expired on %(moment)s; the game will not take place.")
            % {"moment": _expiry_text(game)},
        )


def _expiry_text(game: Game) -> str:
    """When ``game``'s invitation closes, as people read it: ``2026-11-29 10:00 UTC``."""
    assert game.invitation_expires_at is not None  # asked only once it has expired
    return f"{game.invitation_expires_at.astimezone(UTC):%Y-%m-%d %H:%M} UTC"


def _start(game: Game, now: datetime) -> None:
    """Deal the game (cryptographic shuffle, random cubes) and give seat 0 the first turn."""
    rules = game.rules
    players = Seat.objects.filter(game=game).count()
    # A checkable shuffle: dealt with the key from the committed server seed and every
    # seat's client seed, none of which anyone could choose knowing all the others.
    key = shuffle_key(game, Seat.objects.filter(game=game))
    if key is None:  # created before shuffles were checkable: a secret random deal
        state = rules.new_game(players, seed=None, **game.rules_options())
    else:
        state = rules.new_game(players, key=key, **game.rules_options())
    game.store_state(state)  # its emails below read this state, not its JSON again
    game.status = GameStatus.ACTIVE
    game.version = 0
    game.current_seat = rules.current_seat(state)
    game.round = rules.round_number(state)
    deadlines.start_turn(game, now)
    game.started_at = now
    game.invitation_expires_at = None
    game.save()
    started.queue_game_started(game)
    turn.queue_turn_email(game, game.current_seat)
    events.game_started.send(sender=Game, game=game)
    logger.info("game %s started", game.id)


def do_decline_invitation(game_id, user: User) -> Game:
    """``user`` declines their seat: the game is cancelled and the other players are told.

    Raises ``ServiceError`` (``not_found``, ``game_not_active`` for a game no longer
    invited or an expired invitation, ``suspended`` for a suspended player: a suspended
    player takes no action on a game, and their invitation lapses by itself).
    """
    with transaction.atomic(), sent_together():  # the others are told: one send task
        game = lock_game(game_id)
        seat = seat_row(game, user)
        assert seat.user is not None  # found by its user
        refuse_if_suspended(
            seat.user,
            _("A moderator has suspended your account, so you cannot answer invitations for now."),
        )
        if game.status != GameStatus.INVITED:
            raise ServiceError(
                "game_not_active",
                _("This game is %(status)s; nothing to decline.")
                % {"status": status_word(game.status)},
            )
        now = timezone.now()
        _refuse_if_expired(game, now)
        seat.declined_at = now
        seat.save(update_fields=["declined_at"])
        end_game(game, GameStatus.CANCELLED, EndReason.DECLINED, now)
        invitation.queue_cancellation(
            game,
            reason=format_lazy(
                gettext_lazy("{name} declined the invitation."), name=user.public_name
            ),
        )
    return game


# --- What another door that seats players shares (games.actions.open_seats) ---------------


def people_named(entries, *, not_a_list: str, twice: str) -> list[User]:
    """Each entry (an address, or the name the site shows a person by) as a person; a new
    address gets an account. Refuses (``invalid``) anything else, with ``not_a_list`` when
    ``entries`` is not a list of strings and ``twice`` for a person named twice (the
    caller's sentences, translated: a league's players, a tournament's invitees)."""
    if not isinstance(entries, list | tuple) or not all(isinstance(e, str) for e in entries):
        raise ServiceError("invalid", not_a_list)
    people: list[User] = []
    for raw in entries:
        entry = raw.strip()
        if "@" in entry:
            [email] = clean_emails([raw])
            people.append(User.objects.get_or_create_for_email(email))
            continue
        # The one person the site shows by this name, chosen or derived from their
        # address, in any case or look-alike form (User.objects.named).
        named = User.objects.named(entry)
        if named is None:
            raise ServiceError(
                "invalid",
                _(
                    "Nobody is shown as %(name)r on this site; give a name as the site "
                    "shows it, or an email address."
                )
                % {"name": raw},
            )
        people.append(named)
    if len({person.pk for person in people}) != len(people):
        raise ServiceError("invalid", twice)
    return people


def check_creation_limits(host: User, now: datetime) -> None:
    """Refuse a new game ``host`` may not create now: suspended, or past
    ``GAMES_PER_USER_PER_DAY`` (as ``do_create_game`` refuses it; it invites nobody). Must
    run in the creating transaction, after ``lock_inviter(host)``."""
    _check_creation_limits(host, [], now)


def bot_levels_of(game: str, entries) -> list[str | None]:
    """For each entry, its bot level (``"bot:<level>"``) or None, as ``do_create_game``
    reads its players; ``ServiceError("invalid")`` for a level ``game`` does not offer."""
    return _bot_levels(game, entries)


def start_game(game: Game, now: datetime) -> None:
    """Start ``game`` (its row locked, every seat taken) exactly as the last acceptance of
    an invitation does: the deal, the first turn, the started and turn emails, the event."""
    _start(game, now)
