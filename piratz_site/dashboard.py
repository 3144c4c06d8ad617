"""The admin dashboard: what needs a moderator now, each count linked to its filtered list.

One query per table (four), whatever the number of rows: the index page is the page
moderators open most. Each link opens the list with the filter that gives the same rows:
the conditions a tile and its list share live with their rows (``games.queries.overdue``,
``notifications.models.RETRYING``), which the dashboard and the apps' admin both import.
"""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Q
from django.urls import reverse

from accounts.models import User
from games.models import Game, GameStatus
from games.queries import overdue
from moderation.models import Report
from notifications.models import RETRYING, OutboundEmail


@dataclass(frozen=True)
class DashboardTile:
    """One count on the dashboard; ``alert`` when it is non-zero and asks for action."""

    label: str
    count: int
    url: str
    alert: bool = False


def dashboard_tiles(now: datetime) -> list[DashboardTile]:
    """The dashboard's counts at ``now``, in the order they are shown."""
    games_url = reverse("admin:games_game_changelist")
    emails_url = reverse("admin:notifications_outboundemail_changelist")
    games = Game.objects.aggregate(
        active=Count("id", filter=Q(status=GameStatus.ACTIVE)),
        overdue=Count("id", filter=overdue(now)),
    )
    emails = OutboundEmail.objects.aggregate(
        failed=Count("id", filter=Q(status=OutboundEmail.Status.FAILED)),
        retrying=Count("id", filter=RETRYING),
    )
    open_reports = Report.objects.filter(status=Report.Status.OPEN).count()
    suspended = User.objects.filter(User.suspended_q(now)).count()
    return [
        DashboardTile("Active games", games["active"], f"{games_url}?status__exact=active"),
        DashboardTile(
            "Games past their deadline by more than 15 minutes (the sweep is failing)",
            games["overdue"],
            f"{games_url}?overdue=yes",
            alert=True,
        ),
        DashboardTile(
            "Emails failed", emails["failed"], f"{emails_url}?status__exact=failed", alert=True
        ),
        DashboardTile(
            "Emails waiting to be retried",
            emails["retrying"],
            f"{emails_url}?delivery=retrying",
            alert=True,
        ),
        DashboardTile(
            "Open reports",
            open_reports,
            reverse("admin:moderation_report_changelist") + "?status__exact=open",
            alert=True,
        ),
        DashboardTile(
            "Players suspended now",
            suspended,
            reverse("admin:accounts_user_changelist") + "?suspended=yes",
        ),
    ]
