"""Malformed and oversized mail: dropped with one log line, never retried, never answered."""

import logging

import pytest

from games.models import Game
from mailin.intake import body_text, read_raw, without_nul
from mailin.parser import command_line, text_of_html
from notifications.models import OutboundEmail
from tests.factories import start_game

from .conftest import latest_reply_to, mailgun_post, pipe

pytestmark = pytest.mark.django_db


@pytest.fixture
def duel(anna, bert):
    """Anna (seat 0) against Bert, seed 7: Anna is to move at version 0."""
    return start_game([anna, bert])


def headers_and_body(headers: list[str], body: str = "reveal") -> bytes:
    return ("\r\n".join(headers) + "\r\n\r\n" + body + "\r\n").encode("utf-8")


def deep_multipart(to: str, depth: int) -> bytes:
    opening = "".join(
        f"Content-Type: multipart/mixed; boundary=b{level}\r\n\r\n--b{level}\r\n"
        for level in range(depth)
    )
    closing = "".join(f"--b{level}--\r\n" for level in reversed(range(depth)))
    head = f"From: anna@example.com\r\nTo: {to}\r\nMIME-Version: 1.0\r\n"
    return (head + opening + "Content-Type: text/plain\r\n\r\nreveal\r\n" + closing).encode()


def wide_multipart(to: str, parts: int) -> bytes:
    body = "".join(f"--b\r\nContent-Type: text/plain\r\n\r\nreveal {n}\r\n" for n in range(parts))
    head = f"From: anna@example.com\r\nTo: {to}\r\nMIME-Version: 1.0\r\n"
    return (
        head + "Content-Type: multipart/mixed; boundary=b\r\n\r\n" + body + "--b--\r\n"
    ).encode()


def crowd(count: int) -> str:
    return ", ".join(f"sailor{n}@example.org" for n in range(count))


# Each builds, from Anna's valid reply address, a message nobody may act on.
UNREADABLE = {
    "two-from-addresses": (
        lambda to: headers_and_body(["From: bert@example.com, anna@example.com", f"To: {to}"]),
        "bad_sender",
    ),
    "two-from-headers": (
        lambda to: headers_and_body(
            ["From: bert@example.com", "From: anna@example.com", f"To: {to}"]
        ),
        "bad_sender",
    ),
    "from-without-address": (
        lambda to: headers_and_body(["From: Anna", f"To: {to}"]),
        "bad_sender",
    ),
    "from-empty": (lambda to: headers_and_body(["From: <>", f"To: {to}"]), "bad_sender"),
    "no-from": (lambda to: headers_and_body([f"To: {to}"]), "bad_sender"),
    "nul-in-from": (
        lambda to: headers_and_body(["From: anna\x00@example.com", f"To: {to}"]),
        "bad_sender",
    ),
    "nested-3000-deep": (lambda to: deep_multipart(to, 3000), "too_many_parts"),
    "nested-25-deep": (lambda to: deep_multipart(to, 25), "too_many_parts"),
    "150-parts": (lambda to: wide_multipart(to, 150), "too_many_parts"),
    "to-with-20000-addresses": (
        lambda to: headers_and_body(["From: anna@example.com", f"To: {crowd(20000)}, {to}"]),
        "header_too_long",
    ),
    "300-headers": (
        lambda to: headers_and_body(
            ["From: anna@example.com", f"To: {to}", *[f"X-Junk: {n}" for n in range(300)]]
        ),
        "too_many_headers",
    ),
    "over-1-mb": (
        lambda to: headers_and_body(
            ["From: anna@example.com", f"To: {to}"], "reveal\r\n" * 140_000
        ),
        "too_large",
    ),
}


def mailin_records(caplog) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.name.startswith("mailin")]


def nothing_happened(game) -> bool:
    return (
        Game.objects.get(id=game.id).version == 0
        and not OutboundEmail.objects.filter(template="mail_answer").exists()
    )


