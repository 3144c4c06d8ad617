"""What the service tells players by email about their games, composed and queued here."""

import json
from datetime import datetime, timedelta

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.translation import gettext as _

from accounts.languages import language_of
from accounts.preferences import settings_for
from accounts.schedule import Channel, EmailKind
from accounts.unsubscribe import settings_url, unsubscribe_url
from core.errors import ServiceError
from games import presence
from games.catalogue import spec_for
from games.chair import chair_seat
from games.clocks import bank_words, clock_words
from games.describe import Names, format_moment, words_for
from games.invitation_links import invitation_token
from games.models import Actor, EndReason, Game, GameStatus, Move, Seat
from games.movelog import log_to_describe
from games.news_channels import queue_elsewhere
from games.queries import game_with_seats, seats_in_order
from games.reply_tokens import reply_address
from games.seat_names import level_word, person_name
from games.table_talk import talk_since
from notifications.models import OutboundEmail
from notifications.outbox import queue_email
from notifications.rendering import Composed, composer
from notifications.send_checks import Drop, Hold, SendCheck, Verdict, send_check


def queue_invitation(game: Game, seat: Seat) -> None:
    """Queue the invitation email for ``seat``: who invites, who plays, the link to answer."""
    path = reverse("games:invitation", args=[invitation_token(game, seat)])
    # Someone new has never chosen a language: the host's (or the one the host is using
    # right now, on the page that creates the game) is the best guess.
    host_language = language_of(game.host, fallback=translation.get_language())
    assert seat.user is not None  # invitations go to people, never to a bot's own seat
    language = language_of(seat.user, fallback=host_language)
    with translation.override(language):
        notes = _notes(game)
        clock = clock_words(game)  # a time bank or daily deadline in words ("" per turn)
    queue_email(
        seat.user.email,
        "invitation",
        {
            "game": game.game,
            "game_name": game.rules.NAME,
            "notes": notes,
            "host": game.host.public_name,
            "players": [s.public_name for s in game.seats.all()],
            "turn_hours": game.turn_hours,
            "clock": clock,
            "blind": game.blind,
            "link": settings.SITE_URL + path,
            "expires_at": game.invitation_expires_at,
            # Public (games.fairness): the invitee's own copy of what the server committed to.
            "commitment": game.seed_commitment,
        },
        topic=f"game:{game.id}",
        language=language,
    )


def queue_cancellation(game: Game, *, reason: str | Promise, exclude_declined: bool = True) -> None:
    """Tell the players of ``game`` it was cancelled and why.

    The host gets the host's text (``for_host`` in the template context): they set the
    game up, so they are not told to ask themselves for a new invitation.
    """
    for seat in game.seats.select_related("user"):
        if seat.user is None or (exclude_declined and seat.declined_at is not None):
            continue  # a bot's seat: nobody to tell
        queue_email(
            seat.user.email,
            "game_cancelled",
            {
                "game_name": game.rules.NAME,
                "host": game.host.public_name,
                "reason": reason,
                "for_host": seat.user_id == game.host_id,
            },
            topic=f"game:{game.id}",
            language=language_of(seat.user),
        )


# --- Game news: turn emails, reminders, automatic moves, start and end of a game --------------
#
# Each queue_* below runs inside the transaction of the change that causes it (the outbox
# sends after commit), asks the recipient's settings whether they want that kind of email,
# and adds the one-click unsubscribe headers (RFC 8058). What a player is told comes from
# the engine's view for their seat and the public move log only, never the secret state.

ENTRY_SALT = "games.entry"
# The turn email and the reminder wait for the end of the recipient's quiet hours.
QUIET_KINDS = frozenset({"your_turn", "reminder"})


def game_entry_url(game: Game, user) -> str:
    """The absolute link that opens ``game`` in the browser signed in as ``user``.

    While the game is invited or active it is ``/games/<id>/enter/<token>/``: a signed,
    timestamped token naming the game, the user and their ``session_generation``
    (``read_entry_token`` checks it); its GET changes nothing and the POST from that page
    signs in for this game only (``accounts.game_scope``). Once the game has ended the
    link is the plain game page, which asks the reader to sign in.
    """
    if game.status not in (GameStatus.INVITED, GameStatus.ACTIVE):
        return settings.SITE_URL + reverse("games:game", args=[game.id])
    payload = {"g": str(game.id), "u": user.id, "s": user.session_generation}
    token = signing.dumps(payload, salt=ENTRY_SALT, compress=True)
    return settings.SITE_URL + reverse("games:enter", args=[game.id, token])


