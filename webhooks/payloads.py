"""What a webhook post says: public information only, shaped for Discord, Slack or JSON.

A chat channel is a record anyone in it can scroll back through, so a post says no more
than a spectator at the table may know, and in a blind game still being played less:
the move is reduced as rules P23 reduces old log entries (its kind only, no card), since
a channel keeping every reveal and pass would undo the memory game. Never the draw
order, the shuffle key or a blind collection; the table link is the plain game page,
never a signed entry link (``games.notify.links.game_entry_url`` signs in: a credential).
"""

import re
from collections.abc import Callable
from dataclasses import dataclass
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
from games.seat_names import full_name, person_name, seat_role
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
# Discord's message flag that shows no preview card of a link: a person's link must not
# come with a title and picture of its site's choosing ("Your login link").
_SUPPRESS_EMBEDS = 1 << 2
# The most of a person's message a chat post repeats, as shown (escaped, quoted): with the
# service's own lines and the link the post stays within Discord's 2000 characters.
SAID_AT_MOST = 1500


@dataclass(frozen=True)
class ChatMarkup:
    """How a chat shows text people typed (names, table talk) as nothing but text:
    ``escape`` turns its markup in a piece into plain characters, and each line of a
    person's text on several lines starts with ``quote``, so no line of theirs can pass
    for one of the service's ("Now it is Anna's turn.")."""

    escape: Callable[[str], str]
    quote: str


# Discord's markdown: a backslash before any of these shows it as it is. Emphasis,
# strikethrough, spoilers and code (* _ ~ | `), masked links ([text](url): "[Your login
# link](https://evil.example)"), mentions, channels and timestamps (<@1>, @everyone), and
# what starts a quote, heading, list or subtext line (> # -).
_DISCORD_MARKUP = re.compile(r"([\\*_~|`\[\]<>@#-])")
DISCORD = ChatMarkup(escape=lambda text: _DISCORD_MARKUP.sub(r"\\\1", text), quote="> ")
# Slack's mrkdwn is escaped as a whole (``_slack_escape``: & < >, so no <url|text> link
# nor <!channel> mention); it has no escape for emphasis (* _ ~ `), which can style words
# but neither link, mention nor start a line.
SLACK = ChatMarkup(escape=lambda text: text, quote="> ")


def table_url(game: Game) -> str:
    """The game's page: it asks a reader who is not signed in to sign in."""
    return settings.SITE_URL + reverse("games:game", args=[game.id])


def event_data(
    game: Game, event: str, move: Move | None = None, *, message: Message | None = None
) -> dict:
    """The ``json`` kind's body: the event and the game as everyone may see it now; for
    a ``message`` event also ``"message"``: who wrote what, as the players read it."""
    seats = list(_seats(game))
    # ``name`` as the API's seat name (it says a bot's level); the short label the pages
    # show and the seat's role beside it (docs/webhooks.md).
    names = [full_name(seat) for seat in seats]
    players = [
        {
            "seat": seat.seat,
            "name": full_name(seat),
            "label": str(seat.public_name),
            "role": seat_role(seat),
        }
        for seat in seats
    ]
    to_move = game.current_seat if game.status == GameStatus.ACTIVE else None
    data = {
        "event": event,
        "game_id": str(game.id),
        "game": game.game,
        "status": game.status,
        "version": game.version,
        "round": game.round,
        "blind": game.blind,
        "players": players,
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
        # Plain text as written: each receiver escapes it for where it shows it (the
        # chats' markup below, ``ChatMarkup``; a program's own).
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
    markup = DISCORD if webhook.kind == WebhookKind.DISCORD else SLACK
    with translation.override(language_of(webhook.owner)):
        text = summary(data, game, markup)
    if webhook.kind == WebhookKind.DISCORD:
        # No pings: a player named "@everyone" must not notify the whole server; no
        # preview cards: a link in table talk shows as the address it is.
        return {
            "content": text[:2000],
            "allowed_mentions": {"parse": []},
            "flags": _SUPPRESS_EMBEDS,
        }
    return {"text": _slack_escape(text), "unfurl_links": False, "unfurl_media": False}


def summary(data: dict, game: Game, markup: ChatMarkup) -> str:
    """One short paragraph for a chat: what happened, who is to move, the link. Whatever
    people typed (names, table talk) is shown through ``markup``: as text, never as the
    chat's formatting, links or mentions, and never as a line of the service's own."""
    # The short labels ("Bert · resigned"), and the people's own names for the sentences
    # that say the note themselves ("Bert resigned.", "Now it is Carla's turn.").
    people = [_name(person_name(seat), markup) for seat in _seats(game)]
    names = Names([_name(player["label"], markup) for player in data["players"]], None, people)
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
        name = _name(said["name"], markup)
        written = [markup.escape(line) for line in said["text"].splitlines() if line.strip()]
        if len(written) <= 1:
            one_line = _at_most("".join(written))
            lines.append(_("%(name)s at the table: %(text)s") % {"name": name, "text": one_line})
        else:
            # Several lines: each in the chat's quote, below the service's line that says
            # who wrote them (blank ones left out: in Discord one would end the quote).
            lines.append(_("%(name)s at the table:") % {"name": name})
            lines.extend(markup.quote + line for line in _lines_at_most(written))
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
        text = _("Now it is %(name)s's turn.") % {"name": names.person(data["seat_to_move"])}
        if game.deadline is not None:
            text += " " + _("Deadline: %(deadline)s.") % {
                "deadline": format_moment(game.deadline, _UTC)
            }
        lines.append(text)
    lines.append(data["table_url"])
    return "\n".join(lines)


def _name(name: str, markup: ChatMarkup) -> str:
    # A name is one line (core.text); runs of spaces are made one all the same, for a name
    # from before the rule.
    return markup.escape(" ".join(str(name).split()))


def _at_most(text: str) -> str:
    return text if len(text) <= SAID_AT_MOST else text[: SAID_AT_MOST - 1] + "…"


def _lines_at_most(lines: list[str]) -> list[str]:
    """``lines`` as far as ``SAID_AT_MOST`` characters go, each counted with its quote and
    line break; the last one cut with "…" where they end early."""
    kept: list[str] = []
    room = SAID_AT_MOST
    for line in lines:
        if len(line) + 3 > room:
            kept.append(line[: max(room - 4, 0)] + "…")
            break
        kept.append(line)
        room -= len(line) + 3
    return kept


def _slack_escape(text: str) -> str:
    # Slack's mrkdwn reads <...> as links and mentions (<!channel>): escape as Slack asks.
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _iso(moment) -> str | None:
    return None if moment is None else moment.astimezone(_UTC).isoformat().replace("+00:00", "Z")


def _seats(game: Game):
    return seats_in_order(game)
