"""One handler for every inbound email: check it, play the move it names, answer by email.

Both ways mail arrives send anymail's ``inbound`` signal with an ``AnymailInboundMessage``:
the provider's webhook (``mailin.views``, signature checked by anymail) and ``manage.py
receive_email`` (a mail server's pipe). Both have refused what is too big to parse
(``mailin.intake.read_raw``). ``handle_message`` then, in this order:

1. raises ``UnreadableMessage`` for a message it cannot read within bounds (too many
   parts or headers, not exactly one sender address: ``mailin.intake``);
2. drops auto-replies (vacation responders, bounces, lists): answering them loops;
3. drops a message with no valid reply token among its first recipients;
4. drops it when the sender is not the address of the token's player (a forged or
   forwarded reply);
5. drops it past ``MAILIN_PER_ADDRESS_PER_HOUR`` messages from that player, or when it is
   a copy of a message of theirs already handled (same Message-ID);
6. posts each line the player wrote beginning ``say `` / ``sag `` as a table-talk message
   (``talk.actions.post_message``, each on its own: a refused one loses no other, nor the
   move); then parses the first other line the player wrote, if any, and plays it with
   ``do_play_move`` at the token's version, so a reply to an old email is refused, never
   applied to a newer state (a reply of say-lines only plays nothing and is refused nothing);
7. answers the player: the move played and the new table, or why not and what is legal,
   and each message posted or why not.

Dropped messages get no answer (no backscatter to forged senders) and one log line, with
the sender masked and never the token; the doors log unreadable ones and tell their
sender not to retry. Other errors propagate: the webhook answers 500 and the provider
retries; the pipe command exits with EX_TEMPFAIL when the error is transient (database or
cache down), and the mail server retries.
"""

import hashlib
import logging
import re
from enum import StrEnum

from anymail.inbound import AnymailInboundMessage
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.languages import language_of
from accounts.models import User, normalize_email
from accounts.throttling import add_to_counter
from core.errors import ServiceError
from core.redaction import mask_email
from games.actions import do_play_move
from games.models import Move, Seat
from games.reply_tokens import read_reply_addresses
from talk.actions import post_message

from .answers import parse_error_detail, queue_answer, refusal_detail
from .intake import body_text, check_message, message_id_of, recipients_of, sender_of
from .parser import MoveParseError, command_line, parse_move, say_lines

logger = logging.getLogger(__name__)

DUPLICATE_DAYS = 7
_AUTO_SUBJECT_RE = re.compile(
    r"^\s*(auto:|automatic reply|auto-?reply|autoresponse|out of (the )?office|vacation|"
    r"abwesenheit|automatische antwort|urlaub|undeliver|delivery status notification|"
    r"mail delivery failed|returned mail)",
    re.IGNORECASE,
)
_ROBOT_SENDER_RE = re.compile(r"^(mailer-daemon|postmaster|no-?reply)@", re.IGNORECASE)


class Outcome(StrEnum):
    """What ``handle_message`` did with one email."""

    PLAYED = "played"
    REFUSED = "refused"  # answered: why not, and what is legal now
    TALKED = "talked"  # say-lines only, no move: answered with each message posted or not
    AUTO_REPLY = "auto_reply"
    NO_TOKEN = "no_token"
    RATE_LIMITED = "rate_limited"
    WRONG_SENDER = "wrong_sender"
    DUPLICATE = "duplicate"


def on_inbound(sender, event, esp_name, **kwargs) -> None:
    """Receiver of ``anymail.signals.inbound``: the provider's webhook and the pipe."""
    handle_message(event.message)


def handle_message(message: AnymailInboundMessage) -> Outcome:
    """Handle one inbound email (see the module docstring); what was done.

    Its recipients are the ``envelope_recipient`` the provider or pipe gave, then its
    ``To``, ``Cc``, ``Delivered-To``, ``X-Original-To`` and ``Envelope-To`` headers
    (``mailin.intake.recipients_of``). Raises ``UnreadableMessage`` having done nothing
    and logged nothing (the door logs it).
    """
    check_message(message)
    sender = sender_of(message)
    masked = mask_email(sender)
    if is_auto_reply(message, sender):
        return _dropped(Outcome.AUTO_REPLY, masked)
    token = read_reply_addresses(recipients_of(message))
    if token is None:
        return _dropped(Outcome.NO_TOKEN, masked)
    seat = (
        Seat.objects.select_related("user", "game")
        .filter(game_id=token.game_id, seat=token.seat, user_id=token.user_id)
        .first()
    )
    # The seat was found by its user's id, so it has a user (a bot's own seat has none).
    if seat is None or seat.user is None or not seat.user.is_active:
        return _dropped(Outcome.NO_TOKEN, masked)
    user = seat.user
    if normalize_email(sender) != normalize_email(user.email):
        return _dropped(Outcome.WRONG_SENDER, masked, level=logging.WARNING)
    # Counted only now, per player: counted by the From address before it was checked,
    # anyone holding a reply token of their own could use up another player's allowance
    # with forged mail, and silence their moves by email.
    if not _within_rate(user.id):
        return _dropped(Outcome.RATE_LIMITED, masked, level=logging.WARNING)
    message_id = message_id_of(message)
    duplicate_key = _duplicate_key(user.id, message_id)
    if duplicate_key and not cache.add(duplicate_key, 1, timeout=DUPLICATE_DAYS * 86400):
        return _dropped(Outcome.DUPLICATE, masked)
    try:
        outcome = _play(seat, user, token.version, body_text(message), message_id)
    except BaseException:
        if duplicate_key:  # not handled after all: the retry must not be taken for a copy
            cache.delete(duplicate_key)
        raise
    logger.info("Inbound email from %s: %s, game %s", masked, outcome, seat.game_id)
    return outcome