def read_entry_token(game_id, token: str):
    """The seat (with game and user) an entry link's token opens.

    Raises ``ServiceError("not_found")`` for a tampered token or one made for another game,
    and ``ServiceError("game_not_active")`` once the game has ended or when the account is
    no longer active: the link is only good while the game runs; ``ServiceError("suspended")``
    while a moderator's suspension of the player runs; ``ServiceError("link_expired")``
    ``GAME_LINK_DAYS`` after the email, or once the player signed out everywhere.
    """
    expired = ServiceError(
        "link_expired",
        _("This link has expired: game links sign in for a few days only. Sign in to play."),
    )
    try:
        data = signing.loads(token, salt=ENTRY_SALT, max_age=settings.GAME_LINK_DAYS * 86400)
        if data["g"] != str(game_id):
            raise KeyError("game")
        seat = Seat.objects.select_related("game", "user").get(game_id=game_id, user_id=data["u"])
    except signing.SignatureExpired:
        raise expired from None
    except (signing.BadSignature, Seat.DoesNotExist, KeyError, TypeError, ValueError):
        raise ServiceError("not_found", _("This link is not valid.")) from None
    assert seat.user is not None  # fetched by its user id
    # Links from before "s" was added were made at generation 0.
    if data.get("s", 0) != seat.user.session_generation:
        raise expired
    if seat.user.is_suspended():  # it signs in: no more than a login link may
        raise ServiceError(
            "suspended",
            _("A moderator has suspended your account, so this link cannot sign you in for now."),
        )
    if seat.game.status not in (GameStatus.INVITED, GameStatus.ACTIVE) or not seat.user.is_active:
        raise ServiceError(
            "game_not_active",
            _("This game has ended, so its link no longer signs you in. Sign in to see it."),
        )
    return seat


def queue_turn_email(game: Game, seat: int) -> OutboundEmail | None:
    """Tell the player at ``seat`` it is their turn (None if they do not want the email).

    Shows the table as ``view(state, seat)`` gives it, the deadline in the player's time
    zone, and the recap of every move since the player's own last one, built from the
    public move log. Waits for the end of the player's quiet hours. None for a suspended
    player, whose turn times out at once, and for a seat a bot plays.

    The email is composed when it is sent (``_compose_turn_email``, in the worker) from
    a snapshot of the game as it is now: it shows this turn however far the game has
    moved on by then.

    Held while the player is at the table (``games.presence``: their game page was live
    within ``LIVE_SECONDS``): then it is due ``TURN_EMAIL_HOLD_SECONDS`` later, and sent
    only if the turn is still theirs then (``_held_turn_email_check``).
    """
    seat_row = _seat(game, seat)
    if seat_row.bot:
        return None  # bots get no email, nor does a player while a bot stands in
    assert seat_row.user is not None  # a seat without a bot has its player
    if seat_row.user.is_suspended():
        return None  # the turn is played for them at once (deadlines.turn_deadline)
    prefs = settings_for(seat_row.user)
    if not prefs.wants(EmailKind.YOUR_TURN):
        return None
    now = timezone.now()
    hold = _hold_while_live(game, seat, now)
    # Replying to the email with a move plays it (mailin): the token names this version.
    reply_to = _reply_to(game, seat, seat_row)
    # Why not compose it here: the recap reads the whole move log and the table is put
    # in words, more work than the rest of the move, under the game's row lock
    # (BENCHMARKS.md "Move path"). What may change before it is sent is in the snapshot.
    snapshot = Composed(
        TURN_EMAIL_COMPOSER,
        {
            "game_id": str(game.id),
            "seat": seat,
            "version": game.version,
            "round_number": game.round,
            # The player's view, never the state: it holds the draw order and the key.
            # As JSON text: PostgreSQL's jsonb would reorder its keys, and the order of
            # some (Piratz's cubes, in P1's treasure order) is the order shown.
            "table_view_json": json.dumps(game.rules.view(game.load_state(), seat)),
            "deadline": game.deadline,
            # A time bank game: the bank this turn starts with (games.clocks).
            "bank_seconds": seat_row.bank_seconds,
            "reply_by_email": reply_to is not None,
            # The one the List-Unsubscribe header holds (its token is timestamped).
            "unsubscribe_link": unsubscribe_url(seat_row.user, EmailKind.YOUR_TURN),
        },
    )
    return _queue_game_email(
        game,
        seat_row.user,
        prefs,
        EmailKind.YOUR_TURN,
        snapshot,
        reply_to=reply_to,
        send_check=hold,
    )


TURN_EMAIL_HELD = "games.turn_email_held"


def _turn_email_hold() -> timedelta:
    return timedelta(seconds=settings.TURN_EMAIL_HOLD_SECONDS)


def _hold_while_live(game: Game, seat: int, now: datetime) -> SendCheck | None:
    """The check every turn email queued at ``now`` carries, or None when holding is off
    (a hold of 0). Whether the player is at the table is asked by the check, in the
    worker: the move's transaction reads no cache (a failing cache query would abort it)."""
    if not _turn_email_hold():
        return None
    arguments = {"game_id": str(game.id), "seat": seat, "version": game.version, "held_at": now}
    return SendCheck(TURN_EMAIL_HELD, arguments)


