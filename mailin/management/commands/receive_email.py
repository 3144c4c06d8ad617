"""``manage.py receive_email``: one raw RFC 5322 message on stdin, as a mail server pipes it."""

import logging
import sys

from anymail.signals import AnymailInboundEvent, EventType, inbound
from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import InterfaceError, OperationalError
from django.utils import timezone
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from core.cache_outage import CacheUnavailable
from mailin.intake import UnreadableMessage, log_unreadable, read_raw

logger = logging.getLogger("mailin")

EX_TEMPFAIL = 75  # sysexits.h: the mail server keeps the message and tries again
# What may go away by the mail server's next try: the database or the cache not answering.
TRANSIENT_ERRORS = (
    OperationalError,
    InterfaceError,
    CacheUnavailable,
    RedisConnectionError,
    RedisTimeoutError,
    OSError,
)


class Command(BaseCommand):
    help = (
        "Read one email (raw RFC 5322) from standard input and handle it as a reply to a "
        "turn email. Exits 0 whether the email was played, refused or dropped (the answer, "
        "if any, goes by email; an unreadable or failing one is logged); 75 (EX_TEMPFAIL) "
        "when the database or the cache could not be reached, so the mail server retries."
    )
    # call_command("receive_email", stdin=...) feeds a message in tests and scripts.
    stealth_options = ("stdin",)

    def add_arguments(self, parser):
        parser.add_argument(
            "--recipient",
            default="",
            help="The envelope recipient, if the mail server passes it (Postfix: ${recipient}).",
        )

    def handle(self, *args, recipient="", **options):
        stream = options.get("stdin") or sys.stdin
        raw = getattr(stream, "buffer", stream).read(settings.MAILIN_MAX_MESSAGE_BYTES + 1)
        try:
            message = read_raw(raw)
            message.envelope_recipient = recipient or None
            event = AnymailInboundEvent(
                event_type=EventType.INBOUND,
                timestamp=timezone.now(),
                event_id=None,
                esp_event=raw,
                message=message,
            )
            inbound.send(sender=self.__class__, event=event, esp_name="pipe")
        except UnreadableMessage as error:
            # Exit 0: a retry would read it no better, and a bounce would go to a sender
            # who may be forged.
            log_unreadable(error)
        except TRANSIENT_ERRORS as error:
            # The message is not lost: the mail server queues it and pipes it again.
            logger.exception("receive_email: the message could not be handled now")
            self.stderr.write(f"receive_email: {type(error).__name__}, try again later")
            raise SystemExit(EX_TEMPFAIL) from error
        except Exception:
            # A fault no retry mends (days in the mail server's queue, then a bounce to
            # a sender who may be forged): logged with its traceback, and dropped.
            logger.exception("receive_email: the message could not be handled; dropped")
