"""Signing a person out everywhere: every session, game link and unused login link stops working."""

import logging

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from .models import LoginLink, User

logger = logging.getLogger(__name__)


def do_sign_out_everywhere(user: User) -> None:
    """End every sign-in of ``user``: their sessions on every browser (this one too), the
    links of the game emails sent so far and their login links not used yet.

    Sessions and game links carry ``User.session_generation``, counted up here: Django
    signs a session out on its next request once its auth hash no longer matches
    (``User.get_session_auth_hash``), and ``games.notify.links.read_entry_token`` refuses a
    link of an older generation. Unused login links are marked used. API keys are not
    touched: they are replaced on their own (``issue_token``). Atomic.
    """
    with transaction.atomic():
        User.objects.filter(pk=user.pk).update(session_generation=F("session_generation") + 1)
        LoginLink.objects.filter(email=user.email, used_at=None).update(used_at=timezone.now())
    # Only the id: the log is not the place for players' addresses.
    logger.info("User %s signed out everywhere", user.pk)