@send_check(TURN_EMAIL_HELD)
def _held_turn_email_check(now: datetime, *, game_id, seat, version, held_at) -> Verdict:
    """Whether the turn email queued at ``held_at`` goes out at ``now``, when it is due.

    Within the hold after ``held_at``: held while the player is at the table
    (``games.presence``: their page was live within ``LIVE_SECONDS``), sent at once if not.
    After that, dropped when the turn that began at ``version`` is no longer theirs: the
    game moved on (their own move, even one that keeps the turn, as a Piratz reveal does;
    a timeout; the game ended). A move is the only change of ``version``, so an unchanged
    version is the same turn. While the player is still at the table, held once more, up
    to twice the hold after ``held_at``: someone reading the table may be thinking, but a
    tab left open and forgotten must not swallow the email. Then it goes, at most once
    (the outbox's claim). The reminder before the deadline is never held.
    """
    hold = _turn_email_hold()
    if now < held_at + hold:
        return Hold(held_at + hold) if presence.is_live(game_id, seat, now) else None
    game = Game.objects.filter(id=game_id).values("status", "current_seat", "version").first()
    turn = (GameStatus.ACTIVE, seat, version)
    if game is None or (game["status"], game["current_seat"], game["version"]) != turn:
        return Drop("The turn passed while its email was held (the player was at the table).")
    last_hold = held_at + 2 * hold
    if now < last_hold and presence.is_live(game_id, seat, now):
        return Hold(last_hold)
    return None


def _reply_to(game: Game, seat: int, seat_row) -> str | None:
    """The Reply-To that plays a reply as a move at the game's current version, or None for
    a game not played by email (no ``GameSpec.mail_grammar``: its emails offer the link)."""
    if spec_for(game.game).mail_grammar is None:
        return None
    return reply_address(game.id, seat, seat_row.user_id, game.version)


TURN_EMAIL_COMPOSER = "games.your_turn"


@composer(TURN_EMAIL_COMPOSER)
def _compose_turn_email(
    *,
    game_id,
    seat,
    version,
    round_number,
    table_view_json,
    deadline,
    reply_by_email,
    unsubscribe_link,
    bank_seconds=None,
) -> dict:
    """The context of ``queue_turn_email``'s email, as it was when the turn began at
    ``version``: the table as the player saw it then (``table_view_json``), the recap of
    the moves up to ``version``, that turn's ``deadline``; names and settings as they are
    now."""
    table_view = json.loads(table_view_json)
    game = _game_to_compose(game_id, "turn")
    # The game as it was when the turn began, on this unsaved instance only.
    game.version, game.round, game.deadline = version, round_number, deadline
    game.status, game.current_seat = GameStatus.ACTIVE, seat
    seat_row = _seat(game, seat)
    assert seat_row.user is not None  # turn emails are queued for people only
    context = game_email_context(game, seat_row, settings_for(seat_row.user), table_view=table_view)
    context["recap"] = recap(game, seat)
    # The others' table talk since the player's last move (games.table_talk: the talk app's).
    context["talk"] = talk_since(game, seat)
    context["reply_by_email"] = reply_by_email
    # Snapshots queued before time banks existed have none: no bank line.
    context["bank"] = "" if bank_seconds is None else bank_words(bank_seconds)
    return _with_footer(context, unsubscribe_link)


def queue_reminder(game: Game, seat: int, deadline) -> OutboundEmail | None:
    """Remind the player at ``seat`` that their turn ends at ``deadline``.

    Waits for the end of the player's quiet hours (the deadline never falls inside them).
    Like the turn email, it has a Reply-To for the game's current version (mailin) and
    says how to reply with a move: a reply to it plays as a reply to the turn email does,
    and is refused as stale once the game has moved on.
    """
    seat_row = _seat(game, seat)
    if seat_row.bot:
        return None
    assert seat_row.user is not None  # a seat without a bot has its player
    prefs = settings_for(seat_row.user)
    if not prefs.wants(EmailKind.REMINDER):
        return None
    # A late player answers the newest email they have: this one. The reminder sweep
    # queues it in the transaction that claimed the game at this very version.
    reply_to = _reply_to(game, seat, seat_row)
    with translation.override(language_of(seat_row.user)):
        context = game_email_context(game, seat_row, prefs)
        context["deadline"] = format_moment(deadline, prefs.zone)
        context["hours_left"] = max(0, round((deadline - timezone.now()).total_seconds() / 3600))
        context["reply_by_email"] = reply_to is not None
        return _queue_game_email(
            game, seat_row.user, prefs, EmailKind.REMINDER, context, reply_to=reply_to
        )