def _play(seat: Seat, user: User, version: int, body: str, in_reply_to: str) -> Outcome:
    command = command_line(body)
    said = say_lines(body)
    with translation.override(language_of(user)):
        # The messages first, each in its own transaction (post_message's): whatever becomes
        # of the move, they are posted or refused on their own, and the answer says which.
        talk = [_post(seat, user, text) for text in said]
        if said and not command:
            seat.game.refresh_from_db()
            queue_answer(seat.game, seat, command="", talk=talk, in_reply_to=in_reply_to)
            return Outcome.TALKED
        refusal = ""
        if user.is_suspended():
            refusal = _("A moderator has suspended your account, so no move can be played for now.")
        else:
            try:
                action = parse_move(command, seat.game.game)
            except MoveParseError as error:
                refusal = parse_error_detail(error)
        if not refusal and seat.game.version != version:
            # Also when the line repeats the move played from that version: do_play_move
            # would take it for a client's retry and answer with the game; a person who
            # replies to an old email gets told it is old.
            refusal = refusal_detail("stale_version", "")
        if not refusal:
            try:
                with transaction.atomic():
                    game = do_play_move(seat.game_id, user, version, action)
                    move = Move.objects.get(game=game, number=version + 1)
                    queue_answer(
                        game, seat, command=command, move=move, talk=talk, in_reply_to=in_reply_to
                    )
                return Outcome.PLAYED
            except ServiceError as error:
                refusal = refusal_detail(error.code, error.detail)
        seat.game.refresh_from_db()
        queue_answer(
            seat.game, seat, command=command, refusal=refusal, talk=talk, in_reply_to=in_reply_to
        )
    return Outcome.REFUSED


# A message echoed in the answer is cut here (the player has the whole in their reply).
_ECHO_CHARACTERS = 200


def _post(seat: Seat, user: User, text: str) -> dict:
    """Post one say-line's ``text`` as ``user`` at ``seat``'s game: what the answer says
    of it (``text`` as echoed, ``posted``, and ``refusal``: the ServiceError's sentence)."""
    echo = text if len(text) <= _ECHO_CHARACTERS else text[: _ECHO_CHARACTERS - 1] + "…"
    try:
        post_message(seat.game, user, text)
    except ServiceError as error:
        return {"text": echo, "posted": False, "refusal": str(error.detail)}
    return {"text": echo, "posted": True, "refusal": ""}


def is_auto_reply(message: AnymailInboundMessage, sender: str) -> bool:
    """Whether a robot sent ``message`` (from ``sender``): an auto-reply, a bounce or a
    mailing list's copy.

    RFC 3834 ``Auto-Submitted`` (anything but ``no``), the de-facto ``X-Autoreply``,
    ``X-Autorespond`` and ``Precedence: bulk/junk/list/auto_reply``, list headers, a
    delivery report, the null or a daemon's sender, and vacation-style subjects. Reads
    headers ``check_message`` has bounded.
    """
    auto_submitted = (message.get("Auto-Submitted") or "").strip().lower()
    if auto_submitted and auto_submitted != "no":
        return True
    if any(message.get(name) is not None for name in ("X-Autoreply", "X-Autorespond", "List-Id")):
        return True
    precedence = (message.get("Precedence") or "").strip().lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return True
    if message.get_content_type() == "multipart/report":
        return True
    if (message.get("Return-Path") or "").strip() == "<>":
        return True
    return bool(_ROBOT_SENDER_RE.match(sender) or _AUTO_SUBJECT_RE.match(message.subject or ""))


def _within_rate(user_id: int) -> bool:
    """Count one message from the player ``user_id`` (its sender checked); whether it is
    within this hour's allowance."""
    hour = int(timezone.now().timestamp() // 3600)
    taken = add_to_counter(f"mailin:rate:user:{user_id}:{hour}", 1, timeout=2 * 3600)
    return taken <= settings.MAILIN_PER_ADDRESS_PER_HOUR


def _duplicate_key(user_id: int, message_id: str) -> str | None:
    # A provider retrying its webhook, or a mail server delivering twice, sends the same
    # Message-ID: answered once. (do_play_move would not play it twice anyway.) Per player:
    # anyone may write any Message-ID, and one player's must not make another's a "copy".
    if not message_id:
        return None
    digest = hashlib.sha256(message_id.encode()).hexdigest()[:32]
    return f"mailin:seen:{user_id}:{digest}"


def _dropped(outcome: Outcome, masked_sender: str, *, level: int = logging.INFO) -> Outcome:
    logger.log(level, "Inbound email from %s dropped: %s", masked_sender, outcome)
    return outcome
