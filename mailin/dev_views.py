"""The local mailbox's reply form (DEBUG only): a move played by email with no mail server.

Under `make run` game emails carry a Reply-To of ``play+<token>@localhost`` (the DEBUG
default of REPLY_DOMAIN). The mailbox (``notifications.dev_views``) shows a reply form
under each such email; posting it writes the email a player's mail client would (From the
email's recipient, To its Reply-To, threaded under it, the original quoted below the text)
and pipes it into ``manage.py receive_email``, the door a mail server uses. Nothing is
skipped: the bounds, the token, the sender check, the rate limit and the answer email
(which the worker sends into the same mailbox) all happen as for real mail.
"""

import io
from datetime import datetime
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime, getaddresses, make_msgid

from django.contrib import messages
from django.core.management import call_command
from django.db.models import Max
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.views.decorators.http import require_POST

from notifications.dev_views import MailboxEmail, find_email, local_debug_only, mail_directory
from notifications.models import OutboundEmail

from .answers import TEMPLATE as ANSWER_TEMPLATE
from .management.commands.receive_email import EX_TEMPFAIL

MAX_TEXT = 2000  # characters of the reply's own text; a move is one line


def build_reply(original: MailboxEmail, text: str, now: datetime) -> bytes:
    """The raw RFC 5322 reply to ``original`` with ``text`` above it, as a mail client
    writes one: From its recipient, To its mail-in Reply-To, ``Re:`` subject, In-Reply-To
    and References naming it, and the original below a quote header, each line ``> ``."""
    message = EmailMessage(policy=SMTP)
    message["From"] = original.to
    message["To"] = original.mailin_reply_to
    subject = original.subject
    message["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    message["Date"] = format_datetime(now)
    message["Message-ID"] = make_msgid(domain="mailbox.localhost")
    if original.message_id:
        message["In-Reply-To"] = original.message_id
        message["References"] = f"{original.references} {original.message_id}".strip()
    when = format_datetime(original.sent_at) if original.sent_at else "an earlier day"
    quoted = "\n".join(f"> {line}" if line else ">" for line in original.body.splitlines())
    text = text.replace("\r\n", "\n").strip()
    message.set_content(f"{text}\n\nOn {when}, {original.sender} wrote:\n{quoted}\n")
    return message.as_bytes()


@local_debug_only
@require_POST
def mailbox_reply(request: HttpRequest) -> HttpResponse:
    """Reply to the mailbox's email whose Message-ID is posted, with the posted text.

    The email is looked up in the mailbox (its sender and Reply-To come from the file,
    never the form); the reply goes through ``receive_email``; back to the mailbox with a
    message saying whether mail-in answered (its answer is an email like any other) or
    dropped the reply unanswered, as it drops forged and stale mail. Guarded as the mailbox
    (``local_debug_only``), CSRF-checked as every form.
    """
    directory = mail_directory()
    message_id = request.POST.get("message_id", "")
    original = find_email(directory, message_id) if directory is not None else None
    if original is None or not original.mailin_reply_to:
        messages.error(
            request,
            "That email is not in the mailbox any more (it shows the newest 50), or it has "
            "no reply address: nothing was sent.",
        )
        return redirect("dev-mailbox")
    text = request.POST.get("text", "")[:MAX_TEXT]
    raw = build_reply(original, text, timezone.now())
    sender = getaddresses([original.to])[0][1]
    before = OutboundEmail.objects.aggregate(last=Max("id"))["last"] or 0
    try:
        call_command(
            "receive_email",
            stdin=io.BytesIO(raw),
            recipient=original.mailin_reply_to,
            stdout=io.StringIO(),
            stderr=io.StringIO(),
        )
    except SystemExit as stop:
        if stop.code != EX_TEMPFAIL:
            raise
        messages.error(
            request,
            "Mail-in could not take the reply now (the database or the cache did not "
            "answer); a mail server would try again. Send it again in a moment.",
        )
        return redirect("dev-mailbox")
    answered = OutboundEmail.objects.filter(
        id__gt=before, to__iexact=sender, template=ANSWER_TEMPLATE
    ).exists()
    if answered:
        messages.success(
            request,
            f"Your reply went to mail-in as an email from {sender}. Its answer (the move "
            "played, or why not) is the newest email here, or will be in a few seconds once "
            "the worker has sent it: reload the page.",
        )
    else:
        messages.warning(
            request,
            f"Mail-in dropped the reply from {sender} without an answer, as it drops forged, "
            "repeated or too frequent mail (an expired reply address, another sender, more "
            "than MAILIN_PER_ADDRESS_PER_HOUR replies): the web server's log says which.",
        )
    return redirect("dev-mailbox")