def queue_auto_moved(
    game: Game, moves: list[Move], *, table_before: dict | None = None
) -> OutboundEmail | None:
    """Tell the player whose deadline passed what the service played for them: one email
    for the turn's automatic ``moves`` (rules P24, R34).

    ``table_before`` is the engine's view for that seat just before the first of them
    (public: everyone saw it); with it the email says what the moves did (Piratz: which
    cards the move took, in blind mode only how many, as P23 hides collections;
    Rattenscharf: where each strip went and what it scored), in the game's own words
    (``games.describe.words_for``).

    The email is composed when it is sent (``_compose_auto_moved``, in the worker): the
    deadline sweep composed it in its transaction (17% of a sweep's time). The game moves
    on before then, so the snapshot holds what the email shows as of now (``game`` just
    after the ``moves``): the player's view of the table and ``table_before`` (as JSON
    text), the moves' numbers (their log rows do not change), whether collections are
    hidden (blind mode while the game runs, P23: decided now, so a game that ends before
    the email is sent still shows what this one may), the status, seat to move and
    deadline (the link, the "your turn" line and whether the game may still be abandoned),
    which seats bots played (a stand-in may take the player's seat right after these
    moves) and whether stand-in bots are on. Never the state (the draw order,
    the key); never a sign-in link (minted when it is sent). The players' own names and
    settings are theirs when it is sent, as for the turn email.
    """
    move = moves[0]
    seat_row = _seat(game, move.seat)
    if seat_row.user is None:
        return None
    prefs = settings_for(seat_row.user)
    if not prefs.wants(EmailKind.AUTO_MOVED):
        return None
    snapshot = Composed(
        AUTO_MOVED_COMPOSER,
        {
            "game_id": str(game.id),
            "seat": move.seat,
            "move_numbers": [m.number for m in moves],
            # Views, never the state. As JSON text: PostgreSQL's jsonb would reorder their
            # keys, and some orders are the order shown (Piratz's cubes, a card's treasures).
            "table_view_json": json.dumps(game.rules.view(game.load_state(), move.seat)),
            "table_before_json": None if table_before is None else json.dumps(table_before),
            # Piratz's blind mode (P23): a collection's cards stay hidden until the end.
            "hidden": game.blind and game.status == GameStatus.ACTIVE,
            "status": game.status,
            "current_seat": game.current_seat,
            "deadline": game.deadline,
            # Seat names say which seats a bot plays ("a careful bot stands in"): as now,
            # not after the stand-in this timeout may bring, nor any later one.
            "bots": [s.bot for s in _seats(game)],
            # Whether a whole round of automatic moves ends the game or brings stand-ins.
            "stand_in_bots": game.stand_in_bots,
            # The one the List-Unsubscribe header holds (its token is timestamped).
            "unsubscribe_link": unsubscribe_url(seat_row.user, EmailKind.AUTO_MOVED),
        },
    )
    return _queue_game_email(game, seat_row.user, prefs, EmailKind.AUTO_MOVED, snapshot)


AUTO_MOVED_COMPOSER = "games.auto_moved"


@composer(AUTO_MOVED_COMPOSER)
def _compose_auto_moved(
    *,
    game_id,
    seat,
    move_numbers,
    table_view_json,
    table_before_json,
    hidden,
    status,
    current_seat,
    deadline,
    bots,
    unsubscribe_link,
    stand_in_bots=None,
) -> dict:
    """The context of ``queue_auto_moved``'s email, as it was when the automatic moves
    ``move_numbers`` had been played for ``seat``: the table as the player saw it then
    (``table_view_json``), what the moves did from ``table_before_json``, collections
    ``hidden`` or not as they were then, the game's ``status``, ``current_seat``,
    ``deadline``, seats' ``bots`` and ``stand_in_bots`` option then; the players' names
    and settings as they are now.

    ``stand_in_bots`` None (a row queued before the snapshot kept it): the game's option,
    which is set when the game is created and never changes.
    """
    game = _game_to_compose(game_id, "auto-moved")
    # The game as it was just after the moves, on this unsaved instance and its seats only.
    game.status, game.current_seat, game.deadline = status, current_seat, deadline
    if stand_in_bots is not None:
        game.stand_in_bots = stand_in_bots
    for row in _seats(game):
        row.bot = bots[row.seat]
    rules = game.rules
    moves = Move.objects.filter(game=game, number__in=move_numbers).order_by("number")
    # With who played them: a moderator forcing the move (rules P24) is told so, not that
    # the deadline passed.
    entries = [{**m.public_entry(rules), "actor": m.actor} for m in moves]
    seat_row = _seat(game, seat)
    assert seat_row.user is not None  # auto-move emails are queued for people only
    table_view = json.loads(table_view_json)
    context = game_email_context(game, seat_row, settings_for(seat_row.user), table_view=table_view)
    table_before = None if table_before_json is None else json.loads(table_before_json)
    names = Names(context["names"], seat, context.get("people"))
    context.update(
        words_for(game.game).describe_auto_moved(entries, table_before, names, rules, hidden=hidden)
    )
    context["abandon_note"] = _abandon_note(game, context["notes"])
    # Forced by a moderator before the deadline (their name is never told).
    context["by_moderator"] = any(entry["actor"] == Actor.MODERATOR for entry in entries)
    return _with_footer(context, unsubscribe_link)


