"""The table's note of substitutions: "Dora took over seat 3 from Carla." for every seat a
substitute took over (``SeatChange`` ``substituted``), so everyone at the table knows who
plays a seat whose name changed; its moves keep their seat number."""

from django import template
from django.utils.translation import gettext as _

from games.models import Game, SeatChange

register = template.Library()


@register.simple_tag
def substitution_notes(game: Game) -> list[str]:
    """One sentence per substitution in ``game``, oldest first (one query, and none for a
    game no substitute joined: ``Game.has_substitutes``)."""
    if not game.has_substitutes:
        return []
    changes = (
        SeatChange.objects.filter(game=game, kind=SeatChange.Kind.SUBSTITUTED)
        .select_related("actor_user", "previous_user")
        .order_by("id")
    )
    notes = []
    for change in changes:
        substitute = change.actor_user.public_name if change.actor_user else _("a substitute")
        before = change.previous_user.public_name if change.previous_user else _("its player")
        notes.append(
            _("%(substitute)s took over seat %(seat)d from %(before)s.")
            % {"substitute": substitute, "seat": change.seat + 1, "before": before}
        )
    return notes
