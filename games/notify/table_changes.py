"""News of a change at the table everyone plays at, always sent: a bot stands in for a
player, a player resigned, the host paused, resumed or extended the clock."""

from django.conf import settings
from django.utils import translation

from games.chair import chair_seat
from games.describe import format_moment
from games.models import Game, Seat
from games.notify import common
from games.notify.recipient import recipient_for
from games.seat_names import level_word
from notifications.models import OutboundEmail
from notifications.outbox import queue_email


def queue_stand_in(game: Game, seat_row: Seat, *, why: str) -> OutboundEmail | None:
    """Tell the player of ``seat_row`` that a bot now plays their seat (``games.bots``),
    why (``why``: timeouts, abandonment or moderator) and how to take it back.

    Always sent (like an invitation, it is about the player's own seat); in the player's
    language, with their signed game link.
    """
    if seat_row.user is None:
        return None
    recipient = recipient_for(seat_row.user, "stand_in")
    with translation.override(recipient.language):
        context = common.game_email_context(game, seat_row, recipient.zone, with_table=False)
        level = level_word(seat_row.bot)
        context.update(
            why=why,
            level=level,
            # The game's own sentence: a bot instead of its abandonment rule (P25, R36).
            abandonment=context["notes"]["stand_in_abandonment"]
            % {"others": ", ".join(context["others"]), "level": level},
            timeouts=settings.STAND_IN_AFTER_TIMEOUTS,
            settings_link=recipient.settings_link,
        )
        return queue_email(
            recipient.address,
            "stand_in",
            context,
            topic=f"game:{game.id}",
            language=recipient.language,
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
    holder = chair_seat(game, common.seats(game)) if chair_passed else None
    queued = []
    for seat_row in common.people(game):
        if seat_row.seat == resigned.seat:
            continue
        assert seat_row.user is not None  # people: the seats with a person
        recipient = recipient_for(seat_row.user, "resigned")
        with translation.override(recipient.language):
            context = common.game_email_context(game, seat_row, recipient.zone, with_table=False)
            names = context["names"]
            context.update(
                resigned=str(resigned.user.public_name),
                # "Anna resigned from your game with Carla": not Anna twice.
                others=[n for i, n in enumerate(names) if i not in (seat_row.seat, resigned.seat)],
                level=level_word(resigned.bot) if resigned.bot else "",
                settings_link=recipient.settings_link,
                chair_passed=chair_passed,
                chair=common.holder_name(holder),
                chair_yours=holder is not None and holder.seat == seat_row.seat,
            )
            queued.append(
                queue_email(
                    recipient.address,
                    "resigned",
                    context,
                    topic=f"game:{game.id}",
                    language=recipient.language,
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
    actor_id: int | None = None,
) -> list[OutboundEmail]:
    """Tell every player (not bots) that the host paused the game's clock (``event``
    "paused"), that it runs again ("resumed": the host's call, ``automatic``: by itself
    after ``PAUSE_MAX_DAYS``, or ``left``: the player who paused it left the game and
    ``holder`` holds the chair now) or that the host gave the turn ``hours`` more
    ("extended"). "The host" is whoever holds the host's chair (``games.chair``).

    Always sent, like ``queue_stand_in``: it changes every player's clock; but never to
    ``actor_id``, the person who made the change (they know: they just did it). ``reason``
    is the host's own words (plain text; the templates escape it). In each player's
    language and zone, with their signed link.
    """
    host = holder if left else chair_seat(game, common.seats(game))
    queued = []
    for seat_row in common.people(game):
        assert seat_row.user is not None  # people: the seats with a person
        if seat_row.user_id == actor_id:
            continue
        recipient = recipient_for(seat_row.user, "clock_changed")
        with translation.override(recipient.language):
            context = common.game_email_context(game, seat_row, recipient.zone, with_table=False)
            context.update(
                event=event,
                host=common.holder_name(host),
                reason=reason,
                hours=hours,
                automatic=automatic,
                left=left,
                paused_until=format_moment(game.paused_until, recipient.zone),
                settings_link=recipient.settings_link,
            )
            queued.append(
                queue_email(
                    recipient.address,
                    "clock_changed",
                    context,
                    topic=f"game:{game.id}",
                    language=recipient.language,
                )
            )
    return queued