def _abandon_note(game: Game, notes: dict) -> str:
    """What a whole round of automatic moves would do to ``game`` (rules P25, R36), as the
    "we moved for you" email ends: the game ends (``notes["abandon"]``), or with stand-in
    bots on, bots take over the seats (``notes["abandon_stand_in"]``); nothing once the
    game is over (these very moves may have ended it), as there is no end to come."""
    if game.status != GameStatus.ACTIVE:
        return ""
    return notes["abandon_stand_in"] if game.stand_in_bots else notes["abandon"]


def queue_game_started(game: Game) -> list[OutboundEmail]:
    """Tell every player the game has started: who plays, in which order, who begins."""
    queued = []
    for seat_row in _people(game):
        assert seat_row.user is not None  # _people: the seats with a person
        prefs = settings_for(seat_row.user)
        if not prefs.wants(EmailKind.GAME_STARTED):
            continue
        with translation.override(language_of(seat_row.user)):
            context = game_email_context(game, seat_row, prefs)
            email = _queue_game_email(game, seat_row.user, prefs, EmailKind.GAME_STARTED, context)
            if email is not None:  # None: by push alone
                queued.append(email)
    return queued


def queue_game_over(game: Game) -> list[OutboundEmail]:
    """Tell every player the game is over: the final table, scores and winners.

    Every card is public once the game is over (rules P23), blind mode included.

    Each email is composed when it is sent (``_compose_game_over``, in the worker), not
    here: the move that ends a game composed up to four of them (the table and the
    result put in words, a signed link each) under the game's row lock, which made it
    the slowest move by far (13 ms of CPU against 4-6 ms for the others: the API
    benchmark's POST p99). The snapshot holds only the game, the seat, the version that
    ended it and the header's unsubscribe link, because a finished game never changes
    again: no action takes a game out of ``finished`` nor changes its state, result,
    seats or version (each of ``games.actions`` wants the game active or invited; the
    admin's game rows are read-only). The composer checks that it is still so. Names and
    settings are the players' when it is sent, as for the turn email.
    """
    queued = []
    for seat_row in _people(game):
        assert seat_row.user is not None  # _people: the seats with a person
        prefs = settings_for(seat_row.user)
        if not prefs.wants(EmailKind.GAME_OVER):
            continue
        snapshot = Composed(
            GAME_OVER_COMPOSER,
            {
                "game_id": str(game.id),
                "seat": seat_row.seat,
                # The version that ended it: what the composer checks the game is still at.
                "version": game.version,
                # The one the List-Unsubscribe header holds (its token is timestamped).
                "unsubscribe_link": unsubscribe_url(seat_row.user, EmailKind.GAME_OVER),
            },
        )
        email = _queue_game_email(game, seat_row.user, prefs, EmailKind.GAME_OVER, snapshot)
        if email is not None:  # None: by push alone
            queued.append(email)
    return queued


GAME_OVER_COMPOSER = "games.game_over"


@composer(GAME_OVER_COMPOSER)
def _compose_game_over(*, game_id, seat, version, unsubscribe_link) -> dict:
    """The context of ``queue_game_over``'s email for ``seat``: the game as it ended at
    ``version`` (which it still is: a finished game does not change), names and settings
    as they are now.

    Raises if the game is no longer the finished game at ``version``: rather no email (it
    fails, for a moderator to see) than one telling another ending.
    """
    game = _game_to_compose(game_id, "game-over")
    if game.status != GameStatus.FINISHED or game.version != version:
        raise ValueError(
            f"game {game_id} is {game.status} at version {game.version}, not the game that "
            f"finished at version {version}: its game-over email cannot be composed"
        )
    seat_row = _seat(game, seat)
    assert seat_row.user is not None  # game-over emails are queued for people only
    # table_view: a game a resignation ended has the service's result (P26, R37).
    view = game.table_view(seat)
    assert view is not None  # a finished game has a state
    context = game_email_context(game, seat_row, settings_for(seat_row.user), table_view=view)
    names = Names(context["names"], seat, context.get("people"))
    context["result"] = words_for(game.game).describe_result(view["result"], names)
    # A reader who shares the win reads "you share the win with Anna and Bert", not their
    # own "You" in the list of winners.
    winners = view["result"].get("winners", [])
    context["co_winners"] = [names.name(s) for s in winners if s != seat] if seat in winners else []
    # "Play again" is a button on the game's page (a POST: an email's link cannot be one).
    context["play_again_link"] = settings.SITE_URL + reverse("games:game", args=[game.id])
    return _with_footer(context, unsubscribe_link)


