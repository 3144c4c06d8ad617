"""``{{ kind|rules_path }}``: the path of a game's rules page (``/rules/piratz/``), or ``""``
for a game without one, so a template offers the link only where the page exists; and
``{% rules_pages %}``, every rules page for the site menu."""

from django import template

from games.catalogue import all_specs
from games.views.rules import rules_path as path_of_rules

register = template.Library()


@register.filter
def rules_path(game) -> str:
    """The rules page's path of ``game`` (a ``Game``, or a game's kind); ``""`` if none."""
    return path_of_rules(getattr(game, "game", game))


@register.simple_tag
def rules_pages() -> list[dict]:
    """Every game with a rules page as ``{"name", "path"}``, sorted by kind: the site
    menu's "Rules" (templates/base.html)."""
    pages = []
    for spec in all_specs():
        path = path_of_rules(spec.kind)
        if path:
            pages.append({"name": spec.name, "path": path})
    return pages
