"""notifications.mime: the unsubscribe headers reach the mail server as one readable line.

Python's email package turned a long ``List-Unsubscribe`` (one word: it has no space to
fold at) into RFC 2047 encoded-words, which mail clients do not read as a link: no
unsubscribe button, and no RFC 8058 one-click unsubscribe. Sent here through Django's SMTP
backend, as production sends, to an SMTP server on 127.0.0.1, and read off the wire.
"""

import email
import email.policy

import pytest

from notifications.mime import OutgoingEmail
from notifications.outbox import send_pending_email
from tests.processes import SmtpSink, use_smtp

UNSUBSCRIBE = (
    "<https://piratz.example.org/unsubscribe/WzEsInlvdXJfdHVybiJd:1xW04C:"
    "34gb7opb2Y9IOnAC5u7RCi4NuxFsTB1VAJPq9H-rFtI/>"
)
ONE_CLICK = "List-Unsubscribe=One-Click"
# Long, with spaces: still folded at them, as every header but the unsubscribe ones is.
SUBJECT = "Your turn in Piratz with bert, carla and dora, who have all been waiting a while"


@pytest.fixture
def sink():
    server = SmtpSink().start()
    yield server
    server.stop()


def test_the_unsubscribe_headers_go_out_unfolded_and_the_rest_folded(make_email, settings, sink):
    use_smtp(settings, sink.port)
    sent = make_email(
        subject=SUBJECT,
        headers={"List-Unsubscribe": UNSUBSCRIBE, "List-Unsubscribe-Post": ONE_CLICK},
    )

    assert send_pending_email(sent.id) == "sent"

    [envelope] = sink.messages
    head = envelope.original_content.split(b"\r\n\r\n", 1)[0]
    lines = head.split(b"\r\n")
    assert f"List-Unsubscribe: {UNSUBSCRIBE}".encode() in lines
    assert f"List-Unsubscribe-Post: {ONE_CLICK}".encode() in lines
    assert b"=?" not in head
    assert all(len(line) <= 998 for line in lines)
    subject_at = lines.index(next(line for line in lines if line.startswith(b"Subject:")))
    assert lines[subject_at + 1].startswith(b" ")  # folded onto a second line
    received = email.message_from_bytes(envelope.original_content, policy=email.policy.default)
    assert (received["List-Unsubscribe"], received["Subject"]) == (UNSUBSCRIBE, SUBJECT)


@pytest.mark.parametrize(
    "value",
    [
        "<https://piratz.example.org/" + "x" * 1000 + "/>",  # over a line's 998 characters
        "<https://piratz.example.org/désabonner/>",  # not ASCII
    ],
)
def test_an_unsubscribe_header_that_cannot_stand_on_one_line_is_folded(value):
    message = OutgoingEmail(
        "subject", "body", to=["player@example.com"], headers={"List-Unsubscribe": value}
    ).message(policy=email.policy.SMTP)

    raw = message.as_bytes()
    assert all(len(line) <= 998 for line in raw.split(b"\r\n"))
    received = email.message_from_bytes(raw, policy=email.policy.default)
    assert received["List-Unsubscribe"] == value