def queue_game_ended(game: Game) -> list[OutboundEmail]:
    """Tell the players a game ended without a result: aborted by a moderator, abandoned
    under rules P25 (a whole round of automatic moves), or because a player deleted their
    account and no other person was left (``end_reason`` erased)."""
    queued = []
    for seat_row in _people(game):
        if seat_row.declined_at is not None:
            continue
        assert seat_row.user is not None  # _people: the seats with a person
        prefs = settings_for(seat_row.user)
        if not prefs.wants(EmailKind.GAME_ENDED):
            continue
        with translation.override(language_of(seat_row.user)):
            context = game_email_context(game, seat_row, prefs, with_table=False)
            context["abandoned"] = game.end_reason == EndReason.ABANDONED
            context["erased"] = game.end_reason == EndReason.ERASED
            email = _queue_game_email(game, seat_row.user, prefs, EmailKind.GAME_ENDED, context)
            if email is not None:  # None: by push alone
                queued.append(email)
    return queued


def queue_stand_in(game: Game, seat_row: Seat, *, why: str) -> OutboundEmail | None:
    """Tell the player of ``seat_row`` that a bot now plays their seat (``games.bots``),
    why (``why``: timeouts, abandonment or moderator) and how to take it back.

    Always sent (like an invitation, it is about the player's own seat); in the player's
    language, with their signed game link.
    """
    user = seat_row.user
    if user is None:
        return None
    prefs = settings_for(user)
    with translation.override(language_of(user)):
        context = game_email_context(game, seat_row, prefs, with_table=False)
        level = level_word(seat_row.bot)
        context.update(
            why=why,
            level=level,
            # The game's own sentence: a bot instead of its abandonment rule (P25, R36).
            abandonment=context["notes"]["stand_in_abandonment"]
            % {"others": ", ".join(context["others"]), "level": level},
            timeouts=settings.STAND_IN_AFTER_TIMEOUTS,
            settings_link=settings_url(),
        )
        return queue_email(
            user.email,
            "stand_in",
            context,
            topic=f"game:{game.id}",
            language=language_of(user),
        )


def queue_resigned(
    game: Game, resigned: Seat, *, chair_passed: bool = False
) -> list[OutboundEmail]:
    """Tell the other players (not bots, not the one who resigned) that ``resigned``'s
    player resigned and a bot plays that seat to the end (P26, a game of three or four
    that goes on); queued in the resignation's transaction. ``chair_passed``: they held
    the host's chair, and the email says who holds it now (``games.chair``).

    Always sent, like ``queue_clock_changed``: it changes the table everyone plays at. In
    each player's language, with their signed link.
    """
    assert resigned.user is not None  # only a person resigns
    holder = chair_seat(game, _seats(game)) if chair_passed else None
    queued = []
    for seat_row in _people(game):
        if seat_row.seat == resigned.seat:
            continue
        assert seat_row.user is not None  # _people: the seats with a person
        prefs = settings_for(seat_row.user)
        with translation.override(language_of(seat_row.user)):
            context = game_email_context(game, seat_row, prefs, with_table=False)
            names = context["names"]
            context.update(
                resigned=str(resigned.user.public_name),
                # "Anna resigned from your game with Carla": not Anna twice.
                others=[n for i, n in enumerate(names) if i not in (seat_row.seat, resigned.seat)],
                level=level_word(resigned.bot) if resigned.bot else "",
                settings_link=settings_url(),
                chair_passed=chair_passed,
                chair=_holder_name(holder),
                chair_yours=holder is not None and holder.seat == seat_row.seat,
            )
            queued.append(
                queue_email(
                    seat_row.user.email,
                    "resigned",
                    context,
                    topic=f"game:{game.id}",
                    language=language_of(seat_row.user),
                )
            )
    return queued


def queue_clock_changed(
    game: Game,
    event: str,
    *,
    reason: str = "",
    hours: int | None = None,
    automatic: bool = False,
    left: bool = False,
    holder: Seat | None = None,
) -> list[OutboundEmail]:
    """Tell every player (not bots) that the host paused the game's clock (``event``
    "paused"), that it runs again ("resumed": the host's call, ``automatic``: by itself
    after ``PAUSE_MAX_DAYS``, or ``left``: the player who paused it left the game and
    ``holder`` holds the chair now) or that the host gave the turn ``hours`` more
    ("extended"). "The host" is whoever holds the host's chair (``games.chair``).

    Always sent, like ``queue_stand_in``: it changes every player's clock. ``reason`` is
    the host's own words (plain text; the templates escape it). In each player's
    language and zone, with their signed link.
    """
    host = holder if left else chair_seat(game, _seats(game))
    queued = []
    for seat_row in _people(game):
        assert seat_row.user is not None  # _people: the seats with a person
        prefs = settings_for(seat_row.user)
        with translation.override(language_of(seat_row.user)):
            context = game_email_context(game, seat_row, prefs, with_table=False)
            context.update(
                event=event,
                host=_holder_name(host),
                reason=reason,
                hours=hours,
                automatic=automatic,
                left=left,
                paused_until=format_moment(game.paused_until, prefs.zone),
                settings_link=settings_url(),
            )
            queued.append(
                queue_email(
                    seat_row.user.email,
                    "clock_changed",
                    context,
                    topic=f"game:{game.id}",
                    language=language_of(seat_row.user),
                )
            )
    return queued


