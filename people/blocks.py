"""The one question every door that seats, pairs or passes messages between people asks:
do these two people never meet? (docs/people.md "Blocking")."""

from collections.abc import Iterable

from django.db.models import Q

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
