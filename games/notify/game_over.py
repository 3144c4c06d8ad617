"""The end of a game: the game-over email (the final table, scores and winners, composed
when it is sent) and the one for a game that ended without a result."""

from django.conf import settings
from django.urls import reverse
from django.utils import translation

from accounts.schedule import EmailKind
from games.describe import Names, words_for
from games.models import EndReason, Game, GameStatus
from games.notify import common
from games.notify.recipient import recipient_for
from notifications.models import OutboundEmail
from notifications.rendering import Composed, composer


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
    for seat_row in common.people(game):
        assert seat_row.user is not None  # people: the seats with a person
        recipient = recipient_for(seat_row.user, EmailKind.GAME_OVER)
        if not recipient.wants:
            continue
        snapshot = Composed(
            GAME_OVER_COMPOSER,
            {
                "game_id": str(game.id),
                "seat": seat_row.seat,
                # The version that ended it: what the composer checks the game is still at.
                "version": game.version,
                # The one the List-Unsubscribe header holds (its token is timestamped).
                "unsubscribe_link": recipient.unsubscribe_link,
            },
        )
        email = common.queue_game_email(game, recipient, snapshot)
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
    game = common.game_to_compose(game_id, "game-over")
    if game.status != GameStatus.FINISHED or game.version != version:
        raise ValueError(
            f"game {game_id} is {game.status} at version {game.version}, not the game that "
            f"finished at version {version}: its game-over email cannot be composed"
        )
    seat_row = common.seat_of(game, seat)
    assert seat_row.user is not None  # game-over emails are queued for people only
    # table_view: a game a resignation ended has the service's result (P26, R37).
    view = game.table_view(seat)
    assert view is not None  # a finished game has a state
    zone = recipient_for(seat_row.user, EmailKind.GAME_OVER).zone
    context = common.game_email_context(game, seat_row, zone, table_view=view)
    names = Names(context["names"], seat, context.get("people"))
    context["result"] = words_for(game.game).describe_result(view["result"], names)
    # A reader who shares the win reads "you share the win with Anna and Bert", not their
    # own "You" in the list of winners.
    winners = view["result"].get("winners", [])
    context["co_winners"] = [names.name(s) for s in winners if s != seat] if seat in winners else []
    # "Play again" is a button on the game's page (a POST: an email's link cannot be one).
    context["play_again_link"] = settings.SITE_URL + reverse("games:game", args=[game.id])
    return common.with_footer(context, unsubscribe_link)


def queue_game_ended(game: Game) -> list[OutboundEmail]:
    """Tell the players a game ended without a result: aborted by a moderator, abandoned
    under rules P25 (a whole round of automatic moves), or because a player deleted their
    account and no other person was left (``end_reason`` erased)."""
    queued = []
    for seat_row in common.people(game):
        if seat_row.declined_at is not None:
            continue
        assert seat_row.user is not None  # people: the seats with a person
        recipient = recipient_for(seat_row.user, EmailKind.GAME_ENDED)
        if not recipient.wants:
            continue
        with translation.override(recipient.language):
            context = common.game_email_context(game, seat_row, recipient.zone, with_table=False)
            context["abandoned"] = game.end_reason == EndReason.ABANDONED
            context["erased"] = game.end_reason == EndReason.ERASED
            email = common.queue_game_email(game, recipient, context)
            if email is not None:  # None: by push alone
                queued.append(email)
    return queued