def queue_digest(user, games) -> bool:
    """Queue one digest email listing the ``games`` that wait for ``user``'s move.

    Lists only active games whose current player is ``user``, each with its game's name,
    its deadline in the user's time zone and its signed link, then what happens when a
    deadline passes in each kind of game listed (the game's words). Returns False (and
    queues nothing) when there is nothing to list or the user does not want digests.
    """
    prefs = settings_for(user)
    if not prefs.wants(EmailKind.DIGEST):
        return False
    with translation.override(language_of(user)):
        return _queue_digest(user, games, prefs)


def _queue_digest(user, games, prefs) -> bool:
    waiting, deadline_notes = [], {}
    for game in games:
        seat_row = next((s for s in _seats(game) if s.user_id == user.id), None)
        if game.status != GameStatus.ACTIVE or seat_row is None:
            continue
        if game.current_seat != seat_row.seat:
            continue
        waiting.append(
            {
                "game": game.game,
                "game_name": game.rules.NAME,
                "others": [s.public_name for s in _seats(game) if s.user_id != user.id],
                "deadline": format_moment(game.deadline, prefs.zone),
                "deadline_at": game.deadline,
                "link": game_entry_url(game, user),
                "talk": talk_since(game, seat_row.seat),
            }
        )
        if game.game not in deadline_notes:
            deadline_notes[game.game] = _notes(game)["digest"]
    if not waiting:
        return False
    waiting.sort(key=lambda item: item["deadline_at"])
    # One sentence per kind of game listed, most urgent first; a digest of one kind of game
    # names it in the subject, one of several names the game before each sentence.
    notes: dict[str, dict[str, str]] = {}
    for item in waiting:
        notes.setdefault(
            item["game"], {"game_name": item["game_name"], "text": deadline_notes[item["game"]]}
        )
    unsubscribe = unsubscribe_url(user, EmailKind.DIGEST)
    context = _with_footer(
        {
            "name": user.public_name,
            "game_name": waiting[0]["game_name"] if len(notes) == 1 else "",
            "deadline_notes": list(notes.values()),
            "games": waiting,
        },
        unsubscribe,
    )
    queue_email(
        user.email,
        EmailKind.DIGEST,
        context,
        topic=f"digest:{user.id}",
        headers=_unsubscribe_headers(unsubscribe),
        language=translation.get_language(),
    )
    return True


def recap(game: Game, seat: int) -> list[str]:
    """Every move by the others since the player at ``seat`` last moved, as sentences.

    Built from the public move log as that player may see it (rules P23: in blind mode
    the entries after their own last move are the ones they see in full), marking
    automatic moves, rat alerts and the end of each round (Piratz), or each strip's
    place and scoring and the strips drawn (Rattenscharf).
    """
    # Up to the game's version: a turn email composed later shows its turn, not the next.
    moves = list(Move.objects.filter(game=game, number__lte=game.version).order_by("number"))
    entries = log_to_describe(game, seat, moves)
    last_own = max((e["number"] for e in entries if e["seat"] == seat), default=0)
    rounds = {move.number: move.round for move in moves}
    seats = _seats(game)
    names = Names([s.public_name for s in seats], seat, [person_name(s) for s in seats])
    current_round = game.round if game.status == GameStatus.ACTIVE else None
    return words_for(game.game).describe_moves(
        entries, names, game.rules, since=last_own, rounds=rounds, current_round=current_round
    )


def _game_to_compose(game_id, email: str) -> Game:
    """The game a composer reads (with its seats, as a move does); raises
    ``Game.DoesNotExist`` when it is gone, naming the ``email`` that cannot be composed."""
    game = game_with_seats(game_id)
    if game is None:
        raise Game.DoesNotExist(f"game {game_id} is gone: its {email} email cannot be composed")
    return game


def _holder_name(holder: Seat | None) -> str:
    """The name of the person holding the host's chair from ``holder`` ("" for nobody)."""
    return "" if holder is None or holder.user is None else str(holder.user.public_name)


def _seats(game: Game) -> list[Seat]:
    return seats_in_order(game)  # those read with the game, else one query


