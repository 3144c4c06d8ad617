"""``manage.py receive_email``: one raw RFC 5322 message on stdin, as a mail server pipes it."""

import logging
import sys

from anymail.inbound import AnymailInboundMessage
from anymail.signals import AnymailInboundEvent, EventType, inbound
from django.core.management.base import BaseCommand
from django.utils import timezone

MAX_BYTES = 2 * 1024 * 1024
logger = logging.getLogger("mailin")

EX_TEMPFAIL = 75  # sysexits.h: the mail server keeps the message and tries again


class Command(BaseCommand):
    help = (
        "Read one email (raw RFC 5322) from standard input and handle it as a reply to a "
        "turn email. Exits 0 whether the email was played, refused or dropped (the answer, "
        "if any, goes by email); 75 (EX_TEMPFAIL) when it could not be handled now, so the "
        "mail server retries."
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
        raw = getattr(stream, "buffer", stream).read(MAX_BYTES + 1)
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        if len(raw) > MAX_BYTES:
            # Not a reply with a move in its first line; taking it would only cost us.
            self.stderr.write("receive_email: message too large, dropped")
            return
        message = AnymailInboundMessage.parse_raw_mime_bytes(raw)
        message.envelope_recipient = recipient or None
        event = AnymailInboundEvent(
            event_type=EventType.INBOUND,
            timestamp=timezone.now(),
            event_id=None,
            esp_event=raw,
            message=message,
        )
        try:
            inbound.send(sender=self.__class__, event=event, esp_name="pipe")
        except Exception as error:
            # The message is not lost: the mail server queues it and pipes it again.
            logger.exception("receive_email: the message could not be handled now")
            self.stderr.write(f"receive_email: {type(error).__name__}, try again later")
            raise SystemExit(EX_TEMPFAIL) from error
