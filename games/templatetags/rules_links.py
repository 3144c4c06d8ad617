"""``{{ kind|rules_path }}``: the path of a game's rules page (``/rules/piratz/``), or ``""``
for a game without one, so a template offers the link only where the page exists."""

from django import template

from games.views.rules import rules_path as path_of_rules

register = template.Library()


@register.filter
def rules_path(game) -> str:
    """The rules page's path of ``game`` (a ``Game``, or a game's kind); ``""`` if none."""
    return path_of_rules(getattr(game, "game", game))