def _people(game: Game) -> list[Seat]:
    # The seats with a person to tell (bots have none; a player a bot stands in for
    # still hears how their game goes). Not an erased account: nobody is left to tell,
    # and ``erased-<id>@invalid`` would only fail.
    return [
        s
        for s in _seats(game)
        if s.user_id is not None and s.user is not None and s.user.erased_at is None
    ]


def _seat(game: Game, seat: int) -> Seat:
    return next(s for s in _seats(game) if s.seat == seat)


def game_email_context(
    game: Game, seat_row: Seat, prefs, *, with_table: bool = True, table_view: dict | None = None
) -> dict:
    """What every game email to ``seat_row``'s player shows: the players, their signed
    link, the deadline in their zone (``prefs``: ``accounts.preferences.settings_for``), the
    game's own notes and the table (as ``table_view`` gives it, by default that seat's
    view of the game's state; none with ``with_table=False``). Only what that seat may
    see; the caller renders it in the player's language (mail-in's answers use it too)."""
    names = [s.public_name for s in _seats(game)]
    assert seat_row.user is not None  # game emails go to people only
    context = {
        "people": [person_name(s) for s in _seats(game)],
        "name": seat_row.user.public_name,
        "game": game.game,
        "game_name": game.rules.NAME,
        "names": names,
        "others": [n for i, n in enumerate(names) if i != seat_row.seat],
        "players": names,
        "seat": seat_row.seat,
        "turn_hours": game.turn_hours,
        # A time bank or daily deadline in words ("" for hours per turn: turn_hours says it).
        "clock": clock_words(game),
        "blind": game.blind,
        "link": game_entry_url(game, seat_row.user),
        "deadline": format_moment(game.deadline, prefs.zone),
        "your_turn": game.status == GameStatus.ACTIVE and game.current_seat == seat_row.seat,
        "table": None,
    }
    context["notes"] = _notes(game)
    if table_view is None and with_table and game.state is not None:
        table_view = game.rules.view(game.load_state(), seat_row.seat)
    if with_table and table_view is not None:
        context["table"] = words_for(game.game).describe_table(
            table_view, Names(names, seat_row.seat, context["people"])
        )
    return context


def _notes(game: Game) -> dict:
    """The game's own sentences in the emails (``games.describe``: ``email_notes``), in the
    active language. Every game's emails are one set of templates (``emails/<kind>/``):
    they name the game (``game_name``), say these, and draw the table and result with
    ``emails/<game>/_table`` and ``_result``."""
    return words_for(game.game).email_notes(**game.rules_options())


def _unsubscribe_headers(unsubscribe: str) -> dict[str, str]:
    # RFC 8058: mail clients offer a one-click "unsubscribe" that POSTs to this address.
    return {
        "List-Unsubscribe": f"<{unsubscribe}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }


def _with_footer(context: dict, unsubscribe: str) -> dict:
    """``context`` with the links every game email ends with (``unsubscribe``: its kind's)."""
    return {**context, "unsubscribe_link": unsubscribe, "settings_link": settings_url()}


def _queue_game_email(
    game: Game,
    user,
    prefs,
    kind: str,
    context: dict | Composed,
    *,
    reply_to: str | None = None,
    not_before: datetime | None = None,
    send_check: SendCheck | None = None,
) -> OutboundEmail | None:
    """Queue ``kind`` for ``user`` about ``game`` with the unsubscribe headers (and
    ``reply_to``); the quiet kinds wait for the end of quiet hours, any email for
    ``not_before`` too; ``send_check`` is asked when it is due (``queue_email``).

    Where the person's channel for ``kind`` says push or both (``NotificationSettings.
    channel``), a push message goes too, due and checked alike (``games.news_channels``);
    with push alone no email (None), unless no push could be queued (no device): then
    the email goes all the same."""
    if isinstance(context, Composed):
        # It adds the footer itself (``_with_footer``) when it is built, with this link.
        unsubscribe = context.arguments["unsubscribe_link"]
    else:
        unsubscribe = unsubscribe_url(user, kind)
        context = _with_footer(context, unsubscribe)
    send_after = prefs.quiet_until(timezone.now()) if kind in QUIET_KINDS else None
    if not_before is not None:
        send_after = not_before if send_after is None else max(send_after, not_before)
    channel = prefs.channel(kind)
    if channel != Channel.EMAIL:
        pushed = queue_elsewhere(game, user, kind, not_before=send_after, send_check=send_check)
        if pushed and channel == Channel.PUSH:
            return None
    headers = _unsubscribe_headers(unsubscribe)
    if reply_to:
        headers["Reply-To"] = reply_to
    return queue_email(
        user.email,
        kind,
        context,
        topic=f"game:{game.id}",
        send_after=send_after,
        headers=headers,
        language=language_of(user),
        send_check=send_check,
    )
