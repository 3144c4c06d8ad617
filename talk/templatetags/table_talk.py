"""``{% load table_talk %}{% table_talk game reader_seat %}``: the table talk panel of the
game page (templates/talk/_table_talk.html); ``|indent_continuation``: a message's lines in
a plain-text email.

The game page's templates load this library because games may not import the talk app
(docs/architecture.md "The floors"). One query: the newest ``SHOWN_AT_MOST`` messages with
their writers. A hidden message's text never reaches the page.
"""

from datetime import timedelta

from django import template
from django.utils import timezone

from games.models import Game
from people.blocks import blocked_by
from talk.models import Message

register = template.Library()

# The newest messages shown open; the rest of the SHOWN_AT_MOST unfold (<details>).
NEWEST_OPEN = 5
# A page lists at most this many (the newest); the API pages through them all.
SHOWN_AT_MOST = 100
JUST_NOW = timedelta(minutes=1)


@register.inclusion_tag("talk/_table_talk.html", takes_context=True)
def table_talk(context, game: Game, reader_seat: int | None) -> dict:
    """The panel for the reader at ``reader_seat`` (None: staff without a seat, who read
    but neither write nor report; or a watcher of a public game, who reads the talk only
    when the host opened it, ``Game.talk_public``, and else gets no panel). Newest first,
    each ``{"id", "name", "text", "hidden", "at", "just_now", "own"}``; ``text`` is plain
    (the template escapes it) and "" when hidden."""
    if reader_seat is None and not _is_staff(context) and not game.talk_public:
        return {"shown": False}
    now = timezone.now()
    reader = context.get("user")
    messages = Message.objects.filter(game=game)
    if reader is not None and reader.is_authenticated:
        # Not the messages of people the reader blocked (docs/people.md "Blocking").
        messages = messages.exclude(author_id__in=blocked_by(reader.pk))
    found = list(
        messages.select_related("author").order_by("-created_at", "-id")[: SHOWN_AT_MOST + 1]
    )
    listed = [
        {
            "id": message.pk,
            "name": message.author.public_name,
            "text": "" if message.is_hidden else message.text,
            "hidden": message.is_hidden,
            "at": message.created_at,
            # Under a minute old: "just now", not timesince's "0 minutes ago".
            "just_now": now - message.created_at < JUST_NOW,
            "own": reader_seat is not None and message.seat == reader_seat,
        }
        for message in found[:SHOWN_AT_MOST]
    ]
    return {
        "shown": True,
        "game": game,
        # Told to the players, so nobody writes for spectators without knowing it.
        "spectators_read": game.public and game.talk_public,
        "newest": listed[:NEWEST_OPEN],
        "older": listed[NEWEST_OPEN:],
        "more_than_shown": len(found) > SHOWN_AT_MOST,
        "shown_at_most": SHOWN_AT_MOST,
        "can_write": reader_seat is not None,
        "max_length": Message.MAX_LENGTH,
        # An inclusion tag's template gets only what it returns: the form needs the token.
        "csrf_token": context.get("csrf_token"),
    }


def _is_staff(context) -> bool:
    """Whether the page's reader is staff (the page's request, when it has one)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    return bool(user is not None and user.is_authenticated and user.is_staff)


# How far a message's second and later lines stand in from the start of a plain-text
# email's lines: deeper than any line of the email's own, the list's dash included.
CONTINUATION = "    "


@register.filter
def indent_continuation(text: str) -> str:
    """A message in a plain-text email: each line after its first indented by
    ``CONTINUATION``, so that no line a player typed ("Answer at the table: https://...")
    starts where the email's own lines do and passes for one of them."""
    return ("\n" + CONTINUATION).join(str(text).splitlines())
