"""Every change to a tournament: create, invite, sign up, withdraw, start, score, pair the
next round, finish (docs/tournaments.md).

Each ``do_*`` and each sweep step is one transaction that locks the tournament row; games
are created and resigned through ``games.actions`` only. Due work is claimed once:

- the start: a guarded UPDATE from ``signup`` to ``running`` (``start_due_tournaments``);
- a pairing's result: a guarded UPDATE from pending, by the game's end (``game_ended``, in
  the game's own transaction) or by the round's deadline (``close_overdue_rounds``);
- a round's end: a guarded UPDATE of ``Round.ended_at``, whichever of the last result
  (``advance_tournament``) and the deadline comes first; the next round is paired in that
  same transaction.

So a sweep or task that runs twice, or two at once, acts once.
"""

import logging
from collections import Counter
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.languages import language_of
from accounts.models import User
from accounts.preferences import settings_for
from core.errors import ServiceError
from core.rows import locked_row, new_invitation_token, row_for_token
from core.tasks import task_named
from core.text import clean_typed_text
from games import actions as game_actions
from games import invitation_limits
from games.actions.invitations import people_named
from games.catalogue import kinds, rules_for
from games.clocks import clean_clock
from games.models import Game, GameStatus
from notifications.outbox import queue_email, sent_together
from people.blocks import blocked_between, blocked_ids
from ratings.models import DISPLAY_CENTRE, Rating
from tournaments import pairing as rules
from tournaments.models import (
    DecidedBy,
    Entrant,
    Pairing,
    Result,
    Round,
    SignUp,
    Tournament,
    TournamentFormat,
    TournamentStatus,
)
from tournaments.standings import standings

logger = logging.getLogger(__name__)

NAME_MAX_LENGTH = 80
MIN_ENTRANTS, MAX_ENTRANTS = 3, 128
MAX_SWISS_ROUNDS = 15
MIN_ROUND_DAYS, MAX_ROUND_DAYS = 1, 90
# How far ahead a tournament may start: sign-up stays open until then.
MAX_DAYS_AHEAD = 90
# Running games are resigned one transaction each; a stale version is retried this often.
RESIGN_ATTEMPTS = 3


# --- Creating and inviting -------------------------------------------------------------------


def two_player_kinds() -> list[str]:
    """The catalogue's games a tournament plays: those played by two (Swiss and
    elimination pair two players a game)."""
    return [kind for kind in kinds() if 2 in rules_for(kind).PLAYER_COUNTS]


def _check_shape(
    *, game, format, rounds, turn_hours, clock, blind, signup, starts_at, round_days, max_entrants
):
    if game not in two_player_kinds():
        raise ServiceError(
            "invalid",
            _("Unknown game %(game)r for a tournament; available: %(available)s.")
            % {"game": game, "available": two_player_kinds()},
        )
    if format not in TournamentFormat.values:
        raise ServiceError("invalid", _("format must be swiss or elimination."))
    if format == TournamentFormat.SWISS and (
        type(rounds) is not int or not 1 <= rounds <= MAX_SWISS_ROUNDS
    ):
        raise ServiceError(
            "invalid",
            _("A Swiss tournament has 1 to %(most)d rounds.") % {"most": MAX_SWISS_ROUNDS},
        )
    if type(turn_hours) is not int or not (
        game_actions.MIN_TURN_HOURS <= turn_hours <= game_actions.MAX_TURN_HOURS
    ):
        raise ServiceError(
            "invalid",
            _("turn_hours must be between %(min)d and %(max)d.")
            % {"min": game_actions.MIN_TURN_HOURS, "max": game_actions.MAX_TURN_HOURS},
        )
    clean_clock(clock)  # refuses a clock no game could have
    if blind and "blind" not in rules_for(game).OPTIONS:
        raise ServiceError(
            "invalid",
            _("%(game)s has no blind mode: nothing but the draw order is hidden.")
            % {"game": rules_for(game).NAME},
        )
    if signup not in SignUp.values:
        raise ServiceError("invalid", _("signup must be open or invitation."))
    if type(round_days) is not int or not MIN_ROUND_DAYS <= round_days <= MAX_ROUND_DAYS:
        raise ServiceError(
            "invalid",
            _("round_days must be between %(min)d and %(max)d.")
            % {"min": MIN_ROUND_DAYS, "max": MAX_ROUND_DAYS},
        )
    if type(max_entrants) is not int or not MIN_ENTRANTS <= max_entrants <= MAX_ENTRANTS:
        raise ServiceError(
            "invalid",
            _("max_entrants must be between %(min)d and %(max)d.")
            % {"min": MIN_ENTRANTS, "max": MAX_ENTRANTS},
        )
    now = timezone.now()
    if not isinstance(starts_at, datetime) or timezone.is_naive(starts_at):
        raise ServiceError("invalid", _("starts_at must be a date and time with its zone."))
    if not now < starts_at <= now + timedelta(days=MAX_DAYS_AHEAD):
        raise ServiceError(
            "invalid",
            _("The start must be in the future, at most %(days)d days ahead.")
            % {"days": MAX_DAYS_AHEAD},
        )


