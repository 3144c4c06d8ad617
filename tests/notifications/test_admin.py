"""The outbox admin: moderators see failures and can retry them."""

from datetime import timedelta

import pytest
from django.urls import reverse

from notifications.models import OutboundEmail

pytestmark = pytest.mark.django_db

Status = OutboundEmail.Status
CHANGELIST = reverse("admin:notifications_outboundemail_changelist")


@pytest.fixture(autouse=True)
def _clock_frozen_before_login(now):
    """Freeze time before admin_client logs in, or the session would be years old."""


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
