"""Reply tokens: what they carry, where they are valid, and that nobody can make one."""

import uuid
from datetime import timedelta

import time_machine
from django.utils import timezone

from games.reply_tokens import TOKEN_LENGTH, ReplyToken, read_reply_addresses, reply_address

GAME = uuid.UUID("0b5e0b5e-0000-4000-8000-000000000001")


def test_a_reply_address_carries_game_seat_user_and_version():
    address = reply_address(GAME, 2, 41, 17)
    local, _, domain = address.partition("@")
    assert domain == "in.example.com"
    assert local.startswith("play+") and len(local) <= 64  # RFC 5321's limit
    assert len(local) == len("play+") + TOKEN_LENGTH
    assert read_reply_addresses([address]) == ReplyToken(GAME, 2, 41, 17)


def test_tokens_survive_a_mail_server_that_changes_case_and_a_display_name():
    address = reply_address(GAME, 0, 1, 0)
    header = f'"Piratz by mail" <{address.upper()}>'
    assert read_reply_addresses(["someone@else.example", header]) == ReplyToken(GAME, 0, 1, 0)


def test_a_tampered_token_is_not_valid():
    address = reply_address(GAME, 0, 1, 0)
    local, _, domain = address.partition("@")
    flipped = local[:-1] + ("a" if local[-1] != "a" else "b")
    assert read_reply_addresses([f"{flipped}@{domain}"]) is None


def test_a_token_for_another_address_or_domain_is_not_valid(settings):
    address = reply_address(GAME, 0, 1, 0)
    token = address.partition("+")[2].partition("@")[0]
    assert read_reply_addresses([f"other+{token}@in.example.com"]) is None
    assert read_reply_addresses([f"play+{token}@evil.example"]) is None
    settings.REPLY_ADDRESS = ""
    assert read_reply_addresses([address]) is None
    assert reply_address(GAME, 0, 1, 0) is None  # replying is off: no Reply-To


def test_tokens_signed_with_another_secret_key_are_not_valid(settings):
    address = reply_address(GAME, 0, 1, 0)
    settings.SECRET_KEY = "another-secret-key-" + "y" * 40
    assert read_reply_addresses([address]) is None
    settings.SECRET_KEY_FALLBACKS = ["test-secret-key-not-for-production-" + "x" * 20]
    assert read_reply_addresses([address]) == ReplyToken(GAME, 0, 1, 0)


def test_a_token_expires_after_its_max_age(settings):
    settings.REPLY_TOKEN_MAX_AGE_DAYS = 10
    with time_machine.travel(timezone.now(), tick=False) as clock:
        address = reply_address(GAME, 0, 1, 0)
        clock.shift(timedelta(days=9, hours=23))
        assert read_reply_addresses([address]) is not None
        clock.shift(timedelta(hours=2))
        assert read_reply_addresses([address]) is None