def _resolve_people(entries) -> list[User]:
    """The invitees as people (``people_named``); ``invalid`` for anything else."""
    return people_named(
        entries,
        not_a_list=_("invitees must be a list of addresses or names."),
        twice=_("Each person may be invited only once."),
    )


def _refuse_unreachable(organiser: User, people: Iterable[User], now: datetime) -> None:
    """Refuse inviting anyone the organiser may not meet (a block either way), and check
    the invitation limits every door shares (``games.invitation_limits``). A block reads
    as the limits' busy address: nobody learns that they are blocked."""
    others = [p for p in people if p.pk != organiser.pk]
    if any(blocked_between(organiser.pk, person.pk) for person in others):
        raise ServiceError(
            "throttled",
            _("One of these addresses cannot be invited right now; try again later."),
        )
    invitation_limits.check_invitation_limits(organiser, [p.email for p in others], now)


def do_create_tournament(
    organiser: User,
    *,
    name: str,
    starts_at: datetime,
    game: str | None = None,
    format: str = TournamentFormat.SWISS,
    rounds: int = 5,
    turn_hours: int = 72,
    clock: dict | None = None,
    rated: bool = True,
    blind: bool = False,
    signup: str = SignUp.OPEN,
    round_days: int = 14,
    max_entrants: int = 64,
    invitees: list[str] | None = None,
) -> Tournament:
    """Create a tournament that takes sign-ups until ``starts_at``.

    ``signup`` open: anyone signed in signs up (``do_sign_up``). ``invitation``: only
    ``invitees`` (addresses or names as the site shows people; the organiser's own to
    play, signed up at once), each emailed one invitation; they count against the
    invitation limits every door shares. Refuses (``invalid``, ``suspended``,
    ``throttled``: ``TOURNAMENTS_PER_USER_PER_DAY``, the invitation limits) and then
    creates nothing: no tournament, no account for a new address, no email."""
    game = game if game is not None else (two_player_kinds() or [""])[0]
    invitees = list(invitees or [])
    name = clean_typed_text(
        name, field_label=_("The tournament's name"), max_length=NAME_MAX_LENGTH
    )
    _check_shape(
        game=game,
        format=format,
        rounds=rounds,
        turn_hours=turn_hours,
        clock=clock,
        blind=blind,
        signup=signup,
        starts_at=starts_at,
        round_days=round_days,
        max_entrants=max_entrants,
    )
    if signup == SignUp.OPEN and invitees:
        raise ServiceError(
            "invalid", _("Invitees are for a tournament by invitation; anyone signs up here.")
        )
    if signup == SignUp.INVITATION and not invitees:
        raise ServiceError("invalid", _("Invite at least one player."))
    if len(invitees) > max_entrants:
        raise ServiceError(
            "invalid", _("At most %(count)d may be invited.") % {"count": max_entrants}
        )
    if organiser.is_suspended():
        raise ServiceError(
            "suspended",
            _("A moderator has suspended your account, so you cannot create tournaments now."),
        )
    now = timezone.now()
    with transaction.atomic(), sent_together():
        # The organiser's row first, as a game's host's: their tournaments and invitations
        # of one day are counted one request after the other.
        invitation_limits.lock_inviter(organiser)
        recent = Tournament.objects.filter(
            organiser=organiser, created_at__gte=now - timedelta(days=1)
        ).count()
        if recent >= settings.TOURNAMENTS_PER_USER_PER_DAY:
            raise ServiceError(
                "throttled",
                _("You can create at most %(count)d tournaments a day.")
                % {"count": settings.TOURNAMENTS_PER_USER_PER_DAY},
            )
        people = _resolve_people(invitees)
        _refuse_unreachable(organiser, people, now)
        tournament = Tournament.objects.create(
            name=name,
            organiser=organiser,
            game=game,
            format=format,
            rounds=rounds if format == TournamentFormat.SWISS else 1,
            turn_hours=turn_hours,
            clock=clock,
            rated=rated,
            blind=blind,
            signup=signup,
            starts_at=starts_at,
            round_days=round_days,
            max_entrants=max_entrants,
        )
        for person in people:
            entrant = Entrant.objects.create(tournament=tournament, user=person, invited_at=now)
            if person.pk == organiser.pk:
                entrant.signed_up_at = now
                entrant.save(update_fields=["signed_up_at"])
            else:
                _invite(tournament, entrant)
    logger.info("tournament %s created by user %s", tournament.id, organiser.pk)
    return tournament


