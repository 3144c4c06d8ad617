"""One row for an action: locked by its id, or named by an emailed invitation token.

What the leagues' and the tournaments' actions (and any door like them) share: the
refusal is a ``ServiceError("not_found")`` either way, and a token is kept only as its
SHA-256 (``hash_token``), so no row holds a live credential.
"""

import hashlib
import secrets

from django.db.models import Model, QuerySet
from django.utils.translation import gettext as _

from core.errors import ServiceError


def locked_row[M: Model](queryset: QuerySet[M], pk, refusal: str) -> M:
    """The row ``pk`` of ``queryset``, locked until the caller's transaction ends;
    ``ServiceError("not_found", refusal)`` when there is none."""
    found = queryset.select_for_update().filter(pk=pk).first()
    if found is None:
        raise ServiceError("not_found", refusal)
    return found


def hash_token(token: str) -> str:
    """What a row keeps of an emailed token: its SHA-256, hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_invitation_token() -> tuple[str, str]:
    """A fresh token for an invitation link, and the hash the row keeps of it."""
    token = secrets.token_urlsafe(24)
    return token, hash_token(token)


def row_for_token[M: Model](queryset: QuerySet[M], token: str) -> M:
    """The row of ``queryset`` whose ``token_hash`` is ``token``'s
    (``not_found``: this invitation link is not valid)."""
    found = queryset.filter(token_hash=hash_token(token)).first() if token else None
    if found is None:
        raise ServiceError("not_found", _("This invitation link is not valid."))
    return found
