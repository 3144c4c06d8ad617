"""Substitutes: the host offers an absent player's seat to a person, by address or in the
lobby, and that person takes it over from the stand-in bot (docs/players.md "Substitutes").

Each ``do_*`` function is one transaction on the locked game row, as every action: a
refused request (``ServiceError``) changes nothing. Only the holder of the host's chair
(``games.chair``) offers and withdraws. Who may take a lobby offer beyond what games knows
(the lobby's own page and list) is the lobby's business; the blocks are asked here, through
``games.invitation_limits.invitation_refused``, so that both doors (the emailed link and the
lobby) refuse alike.
"""

import logging
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import ServiceError
from games import deadlines
from games.actions.common import (
    check_seen_version,
    lock_game_with_seats,
    refuse_if_suspended,
    refuse_unless_active,
)
from games.actions.invitations import clean_emails
from games.actions.together import player_row, refuse_unless_chair
from games.invitation_limits import check_invitation_limits, invitation_refused, lock_inviter
from games.models import Actor, Game, GameStatus, Seat, SeatChange, SeatOffer
from games.notify import substitutes as notify
from games.notify import turn
from notifications.outbox import sent_together

logger = logging.getLogger(__name__)


def offer_refusal(row: Seat) -> str | None:
    """Why ``row``'s seat of an active game cannot be offered to a substitute, in words;
    None when it can: a stand-in bot plays it for a player who is away or gone (timeouts,
    abandonment, a moderator, the host, an erased account), and it has not resigned (P26,
    R37: a resigned seat cannot win, and a substitute would inherit that)."""
    if row.user_id is None:
        return _("That seat is a bot's own: there is no player to replace.")
    if row.resigned:
        return _(
            "That player has resigned: a resigned seat cannot win (P26), so it is not offered "
            "to a substitute; the bot plays it to the end."
        )
    if not row.bot:
        return _("Its player plays that seat: only a seat a stand-in bot plays can be offered.")
    return None


def offerable_seats(game: Game, seats: list[Seat]) -> list[Seat]:
    """The seats among the active ``game``'s ``seats`` the host may offer (``offer_refusal``;
    never the host's own)."""
    return [row for row in seats if row.user_id != game.host_id and offer_refusal(row) is None]


def _seat(game: Game, number) -> Seat:
    row = next((s for s in game.seats.all() if s.seat == number), None)
    if row is None:
        raise ServiceError("invalid", _("This game has no seat %(seat)s.") % {"seat": number})
    return row


def _open_offer(game: Game, seat: int) -> SeatOffer | None:
    return SeatOffer.objects.filter(game=game, seat=seat, closed=SeatOffer.Closed.OPEN).first()


def _close(offer: SeatOffer, how: str, now: datetime, taken_by: User | None = None) -> None:
    offer.closed, offer.closed_at, offer.taken_by = how, now, taken_by
    offer.save(update_fields=["closed", "closed_at", "taken_by"])


