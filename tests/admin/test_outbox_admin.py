"""The outbox in the admin: resend a failed email with a reason (audited), see every attempt."""

import smtplib

import pytest
from django.urls import reverse

from moderation.models import AuditAction, AuditEntry
from notifications import outbox
from notifications.admin import REDACTED_LINKS_NOTE
from notifications.models import DeliveryAttempt, OutboundEmail

pytestmark = pytest.mark.django_db

Status = OutboundEmail.Status
CHANGELIST = reverse("admin:notifications_outboundemail_changelist")


@pytest.fixture(autouse=True)
def _clock_frozen_before_login(now):
    """Freeze time before the moderator signs in, or the session would be years old."""


@pytest.fixture
def bounced(make_email, mail_server_fails, now, anna):
    """Anna's turn email, refused for good by her mail server: one failed attempt."""
    email = make_email(to=anna.email, body_text="Open http://testserver/accounts/login/abc/")
    mail_server_fails(smtplib.SMTPRecipientsRefused({anna.email: (550, b"Mailbox full")}))
    outbox.send_pending_email(email.id)
    email.refresh_from_db()
    assert email.status == Status.FAILED
    return email


def resend(client, emails, reason="The mail server was fixed.", **extra):
    fields = {"action": "retry_now", "_selected_action": [e.id for e in emails], **extra}
    if reason is not None:
        fields.update(confirm="yes", reason=reason)
    return client.post(CHANGELIST, fields, follow=True)


def test_resend_asks_for_a_reason_first_and_sends_nothing_without_one(
    moderator_client, bounced, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        page = resend(moderator_client, [bounced], reason=None)
        blank = resend(moderator_client, [bounced], reason="   ")

    assert "Reason (required)" in page.content.decode()
    assert REDACTED_LINKS_NOTE in page.content.decode()
    assert blank.context["form"].errors  # asked again
    assert mailoutbox == [] and not AuditEntry.objects.exists()
    bounced.refresh_from_db()
    assert (bounced.status, bounced.attempts) == (Status.FAILED, 1)


def test_resend_with_a_reason_sends_records_the_attempt_and_audits(
    moderator_client, moderator, bounced, anna, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = resend(moderator_client, [bounced])

    shown = [str(message) for message in response.context["messages"]]
    assert "1 of 1 emails will be sent again now." in shown
    assert REDACTED_LINKS_NOTE in shown  # a redacted link cannot be resent live
    assert [message.to for message in mailoutbox] == [[anna.email]]
    assert "[redacted]" in mailoutbox[0].body and "/login/abc/" not in mailoutbox[0].body
    bounced.refresh_from_db()
    assert (bounced.status, bounced.attempts) == (Status.SENT, 2)
    assert list(bounced.deliveries.values_list("outcome", flat=True)) == ["failed", "sent"]
    [entry] = AuditEntry.objects.all()
    assert (entry.action, entry.moderator, entry.target_user) == (
        AuditAction.RESEND_EMAIL,
        moderator,
        anna,
    )
    assert entry.reason == "The mail server was fixed."
    assert entry.extra["email"] == bounced.id


def test_a_sent_email_is_not_resent_nor_audited(
    moderator_client,
    make_email,
    now,
    mailoutbox,
    django_capture_on_commit_callbacks,
):
    sent = make_email(status=Status.SENT, attempts=1, sent_at=now)

    with django_capture_on_commit_callbacks(execute=True):
        response = resend(moderator_client, [sent])

    shown = [str(message) for message in response.context["messages"]]
    assert "0 of 1 emails will be sent again now." in shown
    assert mailoutbox == [] and not AuditEntry.objects.exists()


def test_players_cannot_resend(client, anna, bounced, mailoutbox):
    client.force_login(anna)

    response = client.post(
        CHANGELIST,
        {"action": "retry_now", "_selected_action": [bounced.id], "confirm": "yes", "reason": "x"},
    )

    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert mailoutbox == [] and not AuditEntry.objects.exists()


def test_the_email_page_shows_each_attempt_with_its_masked_error(
    moderator_client,
    bounced,
    anna,
    mail_server_fails,
):
    DeliveryAttempt.objects.create(email=bounced, outcome="retrying", error="421 Busy")

    page = moderator_client.get(
        reverse("admin:notifications_outboundemail_change", args=[bounced.id])
    ).content.decode()

    assert "Mailbox full" in page and "421 Busy" in page
    assert "Failed for good" in page and "Failed, will retry" in page
    history = page[page.index("Attempts (oldest first)") :]
    assert anna.email not in history  # the SMTP refusal named her; stored masked


def test_the_retrying_filter_lists_emails_waiting_for_another_attempt(
    moderator_client,
    make_email,
    now,
):
    waiting = make_email(to="later@example.com", attempts=2)
    make_email(to="new@example.com")  # pending, never tried

    response = moderator_client.get(CHANGELIST, {"delivery": "retrying"})

    assert list(response.context["cl"].result_list) == [waiting]
