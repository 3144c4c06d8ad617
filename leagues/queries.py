"""Reading leagues: who may see which, and a league's games for its page and the API."""

from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import ServiceError
from leagues.models import League, LeagueGame


def leagues_of(user: User) -> QuerySet[League]:
    """The leagues ``user`` organises or was invited to, newest first."""
    return League.objects.filter(Q(organiser=user) | Q(members__user=user)).distinct()


def visible_league(user: User, league_id) -> League:
    """The league if ``user`` organises it, is a member or staff; else ``not_found``."""
    try:
        league = League.objects.filter(id=league_id).first()
    except ValidationError:
        league = None
    if league is None or not (
        user.is_staff or league.organiser_id == user.pk or league.members.filter(user=user).exists()
    ):
        raise ServiceError("not_found", _("No such league, or you are not in it."))
    return league


def games_of(league: League) -> list[dict]:
    """The league's schedule for people: number, round, player names, state, game id."""
    names = {m.user_id: m.user.public_name for m in league.members.select_related("user")}
    rows = []
    for row in LeagueGame.objects.filter(league=league).select_related("game"):
        rows.append(
            {
                "number": row.number,
                "round": row.round,
                "players": [names.get(uid, "?") for uid in row.players],
                "status": row.game.status if row.game else row.status,
                "status_display": (
                    row.game.get_status_display() if row.game else row.get_status_display()
                ),
                "game_id": row.game_id,
            }
        )
    return rows
