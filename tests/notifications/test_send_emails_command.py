"""manage.py send_emails: the outbox sent without a Celery worker."""

import smtplib
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command

from notifications.models import OutboundEmail

pytestmark = pytest.mark.django_db


def test_command_sends_due_emails_and_reports_the_outcomes(
    make_email, mail_server_fails, mailoutbox, now
):
    make_email(to="refused@example.com")
    make_email(to="anna@example.com")
    make_email(to="bob@example.com")
    make_email(to="later@example.com", send_after=now + timedelta(minutes=5))
    mail_server_fails(smtplib.SMTPRecipientsRefused({"refused@example.com": (550, b"unknown")}))
    out = StringIO()

    call_command("send_emails", stdout=out)

    assert out.getvalue().startswith("Sent 2, will retry 0, failed 1,")
    assert sorted(message.to[0] for message in mailoutbox) == [
        "anna@example.com",
        "bob@example.com",
    ]
    assert OutboundEmail.objects.get(to="later@example.com").status == "pending"


def test_command_with_nothing_due_sends_nothing(mailoutbox, db):
    out = StringIO()
    call_command("send_emails", stdout=out)
    assert out.getvalue().startswith("Sent 0,")
    assert mailoutbox == []
