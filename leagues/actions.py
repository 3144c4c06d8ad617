"""Every change to a league: create, answer the invitation, start, advance, leave, end.

Each ``do_*`` is one transaction that locks the league row; the league's games are
created and resigned through ``games.actions`` only. ``advance_league`` starts the
scheduled games whose players have room (``max_running``) and ends a league whose games
are all over; a game's end asks for it after commit (``game_ended``), and the sweep
``advance_active_leagues`` catches whatever a lost task left. Running either twice does
nothing twice. The games are started in batches of ``START_BATCH``, each batch its own
transaction, so no request and no transaction waits on a whole schedule's start.
"""

import logging
from collections import Counter
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.languages import language_of
from accounts.models import User
from core.errors import ServiceError
from core.rows import locked_row, new_invitation_token, row_for_token
from core.tasks import task_named
from core.text import clean_typed_text
from games import actions as game_actions
from games import invitation_limits
from games.actions.invitations import people_named
from games.catalogue import kinds, rules_for
from games.models import Game, GameStatus
from leagues import pairings
from leagues.models import (
    League,
    LeagueFormat,
    LeagueGame,
    LeagueGameStatus,
    LeagueMember,
    LeagueStatus,
)
from leagues.standings import standings
from notifications.outbox import queue_email, sent_together

logger = logging.getLogger(__name__)

MAX_PLAYERS = 24
NAME_MAX_LENGTH = 80
# Games started per transaction: one game (deal, start, turn emails) takes 10-35 ms, so
# a batch holds the league's row lock for a few hundred ms at most.
START_BATCH = 10


def _resolve_players(entries, organiser: User) -> list[User]:
    """The players as people (``people_named``); ``invalid`` for anything else."""
    return people_named(
        entries,
        not_a_list=_("players must be a list of addresses or names."),
        twice=_("Each player may be in the league only once."),
    )


def _check_shape(game: str, blind: bool, turn_hours, format: str, group_size, max_running):
    if game not in kinds():
        raise ServiceError(
            "invalid",
            _("Unknown game %(game)r; available: %(available)s.")
            % {"game": game, "available": kinds()},
        )
    rules = rules_for(game)
    if not isinstance(turn_hours, int) or not (
        game_actions.MIN_TURN_HOURS <= turn_hours <= game_actions.MAX_TURN_HOURS
    ):
        raise ServiceError(
            "invalid",
            _("turn_hours must be between %(min)d and %(max)d.")
            % {"min": game_actions.MIN_TURN_HOURS, "max": game_actions.MAX_TURN_HOURS},
        )
    if blind and "blind" not in rules.OPTIONS:
        raise ServiceError(
            "invalid",
            _("%(game)s has no blind mode: nothing but the draw order is hidden.")
            % {"game": rules.NAME},
        )
    if format == LeagueFormat.ROUND_ROBIN:
        needed = {2}
    elif format == LeagueFormat.GROUPS:
        if group_size not in (3, 4):
            raise ServiceError("invalid", _("group_size must be 3 or 4."))
        needed = {3, 4}
    else:
        raise ServiceError("invalid", _("format must be round_robin or groups."))
    if not needed <= set(rules.PLAYER_COUNTS):
        raise ServiceError(
            "invalid",
            _("%(game)s is not played by %(counts)s players.")
            % {"game": rules.NAME, "counts": " and ".join(str(n) for n in sorted(needed))},
        )
    if not isinstance(max_running, int) or not 1 <= max_running <= 20:
        raise ServiceError("invalid", _("max_running must be between 1 and 20."))


def _check_count(format: str, group_size: int, count: int) -> None:
    """Refuse a number of players the format cannot seat."""
    if format == LeagueFormat.ROUND_ROBIN and count < 2:
        raise ServiceError("invalid", _("A round robin needs at least 2 players."))
    if format == LeagueFormat.GROUPS and (
        count < 3 or pairings.group_sizes(count, group_size) is None
    ):
        raise ServiceError("invalid", _("Groups of 3-4 need 3, 4 or at least 6 players."))