def _invite(tournament: Tournament, entrant: Entrant) -> None:
    """A fresh invitation token for ``entrant`` (only its hash is kept) and its email."""
    token, entrant.token_hash = new_invitation_token()
    entrant.save(update_fields=["token_hash"])
    language = language_of(entrant.user, fallback=language_of(tournament.organiser))
    with translation.override(language):
        context = {
            "tournament": tournament.name,
            "organiser": str(tournament.organiser.public_name),
            "game_name": str(rules_for(tournament.game).NAME),
            "format": str(TournamentFormat(tournament.format).label),
            "starts": _moment(tournament.starts_at),
            "turn_hours": tournament.turn_hours,
            "round_days": tournament.round_days,
            "link": settings.SITE_URL + reverse("tournaments:invitation", args=[token]),
        }
    queue_email(
        entrant.user.email,
        "tournament_invitation",
        context,
        topic=f"tournament:{tournament.id}",
        language=language,
    )


def _moment(moment: datetime) -> str:
    """A moment as every reader's email shows it: ``2026-11-29 10:00 UTC``."""
    return f"{moment.astimezone(UTC):%Y-%m-%d %H:%M} UTC"


# A tournament's invitations, counted with a game's against the anti-spam limits: receivers
# of ``games.invitation_limits``' signals (connected in ``TournamentsConfig.ready``).
def count_invitations_sent(sender, *, inviter: User, since: datetime, **kwargs) -> int:
    return (
        Entrant.objects.filter(
            tournament__organiser=inviter, invited_at__gte=since, invited_at__isnull=False
        )
        .exclude(user=inviter)
        .count()
    )


def count_unanswered_invitations(sender, *, emails: list[str], **kwargs) -> Counter[str]:
    return Counter(
        Entrant.objects.filter(
            user__email__in=emails,
            tournament__status=TournamentStatus.SIGNUP,
            invited_at__isnull=False,
            signed_up_at=None,
            declined_at=None,
        ).values_list("user__email", flat=True)
    )


def entrant_for_token(token: str) -> Entrant:
    """The invited entrant an invitation token names (``not_found`` if none)."""
    return row_for_token(Entrant.objects.select_related("tournament", "user"), token)


# --- Signing up and withdrawing --------------------------------------------------------------


def _lock(tournament_id) -> Tournament:
    return locked_row(Tournament.objects.all(), tournament_id, _("No such tournament."))


def _refuse_unless_signing_up(tournament: Tournament, now: datetime) -> None:
    if tournament.status != TournamentStatus.SIGNUP or tournament.starts_at <= now:
        raise ServiceError("conflict", _("Sign-up has closed: the tournament has begun or ended."))


def do_sign_up(tournament_id, user: User) -> Entrant:
    """Sign ``user`` up until the start: anyone for an open tournament, only an invitee
    for one by invitation (accepting the invitation). Signing up again is harmless; one who
    withdrew before the start may sign up again. Raises ``ServiceError``: ``not_found``
    (no such tournament, or one by invitation they are not invited to), ``suspended``,
    ``conflict`` (sign-up closed, the tournament full)."""
    with transaction.atomic():
        tournament = _lock(tournament_id)
        entrant = Entrant.objects.filter(tournament=tournament, user=user).first()
        if tournament.signup == SignUp.INVITATION and entrant is None:
            raise ServiceError("not_found", _("No such tournament."))
        fresh = User.objects.get(pk=user.pk)  # read in this transaction: a suspension now
        if fresh.is_suspended():
            raise ServiceError(
                "suspended",
                _("A moderator has suspended your account, so you cannot sign up for now."),
            )
        if entrant is not None and entrant.is_in:
            return entrant
        now = timezone.now()
        _refuse_unless_signing_up(tournament, now)
        count = Entrant.objects.filter(
            tournament=tournament, signed_up_at__isnull=False, withdrawn_at=None
        ).count()
        if count >= tournament.max_entrants:
            raise ServiceError("conflict", _("The tournament is full."))
        if entrant is None:
            entrant = Entrant(tournament=tournament, user=user)
        entrant.signed_up_at = now
        entrant.withdrawn_at = None
        entrant.declined_at = None
        entrant.save()
    logger.info("tournament %s: user %s signed up", tournament.id, user.pk)
    return entrant