def do_offer_seat(
    game_id,
    user: User,
    seat: int,
    *,
    email: str | None = None,
    lobby: bool = False,
    version: int | None = None,
) -> tuple[SeatOffer, str | None]:
    """The host (the holder of the host's chair) offers seat ``seat`` of the active game to
    a substitute: to ``email`` (an emailed link, open ``INVITATION_DAYS``; the invitation
    limits and blocks of ``check_invitation_limits`` apply to the address) or, with
    ``lobby``, to anyone in the lobby (for ``OPEN_GAME_HOURS``). ``version``: the game
    version the host saw (None: not checked).

    Returns the offer and, for an emailed one, the link's token (stored only hashed; the
    email carries it). Raises ``ServiceError``: ``not_found``, ``not_a_player``,
    ``suspended``, ``not_host``, ``game_not_active``, ``stale_version``, ``invalid``
    (neither or both of email and lobby, a bad address, no such seat, the host's own
    address), ``conflict`` (a seat that cannot be offered: ``offer_refusal``; an open offer
    for it already), ``throttled`` (the invitation limits, or an address that cannot be
    invited, said alike).
    """
    if bool(email) == bool(lobby):
        raise ServiceError(
            "invalid", _("Offer the seat either to an email address or in the lobby.")
        )
    address = clean_emails([email])[0] if email else ""
    with transaction.atomic(), sent_together():
        game = lock_game_with_seats(game_id)
        refuse_unless_chair(game, player_row(game, user))
        refuse_unless_active(game)
        check_seen_version(game, version)
        row = _seat(game, seat)
        if row.user_id == game.host_id:
            # The host's chair is found from the host's seat (games.chair): a stranger in
            # it would take the chair from everyone.
            raise ServiceError("invalid", _("The host's own seat cannot be offered."))
        refusal = offer_refusal(row)
        if refusal is not None:
            raise ServiceError("conflict", refusal)
        now = timezone.now()
        existing = _open_offer(game, row.seat)
        if existing is not None:
            if existing.expires_at > now:
                raise ServiceError(
                    "conflict", _("That seat is offered already: withdraw that offer first.")
                )
            _close(existing, SeatOffer.Closed.VOID, now)  # ran out: make way for this one
        token = None
        if address:
            if address in {s.user.email for s in game.seats.all() if s.user is not None}:
                raise ServiceError("invalid", _("That address holds a seat at this game already."))
            lock_inviter(user)
            check_invitation_limits(user, [address], now)
            token = secrets.token_urlsafe(32)
            expires = now + timedelta(days=settings.INVITATION_DAYS)
        else:
            expires = now + timedelta(hours=settings.OPEN_GAME_HOURS)
        offer = SeatOffer.objects.create(
            game=game,
            seat=row.seat,
            offered_by=user,
            email=address,
            token_hash=SeatOffer.hash_token(token) if token else "",
            created_at=now,
            expires_at=expires,
        )
        if token is not None:
            notify.queue_seat_offer(game, offer, token)
        logger.info(
            "game %s: host %s offered seat %d %s",
            game.id,
            user.id,
            row.seat,
            "by email" if address else "in the lobby",
        )
    return offer, token


def do_withdraw_seat_offer(game_id, user: User, seat: int) -> SeatOffer:
    """The host withdraws the open offer of seat ``seat``: nobody can take it any more.

    Raises ``ServiceError``: ``not_found``, ``not_a_player``, ``suspended``, ``not_host``,
    ``game_not_active``, ``invalid`` (no such seat), ``conflict`` (no open offer of it).
    """
    with transaction.atomic():
        game = lock_game_with_seats(game_id)
        refuse_unless_chair(game, player_row(game, user))
        refuse_unless_active(game)
        row = _seat(game, seat)
        offer = _open_offer(game, row.seat)
        if offer is None:
            raise ServiceError("conflict", _("That seat is not offered."))
        _close(offer, SeatOffer.Closed.WITHDRAWN, timezone.now())
        logger.info("game %s: host %s withdrew the offer of seat %d", game.id, user.id, seat)
    return offer


def offer_for_token(token: str) -> SeatOffer:
    """The emailed offer whose link carries ``token`` (open or not, for its page);
    ``not_found`` for a token no offer has."""
    offer = (
        SeatOffer.objects.select_related("game", "game__host")
        .filter(token_hash=SeatOffer.hash_token(token))
        .exclude(token_hash="")
        .first()
    )
    if offer is None:
        raise ServiceError("not_found", _("This link is not valid, or the offer has ended."))
    return offer


def closed_offer() -> ServiceError:
    """The one refusal for an offer that cannot be taken: gone, withdrawn, taken, run out,
    or one whose table holds someone the taker may not meet (a block, never said)."""
    return ServiceError("not_found", _("No such seat offer, or it is no longer open."))