def do_create_league(
    organiser: User,
    *,
    name: str,
    players: list[str],
    game: str | None = None,
    blind: bool = False,
    turn_hours: int = 72,
    format: str = LeagueFormat.ROUND_ROBIN,
    group_size: int = 4,
    max_running: int = 2,
) -> League:
    """Create a league and email each player (but the organiser, if playing: accepted at
    once) one invitation for all its games. ``players``: addresses or display names, at
    most ``MAX_PLAYERS``. The schedule is made when everyone has answered
    (``_start_league``). The name is cleaned by the one rule for typed text
    (``core.text.clean_typed_text``: one line, no control or invisible characters): every
    invitation email carries it. The invitations count against the same anti-spam limits
    as a game's (``games.invitation_limits``). Raises ``ServiceError`` (``invalid``,
    ``suspended``, ``throttled``) and creates nothing on refusal. ``game`` (None: the
    catalogue's first game) is the kind of its games."""
    if game is None:
        game = kinds()[0]
    name = clean_typed_text(name, field_label=_("The league's name"), max_length=NAME_MAX_LENGTH)
    _check_shape(game, blind, turn_hours, format, group_size, max_running)
    if not isinstance(players, list | tuple) or len(players) > MAX_PLAYERS:
        raise ServiceError(
            "invalid", _("A league has at most %(count)d players.") % {"count": MAX_PLAYERS}
        )
    if organiser.is_suspended():
        raise ServiceError(
            "suspended",
            _("A moderator has suspended your account, so you cannot create leagues for now."),
        )
    now = timezone.now()
    with transaction.atomic(), sent_together():
        # The organiser's row first, as a game's host's: their leagues and invitations of
        # one day are counted one request after the other, so two at once cannot both
        # slip under the limits.
        invitation_limits.lock_inviter(organiser)
        people = _resolve_players(players, organiser)
        _check_count(format, group_size, len(people))
        recent = League.objects.filter(organiser=organiser, created_at__gte=now - timedelta(days=1))
        if recent.count() >= settings.LEAGUES_PER_USER_PER_DAY:
            raise ServiceError(
                "throttled",
                _("You can create at most %(count)d leagues a day.")
                % {"count": settings.LEAGUES_PER_USER_PER_DAY},
            )
        # Suspended players among them read as busy addresses, as in a game's invitation.
        invitation_limits.check_invitation_limits(
            organiser, [p.email for p in people if p.pk != organiser.pk], now
        )
        league = League.objects.create(
            name=name,
            organiser=organiser,
            game=game,
            blind=blind,
            turn_hours=turn_hours,
            format=format,
            group_size=group_size if format == LeagueFormat.GROUPS else 2,
            max_running=max_running,
        )
        for position, person in enumerate(people):
            member = LeagueMember.objects.create(
                league=league,
                user=person,
                position=position,
                accepted_at=now if person.pk == organiser.pk else None,
            )
            if member.accepted_at is None:
                _invite(league, member)
        _start_if_everyone_answered(league, now)
    logger.info("league %s created by user %s for %d players", league.id, organiser.id, len(people))
    return league


def _invite(league: League, member: LeagueMember) -> None:
    """A fresh invitation token for ``member`` (only its hash is kept) and its email."""
    token, member.token_hash = new_invitation_token()
    member.save(update_fields=["token_hash"])
    language = language_of(member.user, fallback=language_of(league.organiser))
    queue_email(
        member.user.email,
        "league_invitation",
        {
            "league": league.name,
            "organiser": league.organiser.public_name,
            "game_name": rules_for(league.game).NAME,
            "format": str(LeagueFormat(league.format).label),
            "players": [m.user.public_name for m in league.members.select_related("user")],
            "turn_hours": league.turn_hours,
            "max_running": league.max_running,
            "link": settings.SITE_URL + reverse("leagues:invitation", args=[token]),
        },
        topic=f"league:{league.id}",
        language=language,
    )


def _invitations_sent_since(inviter: User, since: datetime) -> int:
    # Each member but the organiser of the leagues they created since: one email each.
    return (
        LeagueMember.objects.filter(league__organiser=inviter, league__created_at__gte=since)
        .exclude(user=inviter)
        .count()
    )


def _unanswered_invitations(emails: list[str]) -> Counter[str]:
    return Counter(
        LeagueMember.objects.filter(
            user__email__in=emails,
            league__status=LeagueStatus.INVITED,
            accepted_at=None,
            declined_at=None,
        ).values_list("user__email", flat=True)
    )


# A league's invitations, counted with a game's against the anti-spam limits: receivers
# of ``games.invitation_limits``' signals (connected in ``LeaguesConfig.ready``).
def count_invitations_sent(sender, *, inviter: User, since: datetime, **kwargs) -> int:
    return _invitations_sent_since(inviter, since)