def do_decline_invitation(entrant_id: int) -> Entrant:
    """The invitee declines (from the emailed link). Harmless twice; ``conflict`` once
    sign-up has closed; one who had signed up is withdrawn (``do_withdraw``'s rule)."""
    with transaction.atomic():
        entrant = Entrant.objects.select_related("user").get(pk=entrant_id)
        tournament = _lock(entrant.tournament_id)
        entrant.refresh_from_db()
        if entrant.declined_at is not None:
            return entrant
        _refuse_unless_signing_up(tournament, timezone.now())
        entrant.declined_at = timezone.now()
        entrant.signed_up_at = None
        entrant.save(update_fields=["declined_at", "signed_up_at"])
    return entrant


def do_withdraw(tournament_id, user: User) -> Entrant:
    """``user`` withdraws: before the start they are simply off the list (and may sign up
    again); once it runs they are out of every later round and each of their running
    games of it is resigned (``games.actions.do_resign``: their opponent wins), then the
    round goes on if that was its last game. Withdrawing twice is harmless. Raises
    ``ServiceError``: ``not_found``, ``conflict`` (not signed up, the tournament over)."""
    with transaction.atomic():
        tournament = _lock(tournament_id)
        entrant = Entrant.objects.filter(tournament=tournament, user=user).first()
        if entrant is None or entrant.signed_up_at is None:
            if tournament.signup == SignUp.INVITATION and entrant is None:
                raise ServiceError("not_found", _("No such tournament."))
            raise ServiceError("conflict", _("You are not signed up for this tournament."))
        if entrant.withdrawn_at is None:
            if tournament.status not in (TournamentStatus.SIGNUP, TournamentStatus.RUNNING):
                raise ServiceError("conflict", _("This tournament is over."))
            entrant.withdrawn_at = timezone.now()
            entrant.save(update_fields=["withdrawn_at"])
        running = list(
            Game.objects.filter(
                tournament_pairing__round__tournament=tournament,
                status=GameStatus.ACTIVE,
                seats__user=user,
                seats__resigned=False,
            )
        )
    # Each game in its own transaction (do_resign's): the tournament's lock is not held
    # while a game is locked, so a game's end (which reads the pairing) cannot wait on it.
    for game in running:
        _resign(game, user)
    if tournament.status == TournamentStatus.RUNNING:
        advance_tournament(tournament.id)
    logger.info("tournament %s: user %s withdrew", tournament.id, user.pk)
    return entrant


def _resign(game: Game, user: User) -> None:
    for _attempt in range(RESIGN_ATTEMPTS):
        game.refresh_from_db(fields=["version", "status"])
        if game.status != GameStatus.ACTIVE:
            return
        try:
            game_actions.do_resign(game.id, user, game.version)
            return
        except ServiceError as error:
            if error.code != "stale_version":
                logger.warning("game %s: resigning for a withdrawal refused: %s", game.id, error)
                return


# --- Results ---------------------------------------------------------------------------------


def _result_of(game: Game) -> Result:
    """A two-player game's end as a pairing's result (seat 0 is ``first``): the winner,
    a draw when both won (a tie) or neither is named; no result when it ended without one
    (aborted or cancelled)."""
    if game.status != GameStatus.FINISHED:
        return Result.NONE
    winners = set((game.result or {}).get("winners") or [])
    if winners == {0}:
        return Result.FIRST
    if winners == {1}:
        return Result.SECOND
    return Result.DRAW


def _advancing(tournament: Tournament, pairing: Pairing, result: Result) -> int | None:
    """Elimination: the entrant who goes through. A draw, or no result, sends the higher
    seed (docs/tournaments.md "Results and standings")."""
    if tournament.format != TournamentFormat.ELIMINATION:
        return None
    if result == Result.FIRST or pairing.second is None:
        return pairing.first_id
    if result == Result.SECOND:
        return pairing.second_id
    first_seed = pairing.first.seed or 0
    second_seed = pairing.second.seed or 0
    return pairing.first_id if first_seed <= second_seed else pairing.second_id


