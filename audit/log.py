"""The one way into the audit log: ``record``, called inside each moderator action.

Callers ``import audit.log`` and write ``audit.log.record(...)`` and, before they change
anything, ``audit.log.clean_reason(reason)``."""

from django.db import transaction
from django.utils.translation import gettext as _

from audit.models import AuditAction, AuditEntry
from core.errors import ServiceError
from core.text import clean_typed_text

MAX_REASON_LENGTH = 500


def clean_reason(reason) -> str:
    """The moderator's reason on one line; raises ``ServiceError("invalid")`` when it is
    blank, or when the one rule for typed text refuses it (``core.text.clean_typed_text``:
    longer than ``MAX_REASON_LENGTH``, control or invisible characters; players read some
    reasons). Actions call it before changing anything, so a refused reason changes
    nothing."""
    reason = " ".join(str(reason or "").split())  # one line: it also goes into log lines
    if not reason:
        raise ServiceError("invalid", _("Give a reason for the moderator action."))
    return clean_typed_text(reason, field_label=_("The reason"), max_length=MAX_REASON_LENGTH)


def record(
    moderator,
    action: AuditAction,
    *,
    reason: str,
    game=None,
    user=None,
    extra: dict | None = None,
) -> AuditEntry:
    """Write the audit entry of ``moderator``'s ``action`` on ``game`` and/or ``user``.

    Must be called inside the transaction that performs the action (``RuntimeError``
    otherwise): the entry and the change commit or roll back together. ``reason`` is
    cleaned by ``clean_reason`` (blank: ``ServiceError("invalid")``); ``extra`` is JSON-ready
    detail (hours granted, the version the moderator saw, a report's id). Only staff act
    as moderators: anybody else gets ``ServiceError("not_found")``, as for a game they may
    not see.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("audit.log.record() must run inside the action's transaction")
    if not getattr(moderator, "is_staff", False):
        raise ServiceError("not_found", _("Only moderators can take moderator actions."))
    return AuditEntry.objects.create(
        moderator=moderator,
        action=AuditAction(action).value,
        game=game,
        target_user=user,
        reason=clean_reason(reason),
        extra=extra or {},
    )