@pytest.mark.parametrize(("build", "reason"), UNREADABLE.values(), ids=UNREADABLE.keys())
def test_unreadable_mail_through_the_pipe_is_dropped_with_one_log_line(
    duel, anna, build, reason, caplog
):
    address = latest_reply_to(anna)
    caplog.set_level(logging.INFO)
    pipe(build(address))  # returns: exit status 0, no retry and no bounce
    records = mailin_records(caplog)
    assert [record.getMessage() for record in records] == [
        f"Inbound email dropped: unreadable ({reason})"
    ]
    assert nothing_happened(duel)
    token = address.partition("+")[2].partition("@")[0]
    assert token not in caplog.text and "anna@example.com" not in caplog.text


@pytest.mark.parametrize(("build", "reason"), UNREADABLE.values(), ids=UNREADABLE.keys())
def test_unreadable_mail_through_the_webhook_is_refused_for_good(
    duel, anna, client, build, reason, caplog
):
    caplog.set_level(logging.INFO)
    response = mailgun_post(client, build(latest_reply_to(anna)))
    assert response.status_code == 406  # Mailgun does not post it again
    assert f"dropped: unreadable ({reason})" in caplog.text
    assert nothing_happened(duel)


def test_a_token_beyond_the_first_recipients_is_not_looked_for(duel, anna, client):
    # 20,000 addresses in headers short enough to pass: only the first few are read.
    crowded = [f"To: {crowd(500)}" for _ in range(40)]
    raw = headers_and_body(["From: anna@example.com", *crowded, f"To: {latest_reply_to(anna)}"])
    pipe(raw)
    assert mailgun_post(client, raw).status_code == 200  # read, and dropped as no_token
    assert nothing_happened(duel)


def unknown_charset_reply(to: str) -> bytes:
    return headers_and_body(
        [
            "From: anna@example.com",
            f"To: {to}",
            "MIME-Version: 1.0",
            'Content-Type: text/plain; charset="x-no-such-charset"',
        ],
        "reveal\r\n\r\nOn Monday, Piratz wrote:\r\n> old",
    )


@pytest.mark.parametrize("by_webhook", [False, True], ids=["pipe", "webhook"])
def test_a_reply_in_an_unknown_charset_is_read_as_utf8(duel, anna, client, by_webhook):
    raw = unknown_charset_reply(latest_reply_to(anna))
    if by_webhook:
        assert mailgun_post(client, raw).status_code == 200
    else:
        pipe(raw)
    assert Game.objects.get(id=duel.id).version == 1


@pytest.mark.parametrize("by_webhook", [False, True], ids=["pipe", "webhook"])
def test_nul_bytes_of_the_player_never_reach_the_database(duel, anna, client, by_webhook):
    # PostgreSQL refuses NUL in text and JSON (DataError); SQLite stores it, so the test
    # looks for it in what was stored.
    raw = headers_and_body(
        [
            "From: anna@example.com",
            f"To: {latest_reply_to(anna)}",
            "Message-ID: <nul\x00id@client.example>",
        ],
        "dan\x00ce\r\n\r\nOn Monday, Piratz wrote:\r\n> old",
    )
    if by_webhook:
        assert mailgun_post(client, raw).status_code == 200
    else:
        pipe(raw)
    answer = OutboundEmail.objects.get(template="mail_answer").rendered()
    assert "“dance” is not a move we know." in answer.body_text
    stored = [answer.subject, answer.body_text, answer.body_html, answer.headers, answer.context]
    assert "\x00" not in repr(stored)


def test_the_body_is_stripped_of_nul_and_decoded_whatever_its_charset():
    raw = unknown_charset_reply("play@in.example.com").replace(b"reveal", b"re\x00v\xffeal")
    assert body_text(read_raw(raw)).startswith("rev\ufffdeal\n")
    assert without_nul("a\x00b\x00") == "ab"


def test_hostile_html_and_long_lines_are_read_in_linear_time():
    # Each unclosed "<script" and "<" once made the reader scan the rest of the text
    # again, and a long first line backtracked in the quote-header pattern: minutes.
    assert text_of_html("<p>reveal</p>" + "<script" * 50_000).startswith("reveal")
    assert text_of_html("reveal<br>" + "<a" * 50_000).startswith("reveal\n")
    assert text_of_html("<head>x</head>reveal<blockquote>pass coins</blockquote>") == ("\nreveal\n")
    long_line = "on " + "<a@b " * 200_000
    assert command_line(long_line) == long_line[:200]
