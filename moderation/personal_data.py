"""The reports a person filed, in their data export (``reports.json``;
``accounts.personal_data``).

Registered in ``ModerationConfig.ready``: accounts may not import moderation (the floors).
"""

from accounts.models import User
from moderation.models import Report


def export_reports(user: User) -> list[dict]:
    """The reports ``user`` filed: what they wrote and whether it was handled (never how,
    nor who handled it)."""
    return [
        {
            "id": report.pk,
            "game": str(report.game_id),
            "about_player": None
            if report.reported_user is None
            else report.reported_user.public_name,
            "category": report.category,
            "text": report.text,
            "status": report.status,
            "created_at": report.created_at,
            "resolved_at": report.resolved_at,
        }
        for report in Report.objects.filter(reporter=user).select_related("reported_user")
    ]