def _decide(pairing: Pairing, result: Result, by: DecidedBy) -> bool:
    """Write ``pairing``'s result once: a guarded UPDATE from pending (True if this call
    wrote it)."""
    tournament = pairing.round.tournament
    advances = _advancing(tournament, pairing, result)
    return (
        Pairing.objects.filter(pk=pairing.pk, result=Result.PENDING).update(
            result=result, decided_by=by, advances_id=advances
        )
        == 1
    )


def game_ended(sender, game: Game, **kwargs) -> None:
    """``games.events.game_ended``: a tournament game's end is its pairing's result, in
    the game's transaction (so no end is lost); after commit, the tournament is asked to
    go on (its row is locked there, not here: the game's row lock is held now)."""
    # Most games are in no tournament: a look at the pairing's key first (a game has one
    # pairing at most, so unordered), then the joined read only for a tournament game; the
    # four-model join compiled for every game's end cost its last move 5,400 Python calls
    # (decision 0009).
    pending = Pairing.objects.filter(game=game, result=Result.PENDING).order_by().values_list("pk")
    if not pending:
        return  # not a tournament game, or its round's deadline decided it already
    pairing = Pairing.objects.select_related("round__tournament", "first", "second").get(
        pk=pending[0][0]
    )
    _decide(pairing, _result_of(game), DecidedBy.GAME)
    tournament_id = str(pairing.round.tournament_id)
    transaction.on_commit(
        lambda: task_named("tournaments.tasks.advance_tournament").delay(tournament_id)
    )


# --- Rounds ----------------------------------------------------------------------------------


def advance_tournament(tournament_id) -> bool:
    """Close the current round if every pairing of it is decided, and pair the next (or
    finish). True if a round closed. Idempotent: the round's end is claimed once."""
    with transaction.atomic(), sent_together():
        tournament = Tournament.objects.select_for_update().filter(id=tournament_id).first()
        if tournament is None or tournament.status != TournamentStatus.RUNNING:
            return False
        current = Round.objects.filter(
            tournament=tournament, number=tournament.current_round, ended_at=None
        ).first()
        if current is None or current.pairings.filter(result=Result.PENDING).exists():
            return False
        return _close_and_go_on(tournament, current, timezone.now())


def advance_running_tournaments() -> int:
    """The sweep for lost tasks: ``advance_tournament`` for every tournament under way."""
    ids = Tournament.objects.filter(status=TournamentStatus.RUNNING).values_list("id", flat=True)
    return sum(advance_tournament(tournament_id) for tournament_id in list(ids))


def close_overdue_rounds(now: datetime | None = None) -> int:
    """The deadline sweep: each open round past its deadline is closed, its unfinished
    games adjudicated as draws (elimination: the higher seed goes through; the games play
    on but no longer count), and the next round paired. Returns how many rounds closed;
    each one once, however many sweeps run (``Round.ended_at``'s guarded UPDATE)."""
    now = now or timezone.now()
    due = Round.objects.filter(
        ended_at=None, deadline__lte=now, tournament__status=TournamentStatus.RUNNING
    ).values_list("id", "tournament_id")
    closed = 0
    for round_id, tournament_id in list(due):
        with transaction.atomic(), sent_together():
            tournament = Tournament.objects.select_for_update().get(id=tournament_id)
            current = Round.objects.filter(id=round_id, ended_at=None, deadline__lte=now).first()
            if current is None or tournament.status != TournamentStatus.RUNNING:
                continue
            pending = current.pairings.select_related(
                "round__tournament", "first", "second"
            ).filter(result=Result.PENDING)
            for row in pending:
                _decide(row, Result.DRAW, DecidedBy.DEADLINE)
            if _close_and_go_on(tournament, current, now):
                closed += 1
    return closed


def _close_and_go_on(tournament: Tournament, current: Round, now: datetime) -> bool:
    """Claim ``current``'s end (guarded UPDATE; False if another got there first), then
    pair the next round or finish. The tournament's row is locked."""
    if Round.objects.filter(pk=current.pk, ended_at=None).update(ended_at=now) != 1:
        return False
    _pair_next_round(tournament, now)
    return True


def start_due_tournaments(now: datetime | None = None) -> int:
    """The start sweep: every tournament still signing up whose ``starts_at`` has come is
    claimed (a guarded UPDATE from ``signup``: two sweeps start it once) and started:
    seeds by rating, round 1 paired and its games created, or cancelled with fewer than
    ``MIN_ENTRANTS``. Returns how many it claimed."""
    now = now or timezone.now()
    due = Tournament.objects.filter(status=TournamentStatus.SIGNUP, starts_at__lte=now).values_list(
        "id", flat=True
    )
    claimed = 0
    for tournament_id in list(due):
        with transaction.atomic(), sent_together():
            if not claim_start(tournament_id, now):
                continue  # another sweep started it since this one looked
            tournament = Tournament.objects.select_for_update().get(id=tournament_id)
            _start(tournament, now)
            claimed += 1
    return claimed


