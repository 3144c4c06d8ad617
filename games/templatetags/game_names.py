"""``{{ game|game_name }}``: a game's name as players read it, from its rules' ``NAME``."""

from django import template

from games.rules import get_rules

register = template.Library()


@register.filter
def game_name(game) -> str:
    """The ``NAME`` of ``game``'s rules (a ``Game``, or a registered game's name)."""
    return get_rules(getattr(game, "game", game)).NAME
