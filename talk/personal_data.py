"""A person's table talk in their data export (``messages.json``; ``accounts.personal_data``).

Registered in ``TalkConfig.ready``. Erasing an account keeps its messages: they are part
of the game records the other players keep, and their author reads "former player".
"""

from accounts.models import User
from talk.models import Message, MessageReport


def export_messages(user: User) -> dict:
    """The messages ``user`` wrote (their own text, also when a moderator hid it, and
    whether one did; never the moderator's reason or name) and the reports they filed."""
    messages = [
        {
            "id": message.pk,
            "game": str(message.game_id),
            "seat": message.seat,
            "text": message.text,
            "created_at": message.created_at,
            "hidden": message.is_hidden,
        }
        for message in Message.objects.filter(author=user).order_by("created_at", "id")
    ]
    reports = [
        {
            "message": report.message_id,
            "reason": report.reason,
            "created_at": report.created_at,
            "resolved": report.resolved_at is not None,
        }
        for report in MessageReport.objects.filter(reporter=user).order_by("created_at", "id")
    ]
    return {"messages": messages, "reports_filed": reports}