def claim_start(tournament_id, now: datetime) -> bool:
    """The guarded UPDATE that makes a start happen once: ``signup`` → ``running`` for a
    tournament whose start has come; True only for the one caller that changed it."""
    return (
        Tournament.objects.filter(
            id=tournament_id, status=TournamentStatus.SIGNUP, starts_at__lte=now
        ).update(status=TournamentStatus.RUNNING, started_at=now)
        == 1
    )


def _start(tournament: Tournament, now: datetime) -> None:
    # Unanswered invitations stop working: sign-up has closed.
    Entrant.objects.filter(tournament=tournament).exclude(token_hash="").update(token_hash="")
    playing = [
        e
        for e in tournament.entrants.select_related("user")
        if e.is_in and e.user.erased_at is None
    ]
    if len(playing) < MIN_ENTRANTS:
        tournament.status = TournamentStatus.CANCELLED
        tournament.ended_at = now
        tournament.save(update_fields=["status", "ended_at"])
        _email(tournament, playing, "tournament_cancelled", {})
        logger.info("tournament %s cancelled: %d entrants", tournament.id, len(playing))
        return
    # Each one's rating at the game as players see it (1500 for one without).
    shown = {
        r.user_id: r.display
        for r in Rating.objects.filter(user__in=[e.user_id for e in playing], kind=tournament.game)
    }
    # Seeds: the higher rating first; equal ratings, who signed up first.
    playing.sort(key=lambda e: (-shown.get(e.user_id, DISPLAY_CENTRE), e.signed_up_at or now, e.pk))
    for number, entrant in enumerate(playing, start=1):
        entrant.seed = number
        entrant.seed_rating = shown.get(entrant.user_id, DISPLAY_CENTRE)
    Entrant.objects.bulk_update(playing, ["seed", "seed_rating"])
    if tournament.format == TournamentFormat.ELIMINATION:
        tournament.rounds = rules.rounds_of_bracket(len(playing))
    else:
        tournament.rounds = rules.swiss_rounds_for(len(playing), tournament.rounds)
    tournament.save(update_fields=["rounds"])
    logger.info("tournament %s started with %d entrants", tournament.id, len(playing))
    _pair_next_round(tournament, now)


def _active(tournament: Tournament) -> list[Entrant]:
    """Who plays the next round: seeded (in at the start), not withdrawn, account kept."""
    return [
        e
        for e in tournament.entrants.select_related("user").filter(
            seed__isnull=False, withdrawn_at=None
        )
        if e.user.erased_at is None
    ]


def _pair_next_round(tournament: Tournament, now: datetime) -> None:
    """Pair the round after ``current_round`` (its games created, the round email sent),
    or finish the tournament when it has played its rounds or has a winner. A round that
    holds only byes and walkovers closes at once, and the next is paired."""
    while True:
        number = tournament.current_round + 1
        if tournament.format == TournamentFormat.SWISS:
            pairs = _swiss_pairs(tournament, number)
        else:
            pairs = _elimination_pairs(tournament, number)
        if pairs is None:
            _finish(tournament, now)
            return
        current = Round.objects.create(
            tournament=tournament,
            number=number,
            started_at=now,
            deadline=now + timedelta(days=tournament.round_days),
        )
        tournament.current_round = number
        tournament.save(update_fields=["current_round"])
        _write_pairings(tournament, current, pairs)
        _email_round(tournament, current)
        if current.pairings.filter(result=Result.PENDING).exists():
            return
        Round.objects.filter(pk=current.pk).update(ended_at=now)


# One pair of a round: (board, first, second); ``second`` None is a bye or walkover.
Pair = tuple[int, Entrant, Entrant | None]


def _decided_pairings(tournament: Tournament) -> list[Pairing]:
    return list(
        Pairing.objects.filter(round__tournament=tournament)
        .exclude(result=Result.PENDING)
        .select_related("round")
    )