def count_unanswered_invitations(sender, *, emails: list[str], **kwargs) -> Counter[str]:
    return _unanswered_invitations(emails)


def member_for_token(token: str) -> LeagueMember:
    """The member an invitation token names (``not_found`` if none)."""
    return row_for_token(LeagueMember.objects.select_related("league", "user"), token)


def _lock(league_id) -> League:
    return locked_row(League.objects.all(), league_id, _("No such league, or you are not in it."))


def do_answer_invitation(member_id: int, accept: bool) -> League:
    """The member accepts or declines the league; when nobody is left to answer, the league
    starts with those who accepted (or is cancelled when too few did). Answering again the
    same way is harmless. Raises ``ServiceError`` (``game_not_active`` once the league has
    started or ended, ``suspended``)."""
    with transaction.atomic(), sent_together():
        member = LeagueMember.objects.select_related("league", "user").get(pk=member_id)
        league = _lock(member.league_id)
        if member.user.is_suspended():
            raise ServiceError(
                "suspended",
                _("A moderator has suspended your account, so you cannot join leagues for now."),
            )
        done = member.accepted_at if accept else member.declined_at
        if done is not None:
            return league
        if league.status != LeagueStatus.INVITED or member.accepted_at or member.declined_at:
            raise ServiceError(
                "game_not_active", _("This league has been answered or has begun already.")
            )
        now = timezone.now()
        if accept:
            member.accepted_at = now
        else:
            member.declined_at = now
        member.save(update_fields=["accepted_at", "declined_at"])
        _start_if_everyone_answered(league, now)
    return league


def _start_if_everyone_answered(league: League, now: datetime) -> None:
    """Start ``league`` (its row locked) once no member is left to answer: the schedule for
    those who accepted and have not left since (nor deleted their account:
    ``erase_memberships``), its first games, the start email; cancel it when too few
    are left."""
    members = list(league.members.select_related("user"))
    if any(m.accepted_at is None and m.declined_at is None and m.left_at is None for m in members):
        return
    playing = [m for m in members if m.accepted_at is not None and m.left_at is None]
    try:
        _check_count(league.format, league.group_size, len(playing))
    except ServiceError:
        league.status = LeagueStatus.CANCELLED
        league.ended_at = now
        league.save(update_fields=["status", "ended_at"])
        _email_members(league, playing, "league_cancelled", {})
        return
    ids = [m.user_id for m in playing]
    if league.format == LeagueFormat.ROUND_ROBIN:
        rounds = pairings.round_robin(len(ids))
    else:
        rounds = pairings.groups(len(ids), league.group_size)
    schedule = [
        LeagueGame(league=league, number=0, round=number, players=[ids[i] for i in table])
        for number, tables in enumerate(rounds, start=1)
        for table in tables
    ]
    for number, row in enumerate(schedule, start=1):
        row.number = number
    LeagueGame.objects.bulk_create(schedule)
    league.status = LeagueStatus.ACTIVE
    league.started_at = now
    league.save(update_fields=["status", "started_at"])
    _email_members(league, playing, "league_started", {"games": len(schedule)})
    # The games start after commit, in batches (advance_league): starting 190 of them here
    # would keep the last player's request and the league's lock for seconds.
    league_id = str(league.id)
    transaction.on_commit(lambda: task_named("leagues.tasks.advance_league").delay(league_id))


def _start_due_games(league: League, limit: int | None = None) -> int:
    """Start the scheduled games (in order, at most ``limit``) whose players all have fewer
    than ``max_running`` of the league's games running; returns how many. A scheduled game
    of a member who has left (or deleted their account) is cancelled instead: leaving and
    erasure cancel theirs, this catches any that slipped past. League row locked."""
    running: dict[int, int] = {}
    for row in LeagueGame.objects.filter(
        league=league, status=LeagueGameStatus.STARTED, game__status=GameStatus.ACTIVE
    ).only("players"):
        for uid in row.players:
            running[uid] = running.get(uid, 0) + 1
    scheduled = list(LeagueGame.objects.filter(league=league, status=LeagueGameStatus.SCHEDULED))
    if not scheduled:
        return 0
    members = list(league.members.select_related("user"))
    users = {m.user_id: m.user for m in members}
    gone = {m.user_id for m in members if m.left_at is not None or m.user.erased_at is not None}
    started = 0
    for row in scheduled:
        if limit is not None and started >= limit:
            break
        if gone.intersection(row.players):
            row.status = LeagueGameStatus.CANCELLED
            row.save(update_fields=["status"])
            continue
        if any(running.get(uid, 0) >= league.max_running for uid in row.players):
            continue
        seated = [users[uid] for uid in row.players]
        row.game = game_actions.do_create_arranged_game(
            seated[0], seated, game=league.game, turn_hours=league.turn_hours, blind=league.blind
        )
        row.status = LeagueGameStatus.STARTED
        row.save(update_fields=["game", "status"])
        for uid in row.players:
            running[uid] = running.get(uid, 0) + 1
        started += 1
    return started


