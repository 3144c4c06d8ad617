"""The outbox in the admin: find failures, resend a failed email with a reason (audited), see
every attempt; emails are never added, edited or deleted there."""

import smtplib
from datetime import timedelta

import pytest
from django.urls import reverse

from audit.models import AuditAction, AuditEntry
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


@pytest.fixture
def bounced_email(make_email):
    return make_email(
        to="gone@example.com",
        subject="Invitation to Skull Bay",
        topic="game:0b5e",
        status=Status.FAILED,
        attempts=1,
        last_error="SMTPRecipientsRefused: 550 5.1.1 No such user",
    )


def test_changelist_shows_failures_with_their_error(admin_client, bounced_email, make_email):
    make_email(to="fine@example.com", status=Status.SENT)

    response = admin_client.get(CHANGELIST, {"status__exact": "failed"})

    assert response.status_code == 200
    page = response.content.decode()
    assert "gone@example.com" in page
    assert "550 5.1.1 No such user" in page
    assert "fine@example.com" not in page


def test_search_by_topic_finds_the_emails_of_one_game(admin_client, bounced_email, make_email):
    make_email(to="other@example.com", topic="game:ffff")

    response = admin_client.get(CHANGELIST, {"q": "0b5e"})

    assert list(response.context["cl"].result_list) == [bounced_email]


def test_detail_page_shows_the_email_read_only(admin_client, bounced_email):
    url = reverse("admin:notifications_outboundemail_change", args=[bounced_email.id])

    response = admin_client.get(url)

    assert response.status_code == 200
    page = response.content.decode()
    assert "No such user" in page
    assert 'name="to"' not in page  # no editable field


def test_emails_cannot_be_added_or_deleted_in_the_admin(admin_client, bounced_email):
    assert admin_client.get(reverse("admin:notifications_outboundemail_add")).status_code == 403
    delete = reverse("admin:notifications_outboundemail_delete", args=[bounced_email.id])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert OutboundEmail.objects.filter(id=bounced_email.id).exists()


def test_retry_now_sends_failed_and_waiting_emails_but_not_sent_ones(
    admin_client, bounced_email, make_email, mailoutbox, now, django_capture_on_commit_callbacks
):
    backing_off = make_email(
        to="later@example.com", attempts=2, send_after=now + timedelta(hours=1)
    )
    sent = make_email(to="sent@example.com", status=Status.SENT, attempts=1, sent_at=now)
    selected = [bounced_email.id, backing_off.id, sent.id]

    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            CHANGELIST,
            {
                "action": "retry_now",
                "_selected_action": selected,
                "confirm": "yes",
                "reason": "The mail server is back.",
            },
            follow=True,
        )

    assert response.status_code == 200
    shown = [str(message) for message in response.context["messages"]]
    assert "2 of 3 emails will be sent again now." in shown
    assert sorted(message.to[0] for message in mailoutbox) == [
        "gone@example.com",
        "later@example.com",
    ]
    bounced_email.refresh_from_db()
    assert (bounced_email.status, bounced_email.attempts) == (Status.SENT, 2)
    sent.refresh_from_db()
    assert sent.attempts == 1  # not sent again
