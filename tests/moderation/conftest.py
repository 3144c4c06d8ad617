"""Moderation tests: the people of tests/conftest.py, a suspended player, a report."""

import re

import pytest
from django.conf import settings

from moderation import actions
from moderation.models import Report, ReportCategory
from notifications.models import OutboundEmail

LOGIN_LINK_RE = re.compile(re.escape(settings.SITE_URL.rstrip("/")) + r"(/accounts/login/[^/\s]+/)")


@pytest.fixture
def suspend(moderator):
    """Suspend a player as a moderator does (reason given; ``until`` optional)."""

    def suspend(user, until=None, reason="Insulted other players."):
        return actions.do_suspend_user(moderator, user, reason, until=until)

    return suspend


@pytest.fixture
def report(toy_game, bert) -> Report:
    """Bert's open report about Anna (seat 0) in the game they play."""
    return actions.do_file_report(
        bert, toy_game.id, ReportCategory.ABUSE, "Anna wrote rude things.", seat=0
    )


def last_login_link(email: str) -> str | None:
    """The path of the newest login link emailed to ``email`` (None if none was queued)."""
    row = OutboundEmail.objects.filter(to=email, template="login_link").order_by("-id").first()
    if row is None:
        return None
    return LOGIN_LINK_RE.search(row.rendered().body_text).group(1)
