"""The outbox row's state rules, on unsaved instances: no database."""

from datetime import timedelta

import pytest

from notifications.models import OutboundEmail, retry_delay

from .conftest import NOON

TOKEN = "eyJnIjoiMGI1ZSIsInUiOjN9:1xUxwf:LRGyxViApxuAvHRU1kNoH7srwtabTyHqCMYflHK6csg"


def email_with_links(**fields) -> OutboundEmail:
    """An email being sent whose content carries a signed link in every content field."""
    return OutboundEmail(
        status=Status.SENDING,
        subject=f"Code {TOKEN}",
        body_text=f"Answer: https://piratz.example/invitations/{TOKEN}/\n",
        body_html=f'<a href="https://piratz.example/invitations/{TOKEN}/">Answer</a>',
        headers={"List-Unsubscribe": f"<https://piratz.example/unsubscribe/{TOKEN}/>"},
        **fields,
    )


def content_of(email: OutboundEmail) -> str:
    return " ".join(str(getattr(email, field)) for field in OutboundEmail.CONTENT_FIELDS)


Status = OutboundEmail.Status


def test_retry_delays_grow_fivefold_from_a_minute_up_to_the_cap():
    delays = [retry_delay(attempts) for attempts in range(1, 8)]
    assert delays == [timedelta(minutes=m) for m in (1, 5, 25, 125, 360, 360, 360)]


def test_retry_delay_of_a_huge_attempt_count_stays_at_the_cap():
    assert retry_delay(500) == timedelta(hours=6)


def test_retry_delay_refuses_attempt_zero():
    with pytest.raises(ValueError, match="count from 1"):
        retry_delay(0)


def test_transient_failure_makes_the_email_pending_again_after_a_backoff():
    email = OutboundEmail(status=Status.SENDING, attempts=1, send_after=NOON)
    email.record_failure("SMTPServerDisconnected: gone", NOON, permanent=False, max_attempts=6)
    assert (email.status, email.attempts) == (Status.PENDING, 2)
    assert email.send_after == NOON + timedelta(minutes=5)
    assert email.last_error == "SMTPServerDisconnected: gone"


def test_last_allowed_attempt_failing_marks_the_email_failed():
    email = OutboundEmail(status=Status.SENDING, attempts=5, send_after=NOON)
    email.record_failure("timeout", NOON, permanent=False, max_attempts=6)
    assert (email.status, email.attempts) == (Status.FAILED, 6)
    assert email.send_after == NOON  # no retry is scheduled


def test_permanent_failure_marks_the_email_failed_at_once():
    email = OutboundEmail(status=Status.SENDING, attempts=0, send_after=NOON)
    email.record_failure("550 no such user", NOON, permanent=True, max_attempts=6)
    assert (email.status, email.attempts) == (Status.FAILED, 1)


def test_a_runaway_error_message_is_cut():
    email = OutboundEmail(status=Status.SENDING)
    email.record_failure("x" * 10_000, NOON, permanent=True, max_attempts=6)
    assert len(email.last_error) == 2000


def test_sent_email_forgets_the_previous_error():
    email = OutboundEmail(status=Status.SENDING, attempts=2, last_error="timeout")
    email.record_sent(NOON)
    assert (email.status, email.attempts, email.sent_at) == (Status.SENT, 3, NOON)
    assert email.last_error == ""


def test_sent_email_keeps_no_live_link():
    email = email_with_links(attempts=0)

    email.record_sent(NOON)

    assert TOKEN not in content_of(email)
    assert email.body_text == "Answer: https://piratz.example/invitations/[redacted]/\n"
    assert email.headers == {"List-Unsubscribe": "<https://piratz.example/unsubscribe/[redacted]/>"}
    assert email.subject == "Code [redacted]"


@pytest.mark.parametrize(
    ("attempts", "permanent"), [(0, True), (5, False)], ids=["permanent", "last-attempt"]
)
def test_email_failed_for_good_keeps_no_live_link(attempts, permanent):
    email = email_with_links(attempts=attempts)

    email.record_failure("550 refused", NOON, permanent=permanent, max_attempts=6)

    assert email.status == Status.FAILED
    assert TOKEN not in content_of(email)
    assert "/invitations/[redacted]/" in email.body_html


def test_email_that_will_be_retried_keeps_its_links_to_send_them():
    email = email_with_links(attempts=0)

    email.record_failure("timeout", NOON, permanent=False, max_attempts=6)

    assert email.status == Status.PENDING
    assert content_of(email).count(TOKEN) == 4


def test_failure_stores_the_error_with_the_address_masked_and_tokens_redacted():
    email = OutboundEmail(status=Status.SENDING)
    error = f"SMTPRecipientsRefused: {{'anna@example.com': (550, b'unknown {TOKEN}')}}"

    email.record_failure(error, NOON, permanent=True, max_attempts=6)

    assert email.last_error == (
        "SMTPRecipientsRefused: {'a***@example.com': (550, b'unknown [redacted]')}"
    )
