"""What a webhook post says: public information only, shaped for Discord, Slack or JSON.

A chat channel is a record anyone in it can scroll back through, so a post says no more
than a spectator at the table may know, and in a blind game still being played less:
the move is reduced as rules P23 reduces old log entries (its kind only, no card), since
a channel keeping every reveal and pass would undo the memory game. Never the draw
order, the shuffle key or a blind collection; the table link is the plain game page,
never a signed entry link (``games.notify.game_entry_url`` signs in: a credential).
"""

from zoneinfo import ZoneInfo

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.languages import language_of
from games.describe import Names, format_moment, words_for
from games.models import Game, GameStatus, Move
from games.movelog import public_log
from games.queries import seats_in_order
from talk.models import Message

from .models import Webhook, WebhookKind

MOVE_APPLIED = "move_applied"
GAME_ENDED = "game_ended"
# The host's clock (games.events.clock_changed's ``event`` -> the post's event).
GAME_PAUSED, GAME_RESUMED, DEADLINE_EXTENDED = "game_paused", "game_resumed", "deadline_extended"
CLOCK_EVENTS = {"paused": GAME_PAUSED, "resumed": GAME_RESUMED, "extended": DEADLINE_EXTENDED}
# A player wrote at the table (talk.events.message_posted).
MESSAGE = "message"
_UTC = ZoneInfo("UTC")


def table_url(game: Game) -> str:
    """The game's page: it asks a reader who is not signed in to sign in."""
    return settings.SITE_URL + reverse("games:game", args=[game.id])


def event_data(
    game: Game, event: str, move: Move | None = None, *, message: Message | None = None
) -> dict:
    """The ``json`` kind's body: the event and the game as everyone may see it now; for
    a ``message`` event also ``"message"``: who wrote what, as the players read it."""
    names = [seat.public_name for seat in _seats(game)]
    to_move = game.current_seat if game.status == GameStatus.ACTIVE else None
    data = {
        "event": event,
        "game_id": str(game.id),
        "game": game.game,
        "status": game.status,
        "version": game.version,
        "round": game.round,
        "blind": game.blind,
        "players": [{"seat": seat, "name": name} for seat, name in enumerate(names)],
        "seat_to_move": to_move,
        "player_to_move": None if to_move is None else names[to_move],
        "deadline": _iso(game.deadline) if to_move is not None else None,
        "table_url": table_url(game),
        "move": None,
        "end_reason": game.end_reason or None,
        "result": None,
        "paused": game.is_paused,
        "paused_until": _iso(game.paused_until),
    }
    if move is not None:
        hidden = game.blind and game.status == GameStatus.ACTIVE
        entry = move.public_entry(game.rules, reduced=hidden)
        # Who played it ("player", "service": the deadline passed, "moderator", "bot"): the
        # chat line says a moderator's forced move was not the deadline (games.describe).
        data["move"] = {**entry, "at": _iso(entry["at"]), "actor": move.actor}
    if message is not None:
        # Plain text as written: each receiver escapes it for where it shows it (Slack's
        # escaping and Discord's no-pings below; a program's own).
        data["message"] = {
            "id": message.pk,
            "seat": message.seat,
            "name": str(message.author.public_name),
            "text": message.text,
            "at": _iso(message.created_at),
        }
    if game.status == GameStatus.FINISHED:
        data["result"] = game.result  # the engine's public result (everything is shown then)
    return data


def body_for(webhook: Webhook, data: dict, game: Game) -> dict:
    """The JSON body posted to ``webhook`` for ``data`` (``event_data``), in its owner's
    language for the chat kinds."""
    if webhook.kind == WebhookKind.JSON:
        return data
    with translation.override(language_of(webhook.owner)):
        text = summary(data, game)
    if webhook.kind == WebhookKind.DISCORD:
        # No pings: a player named "@everyone" must not notify the whole server.
        return {"content": text[:2000], "allowed_mentions": {"parse": []}}
    return {"text": _slack_escape(text)}


def summary(data: dict, game: Game) -> str:
    """One short paragraph for a chat: what happened, who is to move, the link."""
    names = Names([player["name"] for player in data["players"]])
    words = words_for(game.game)
    lines = []
    title = words.chat_title(data["game_id"][:8])
    move = data["move"]
    if move is not None:
        # The moves before it, where the game's sentence depends on the board (Rattenscharf:
        # a strip's level and scoring). Public: the spectator's log (a blind Piratz game
        # needs none, its sentence is the entry's own).
        history = (
            [e for e in public_log(game, None) if e["number"] < move["number"]]
            if words.NEEDS_HISTORY
            else ()
        )
        lines.append(f"{title}: {words.describe_entry(move, names, game.rules, history=history)}")
    else:
        lines.append(title + ":")
    if data["event"] == MESSAGE:
        said = data["message"]
        lines.append(_("%(name)s at the table: %(text)s") % said)
        lines.append(data["table_url"])
        return "\n".join(lines)
    if data["event"] == GAME_PAUSED:
        lines.append(_("The host has paused the game: the clock stands still."))
    elif data["event"] == GAME_RESUMED:
        lines.append(_("The game's clock runs again."))
    elif data["event"] == DEADLINE_EXTENDED:
        lines.append(_("The host has given the turn more time."))
    if data["event"] == GAME_ENDED:
        if data["status"] == GameStatus.FINISHED:
            lines.append(words.result_line(data["result"] or {}, names))
        else:
            lines.append(_("The game has ended without a result."))
    elif data["seat_to_move"] is not None and data["event"] != GAME_PAUSED:
        text = _("Now it is %(name)s's turn.") % {"name": data["player_to_move"]}
        if game.deadline is not None:
            text += " " + _("Deadline: %(deadline)s.") % {
                "deadline": format_moment(game.deadline, _UTC)
            }
        lines.append(text)
    lines.append(data["table_url"])
    return "\n".join(lines)


def _slack_escape(text: str) -> str:
    # Slack's mrkdwn reads <...> as links and mentions (<!channel>): escape as Slack asks.
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _iso(moment) -> str | None:
    return None if moment is None else moment.astimezone(_UTC).isoformat().replace("+00:00", "Z")


def _seats(game: Game):
    return seats_in_order(game)
