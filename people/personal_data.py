"""A person's people in their data export (``accounts.personal_data.export_asked``)."""

from accounts.models import User
from people.models import Block, Follow, FollowedGame


def export_people(user: User) -> dict:
    """``people.json``: whom ``user`` follows and has blocked (by public name and page
    address) and the games they follow. Never who follows or blocked them: that is the
    others' business."""
    return {
        "following": [
            {"name": f.player.public_name, "page": f.player.public_id, "since": f.created_at}
            for f in Follow.objects.filter(follower=user).select_related("player")
        ],
        "blocked": [
            {"name": b.blocked.public_name, "page": b.blocked.public_id, "since": b.created_at}
            for b in Block.objects.filter(blocker=user).select_related("blocked")
        ],
        "followed_games": [
            {"game": str(g.game_id), "since": g.created_at, "told_ended_at": g.told_at}
            for g in FollowedGame.objects.filter(user=user)
        ],
    }
