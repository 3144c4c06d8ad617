"""The digest: one email listing the games that wait for a person's move."""

from django.utils import translation

from accounts.schedule import EmailKind
from games.describe import format_moment
from games.models import GameStatus
from games.notify import common
from games.notify.links import game_entry_url
from games.notify.recipient import Recipient, recipient_for
from games.table_talk import talk_since
from notifications.outbox import queue_email


def queue_digest(user, games) -> bool:
    """Queue one digest email listing the ``games`` that wait for ``user``'s move.

    Lists only active games whose current player is ``user``, each with its game's name,
    its deadline in the user's time zone and its signed link, then what happens when a
    deadline passes in each kind of game listed (the game's words). Returns False (and
    queues nothing) when there is nothing to list or the user does not want digests.
    """
    recipient = recipient_for(user, EmailKind.DIGEST)
    if not recipient.wants:
        return False
    with translation.override(recipient.language):
        return _queue_digest(recipient, games)


def _queue_digest(recipient: Recipient, games) -> bool:
    user = recipient.user
    waiting, deadline_notes = [], {}
    for game in games:
        seat_row = next((s for s in common.seats(game) if s.user_id == user.id), None)
        if game.status != GameStatus.ACTIVE or seat_row is None:
            continue
        if game.current_seat != seat_row.seat:
            continue
        waiting.append(
            {
                "game": game.game,
                "game_name": game.rules.NAME,
                "others": [s.public_name for s in common.seats(game) if s.user_id != user.id],
                "deadline": format_moment(game.deadline, recipient.zone),
                "deadline_at": game.deadline,
                "link": game_entry_url(game, user),
                "talk": talk_since(game, seat_row.seat),
            }
        )
        if game.game not in deadline_notes:
            deadline_notes[game.game] = common.notes(game)["digest"]
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
    unsubscribe = recipient.unsubscribe_link
    context = common.with_footer(
        {
            "name": user.public_name,
            "game_name": waiting[0]["game_name"] if len(notes) == 1 else "",
            "deadline_notes": list(notes.values()),
            "games": waiting,
        },
        unsubscribe,
    )
    queue_email(
        recipient.address,
        EmailKind.DIGEST,
        context,
        topic=f"digest:{user.id}",
        headers=common.unsubscribe_headers(unsubscribe),
        language=translation.get_language(),
    )
    return True
