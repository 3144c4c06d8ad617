"""The one question every door that seats, pairs or passes messages between people asks:
do these two people never meet? (docs/people.md "Blocking")."""

from collections.abc import Iterable

from django.db.models import Q

from accounts.models import User
from people.models import Block


def blocked_ids(user_id: int) -> set[int]:
    """The ids of everyone ``user_id`` may not meet: whom they blocked and who blocked them."""
    pairs = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id)).values_list(
        "blocker_id", "blocked_id"
    )
    return {other for pair in pairs for other in pair if other != user_id}


def blocked_between(first_id: int, second_id: int) -> bool:
    """True when either of the two has blocked the other."""
    return Block.objects.filter(
        Q(blocker_id=first_id, blocked_id=second_id) | Q(blocker_id=second_id, blocked_id=first_id)
    ).exists()


def any_blocked(user_ids: Iterable[int]) -> bool:
    """True when some two of ``user_ids`` may not meet (one has blocked another)."""
    ids = list(set(user_ids))
    return Block.objects.filter(blocker_id__in=ids, blocked_id__in=ids).exists()


def blocked_by(user_id: int) -> set[int]:
    """The ids of the people ``user_id`` has blocked (one direction only): whose table talk
    they no longer read."""
    return set(Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True))


def blocks_any_address(user_id: int, emails: Iterable[str]) -> bool:
    """True when some two of ``user_id`` and the people holding ``emails`` (canonical
    addresses) have blocked one another, either way: a game or league among them would
    seat them together, so its invitations may not go out."""
    emails = list(emails)
    if not emails:
        return False
    holders = User.objects.filter(email__in=emails).values_list("pk", flat=True)
    return any_blocked([user_id, *holders])