def advance_league(league_id, batch: int | None = None) -> int:
    """Start the scheduled games that have room now and end the league once all its games
    are over (the end email); returns how many games started. ``batch`` (``START_BATCH``)
    games at a time, each batch its own transaction. Idempotent."""
    batch = batch or START_BATCH
    started = 0
    while True:
        count = _advance_once(league_id, batch)
        started += count
        if count < batch:
            return started


def _advance_once(league_id, batch: int) -> int:
    """One transaction of ``advance_league``: at most ``batch`` games started; the end."""
    with transaction.atomic(), sent_together():
        league = League.objects.select_for_update().filter(id=league_id).first()
        if league is None or league.status != LeagueStatus.ACTIVE:
            return 0
        started = _start_due_games(league, limit=batch)
        if (
            not LeagueGame.objects.filter(league=league)
            .filter(status=LeagueGameStatus.SCHEDULED)
            .exists()
            and not LeagueGame.objects.filter(
                league=league, status=LeagueGameStatus.STARTED, game__status=GameStatus.ACTIVE
            ).exists()
        ):
            league.status = LeagueStatus.FINISHED
            league.ended_at = timezone.now()
            league.save(update_fields=["status", "ended_at"])
            members = [m for m in league.members.select_related("user") if m.accepted_at]
            _email_members(league, members, "league_ended", {}, with_standings=True)
        return started


def advance_active_leagues() -> int:
    """The sweep: ``advance_league`` for every league under way; games started."""
    ids = list(League.objects.filter(status=LeagueStatus.ACTIVE).values_list("id", flat=True))
    return sum(advance_league(league_id) for league_id in ids)


def game_ended(sender, game: Game, **kwargs) -> None:
    """``games.events.game_ended``: a league game's end asks, after commit, for the
    league to go on (the game's row lock is held here; the league's is taken later)."""
    league_id = LeagueGame.objects.filter(game=game).values_list("league_id", flat=True).first()
    if league_id is not None:
        transaction.on_commit(
            lambda: task_named("leagues.tasks.advance_league").delay(str(league_id))
        )


def do_leave_league(league_id, user: User) -> League:
    """``user`` leaves the league: their scheduled games are cancelled and each of their
    running games resigned (``games.actions.do_resign``: P26, R37). Leaving twice is
    harmless. Raises ``ServiceError`` (``not_found``, ``game_not_active`` for a league
    that is over)."""
    with transaction.atomic():
        league = _lock(league_id)
        member = LeagueMember.objects.filter(league=league, user=user).first()
        if member is None:
            raise ServiceError("not_found", _("No such league, or you are not in it."))
        if member.left_at is None:
            if league.status not in (LeagueStatus.ACTIVE, LeagueStatus.INVITED):
                raise ServiceError("game_not_active", _("This league is over."))
            member.left_at = timezone.now()
            member.save(update_fields=["left_at"])
            _cancel_scheduled_games(league, user)
        running = list(
            Game.objects.filter(
                league_game__league=league,
                status=GameStatus.ACTIVE,
                seats__user=user,
                seats__resigned=False,
            )
        )
    # Each game in its own transaction (do_resign's): the league's lock is not held while
    # the games are locked, so a game's end cannot wait on it the other way round.
    for game in running:
        for _attempt in range(3):
            game.refresh_from_db(fields=["version", "status"])
            if game.status != GameStatus.ACTIVE:
                break
            try:
                game_actions.do_resign(game.id, user, game.version)
                break
            except ServiceError as error:
                if error.code != "stale_version":
                    break
    advance_league(league_id)
    return league