def do_take_seat_offer(offer_id, user: User, *, token: str | None = None) -> Game:
    """``user`` takes the open offer ``offer_id`` over: the seat is theirs from now on.

    A lobby offer anyone may take; an emailed one only with its link's ``token`` (the
    caller passes the address's person). Under the game's row lock: of two people taking
    one offer at once exactly one gets it, the other is refused ``not_found``. The seat's
    user becomes ``user`` and its bot leaves it; the seat keeps its number, so its moves
    and score stay; ``SeatChange`` ``substituted`` records who played it before, who
    loses it (they cannot take it back) and is emailed. When the game waits for that
    seat, the substitute's turn starts now with a fresh clock and its turn email, as when a
    player takes their seat back (``do_take_back_seat``). The game's version is unchanged:
    as every change of hands, it is no move.

    Raises ``ServiceError``: ``not_found`` (no such open offer, past its time, a wrong
    token, or a table with someone ``user`` may not meet), ``conflict`` (``user`` holds a
    seat at the game already; the seat cannot be offered any more), ``suspended``.
    Returns the game, seats prefetched.
    """
    with transaction.atomic(), sent_together():
        found = SeatOffer.objects.filter(pk=offer_id).values_list("game_id", flat=True).first()
        if found is None:
            raise closed_offer()
        game = lock_game_with_seats(found)
        offer = SeatOffer.objects.get(pk=offer_id)  # read again under the game's lock
        now = timezone.now()
        if not offer.in_lobby and not _token_matches(offer, token):
            raise closed_offer()
        if offer.closed != SeatOffer.Closed.OPEN or offer.expires_at <= now:
            raise closed_offer()
        if game.status != GameStatus.ACTIVE:
            raise closed_offer()
        person = User.objects.get(pk=user.pk)  # read under the lock: a suspension since
        refuse_if_suspended(
            person, _("A moderator has suspended your account, so you cannot join games for now.")
        )
        seats = list(game.seats.all())
        others = [s.user for s in seats if s.user is not None and s.user_id != person.pk]
        if any(invitation_refused_between(person, other) for other in others):
            raise closed_offer()  # the block is never said: as if the offer were closed
        if any(s.user_id == person.pk for s in seats):
            raise ServiceError("conflict", _("You have a seat at this game already."))
        row = _seat(game, offer.seat)
        refusal = offer_refusal(row)
        if refusal is not None:
            raise ServiceError("conflict", refusal)
        previous = row.user
        level = row.bot
        row.user, row.bot = person, ""
        row.save(update_fields=["user", "bot"])
        SeatChange.objects.create(
            game=game,
            seat=row.seat,
            kind=SeatChange.Kind.SUBSTITUTED,
            level=level,
            actor=Actor.PLAYER,
            actor_user=person,
            previous_user=previous,
            version=game.version,
            at=now,
        )
        _close(offer, SeatOffer.Closed.TAKEN, now, taken_by=person)
        if not game.has_substitutes:
            game.has_substitutes = True
            game.save(update_fields=["has_substitutes"])
        if game.current_seat == row.seat:
            # The bot's turn becomes the substitute's: their clock, reminders and email.
            deadlines.start_turn(game, now)
            game.save(update_fields=[*deadlines.TURN_FIELDS, "updated_at"])
            turn.queue_turn_email(game, row.seat)
        if previous is not None:
            notify.queue_seat_lost(game, row, previous)
        logger.info("game %s: user %s took seat %d over", game.id, person.pk, row.seat)
    return game


def _token_matches(offer: SeatOffer, token: str | None) -> bool:
    """Whether ``token`` is the one the emailed ``offer``'s link carries (by its hash)."""
    return token is not None and secrets.compare_digest(
        offer.token_hash, SeatOffer.hash_token(token)
    )


def invitation_refused_between(person: User, other: User) -> bool:
    """Whether ``person`` and ``other`` may not sit at one table (a block either way), as
    the invitations ask it (``invitation_refused``: people answers), one pair at a time so
    that two players who blocked each other since the start refuse nobody."""
    answers = invitation_refused.send(User, inviter=person, emails=[other.email])
    return any(no for _app, no in answers)


def void_open_offer(game: Game, seat: int, now: datetime) -> None:
    """Close the open offer of ``seat`` in the locked ``game`` (its player took the seat
    back: no substitute is wanted any more). Nothing when there is none."""
    offer = _open_offer(game, seat)
    if offer is not None:
        _close(offer, SeatOffer.Closed.VOID, now)


def erase_seat_offers(user: User, now: datetime) -> None:
    """A person deletes their account (``GamesConfig.ready``'s eraser): the offers emailed to
    their address forget it, and an open one closes (its link named the address's person).
    The offers they made as host and the seats they took over stay, as ``SeatChange`` rows
    do, with the account's erased name."""
    offers = SeatOffer.objects.filter(email=user.email)
    offers.filter(closed=SeatOffer.Closed.OPEN).update(closed=SeatOffer.Closed.VOID, closed_at=now)
    offers.update(email=f"erased-{user.pk}@invalid", token_hash="")