def _swiss_pairs(tournament: Tournament, number: int) -> list[Pair] | None:
    if number > tournament.rounds:
        return None
    active = _active(tournament)
    if len(active) < 2:
        return None
    scores: dict[int, float] = {e.pk: 0.0 for e in active}
    opponents: dict[int, set[int]] = {e.pk: set() for e in active}
    byes: set[int] = set()
    firsts: Counter[int] = Counter()
    for row in _decided_pairings(tournament):
        scores[row.first_id] = scores.get(row.first_id, 0.0) + (row.first_points() or 0)
        firsts[row.first_id] += 0 if row.second_id is None else 1
        if row.second_id is None:
            byes.add(row.first_id)
            continue
        scores[row.second_id] = scores.get(row.second_id, 0.0) + (row.second_points() or 0)
        opponents.setdefault(row.first_id, set()).add(row.second_id)
        opponents.setdefault(row.second_id, set()).add(row.first_id)
    by_user = {e.user_id: e.pk for e in active}
    players = [
        rules.SwissPlayer(
            id=e.pk,
            score=scores.get(e.pk, 0.0),
            rating=e.seed_rating or DISPLAY_CENTRE,
            had_bye=e.pk in byes,
            opponents=frozenset(opponents.get(e.pk, ())),
            blocked=frozenset(by_user[uid] for uid in blocked_ids(e.user_id) if uid in by_user),
        )
        for e in active
    ]
    chosen = rules.swiss_round(players)
    entrants = {e.pk: e for e in active}
    pairs: list[Pair] = []
    for board, (upper, lower) in enumerate(chosen.pairs, start=1):
        # Seat 0 (who moves first) to whoever has had it less often; the higher-ranked
        # when equal.
        first, second = (upper, lower) if firsts[upper] <= firsts[lower] else (lower, upper)
        pairs.append((board, entrants[first], entrants[second]))
    if chosen.bye is not None:
        pairs.append((len(chosen.pairs) + 1, entrants[chosen.bye], None))
    return pairs


def _elimination_pairs(tournament: Tournament, number: int) -> list[Pair] | None:
    if number > tournament.rounds:
        return None
    if number == 1:
        by_seed = {e.seed: e for e in _active(tournament)}
        return [
            (board, by_seed[upper], by_seed[lower] if lower is not None else None)
            for board, (upper, lower) in enumerate(rules.first_round(len(by_seed)), start=1)
            if upper in by_seed
        ]
    active = {e.pk: e for e in _active(tournament)}
    size = rules.bracket_size(tournament.entrants.filter(seed__isnull=False).count())
    matches_before = size // 2 ** (number - 1)  # round 1 has size / 2, each next half
    before = {
        row.board: row
        for row in Pairing.objects.filter(round__tournament=tournament, round__number=number - 1)
    }
    # Who went through each place of the last round; None where nobody did or they have
    # withdrawn (or deleted their account) since.
    advancers: list[int | None] = []
    for board in range(1, matches_before + 1):
        row = before.get(board)
        advancers.append(row.advances_id if row and row.advances_id in active else None)
    pairs: list[Pair] = []
    for board, (upper, lower) in enumerate(rules.next_round(advancers), start=1):
        present = [active[uid] for uid in (upper, lower) if uid is not None]
        if not present:
            continue
        present.sort(key=lambda e: e.seed or 0)
        pairs.append((board, present[0], present[1] if len(present) > 1 else None))
    if not pairs:
        return None
    return pairs


def _write_pairings(tournament: Tournament, current: Round, pairs: list[Pair]) -> None:
    zone = settings_for(tournament.organiser).zone.key
    for board, first, second in pairs:
        if second is None:
            Pairing.objects.create(
                round=current,
                board=board,
                first=first,
                result=Result.BYE,
                decided_by=DecidedBy.BYE,
                advances=first if tournament.format == TournamentFormat.ELIMINATION else None,
            )
            continue
        game = game_actions.do_create_arranged_game(
            first.user,
            [first.user, second.user],
            game=tournament.game,
            turn_hours=tournament.turn_hours,
            blind=tournament.blind,
            rated=tournament.rated,
            public=True,
            clock=tournament.clock,
            clock_zone=zone,
        )
        Pairing.objects.create(round=current, board=board, first=first, second=second, game=game)


def _finish(tournament: Tournament, now: datetime) -> None:
    tournament.status = TournamentStatus.FINISHED
    tournament.ended_at = now
    tournament.save(update_fields=["status", "ended_at"])
    people = [
        e
        for e in tournament.entrants.select_related("user").filter(seed__isnull=False)
        if e.user.erased_at is None
    ]
    lines = _standings_lines(tournament)
    _email(tournament, people, "tournament_ended", {"standings": lines})
    logger.info("tournament %s finished", tournament.id)