def erase_memberships(user: User, now: datetime) -> None:
    """The leagues' eraser (``accounts.erasure.erasing_account``, in ``LeaguesConfig.ready``):
    ``user`` deleted their account, so they leave every league still invited or under way,
    inside the erasure's transaction, each league locked as every action locks it.

    They are marked as having left (``left_at``) and their invitation link stops working.
    In a league still inviting, a pending invitation is withdrawn (it never counts as
    declined: they did not decline), and the league starts without them once nobody else
    is left to answer, or is cancelled when too few are left, as after the last answer.
    In a league under way their scheduled games are cancelled (nobody plays them, nobody
    gets points; the others' games stay as scheduled). Their running games are the
    games' eraser's, which ran before this one (``games.actions.erasure``: a stand-in bot
    for good, or the game ends) and count when they finish. They stay in the standings,
    as "former player", marked as having left. Finished and cancelled leagues stay as they
    are. docs/leagues.md "Leaving".
    """
    league_ids = LeagueMember.objects.filter(user=user, left_at=None).values_list(
        "league_id", flat=True
    )
    for league_id in list(league_ids):
        league = _lock(league_id)
        if league.status not in (LeagueStatus.INVITED, LeagueStatus.ACTIVE):
            continue
        member = LeagueMember.objects.get(league=league, user=user)
        member.left_at = now
        member.token_hash = ""
        member.save(update_fields=["left_at", "token_hash"])
        if league.status == LeagueStatus.INVITED:
            _start_if_everyone_answered(league, now)
        else:
            _cancel_scheduled_games(league, user)
            # A cancelled game may be what kept the league from ending.
            _advance_after_commit(str(league.id))
        logger.info("league %s: a member's account was erased", league.id)


def _advance_after_commit(league_id: str) -> None:
    """Ask for ``advance_league`` once the caller's transaction has committed."""
    transaction.on_commit(lambda: task_named("leagues.tasks.advance_league").delay(league_id))


def _cancel_scheduled_games(league: League, user: User) -> None:
    """Cancel ``user``'s scheduled games in the locked ``league``."""
    for row in LeagueGame.objects.filter(league=league, status=LeagueGameStatus.SCHEDULED):
        if user.pk in row.players:
            row.status = LeagueGameStatus.CANCELLED
            row.save(update_fields=["status"])


def do_set_weekly_standings(league_id, user: User, wanted: bool) -> LeagueMember:
    """Turn ``user``'s weekly standings email of the league on or off."""
    member = LeagueMember.objects.filter(league_id=league_id, user=user).first()
    if member is None:
        raise ServiceError("not_found", _("No such league, or you are not in it."))
    member.weekly_standings = wanted
    member.save(update_fields=["weekly_standings"])
    return member


def _email_members(
    league: League,
    members: list[LeagueMember],
    template: str,
    extra: dict,
    *,
    with_standings: bool = False,
) -> None:
    """Queue ``template`` for each of ``members`` (in their language), but not to an
    erased account: nobody is left to tell."""
    for member in members:
        if member.user.erased_at is not None:
            continue
        with translation.override(language_of(member.user)):
            context = {
                "league": league.name,
                "game_name": rules_for(league.game).NAME,
                "link": settings.SITE_URL + reverse("leagues:league", args=[league.id]),
                **extra,
            }
            if with_standings:
                context["standings"] = _standings_lines(league)
        queue_email(
            member.user.email,
            template,
            context,
            topic=f"league:{league.id}",
            language=language_of(member.user),
        )


def _standings_lines(league: League) -> list[str]:
    return [f"{row['rank']}. {row['name']}: {row['points']:g}" for row in standings(league)]


def _week(now: datetime) -> str:
    year, week, _day = now.isocalendar()
    return f"{year}-W{week:02d}"


def send_weekly_standings(now: datetime | None = None) -> int:
    """The weekly standings email to each member of a league under way who wants it, at
    most once per ISO week (a guarded UPDATE claims the week: two runs send one); a
    league's first week is skipped (its start email said it all). Returns how many."""
    now = now or timezone.now()
    week = _week(now)
    sent = 0
    leagues = League.objects.filter(
        status=LeagueStatus.ACTIVE, started_at__lte=now - timedelta(days=7)
    )
    for league in leagues:
        members = (
            league.members.select_related("user")
            .filter(accepted_at__isnull=False, left_at=None, weekly_standings=True)
            .exclude(standings_week=week)
        )
        for member in members:
            with transaction.atomic():
                claimed = (
                    LeagueMember.objects.filter(pk=member.pk)
                    .exclude(standings_week=week)
                    .update(standings_week=week)
                )
                if claimed == 1:
                    _email_members(league, [member], "league_standings", {}, with_standings=True)
                    sent += 1
    return sent