# --- Emails ----------------------------------------------------------------------------------


def _standings_lines(tournament: Tournament) -> list[str]:
    if tournament.format == TournamentFormat.SWISS:
        return [
            f"{row['rank']}. {row['name']}: {row['score']:g} (Buchholz {row['buchholz']:g})"
            for row in standings(tournament)
        ]
    return [f"{row['rank']}. {row['name']}" for row in standings(tournament)]


def _link(tournament: Tournament) -> str:
    return settings.SITE_URL + reverse("tournaments:tournament", args=[tournament.id])


def _email(tournament: Tournament, entrants: list[Entrant], template: str, extra: dict) -> None:
    """Queue ``template`` for each of ``entrants`` (not an erased account), in their
    language, its context the tournament's plus ``extra``."""
    for entrant in entrants:
        if entrant.user.erased_at is not None:
            continue
        language = language_of(entrant.user)
        with translation.override(language):
            context = {
                "tournament": tournament.name,
                "game_name": str(rules_for(tournament.game).NAME),
                "link": _link(tournament),
                **extra,
            }
        queue_email(
            entrant.user.email,
            template,
            context,
            topic=f"tournament:{tournament.id}",
            language=language,
        )


def _email_round(tournament: Tournament, current: Round) -> None:
    """Each entrant of the round: their pairing (opponent and game link, or the bye) and
    the standings as the round starts."""
    rows = list(current.pairings.select_related("first__user", "second__user", "game"))
    lines = _standings_lines(tournament) if current.number > 1 else []
    for row in rows:
        game_link = ""
        if row.game_id is not None:
            game_link = settings.SITE_URL + reverse("games:game", args=[row.game_id])
        sides = [(row.first, row.second)]
        if row.second is not None:
            sides.append((row.second, row.first))
        for me, them in sides:
            extra = {
                "round": current.number,
                "rounds": tournament.rounds,
                "opponent": "" if them is None else str(them.user.public_name),
                "game_link": game_link,
                "deadline": _moment(current.deadline),
                "standings": lines,
            }
            _email(tournament, [me], "tournament_round", extra)


# --- A person's data --------------------------------------------------------------------------


def export_entries(user: User) -> list[dict]:
    """``tournaments.json`` of ``user``'s data export: each tournament they were invited
    to or entered, and their pairings there (opponents by public name)."""
    entries = []
    for entrant in Entrant.objects.filter(user=user).select_related("tournament"):
        pairings = Pairing.objects.filter(Q(first=entrant) | Q(second=entrant)).select_related(
            "round", "first__user", "second__user"
        )
        entries.append(
            {
                "tournament": entrant.tournament.name,
                "tournament_id": str(entrant.tournament_id),
                "status": entrant.tournament.status,
                "invited_at": entrant.invited_at,
                "declined_at": entrant.declined_at,
                "signed_up_at": entrant.signed_up_at,
                "withdrawn_at": entrant.withdrawn_at,
                "seed": entrant.seed,
                "seed_rating": entrant.seed_rating,
                "pairings": [
                    {
                        "round": p.round.number,
                        "opponent": (
                            None
                            if p.second is None
                            else str(
                                (p.second if p.first_id == entrant.pk else p.first).user.public_name
                            )
                        ),
                        "game_id": str(p.game_id) if p.game_id else None,
                        "result": p.result,
                        "points": (
                            p.first_points() if p.first_id == entrant.pk else p.second_points()
                        ),
                    }
                    for p in pairings
                ],
            }
        )
    return entries


def erase_entries(user: User, now: datetime) -> None:
    """The tournaments' eraser (``accounts.erasure.erasing_account``): ``user`` deleted
    their account, so they withdraw from every tournament signing up or under way, in the
    erasure's transaction, each tournament locked. Their invitation links stop working.
    Their running games are the games' eraser's (before this one: a stand-in bot for
    good), and count when they end; they play no later round. Finished tournaments keep
    them, as "former player"."""
    ids = Entrant.objects.filter(user=user).values_list("tournament_id", flat=True)
    for tournament_id in list(ids):
        tournament = _lock(tournament_id)
        entrant = Entrant.objects.get(tournament=tournament, user=user)
        entrant.token_hash = ""
        if (
            tournament.status in (TournamentStatus.SIGNUP, TournamentStatus.RUNNING)
            and entrant.withdrawn_at is None
            and entrant.signed_up_at is not None
        ):
            entrant.withdrawn_at = now
        entrant.save(update_fields=["token_hash", "withdrawn_at"])
