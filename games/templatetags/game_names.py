"""``{{ game|game_name }}``: a game's name as players read it, from its rules' ``NAME``;
``{% include game|email_part:"_table.txt" %}``: a game's own email part, or the generic one;
``{{ game|end_reason }}``: why a game ended, as players read it."""

from django import template

from games.catalogue import rules_for
from games.describe import words_for
from games.models import EndReason

register = template.Library()

# The email parts of a game without its own (emails/<kind>/), fed by games.describe.generic.
ANY_GAME_EMAILS = "emails/any_game"


@register.filter
def game_name(game) -> str:
    """The ``NAME`` of ``game``'s rules (a ``Game``, or a game's kind)."""
    return rules_for(getattr(game, "game", game)).NAME


@register.filter
def email_part(kind: str, part: str) -> list[str]:
    """``emails/<kind>/<part>`` then ``emails/any_game/<part>``: ``{% include %}`` draws the
    first that exists, so a game without its own email templates gets the generic ones."""
    return [f"emails/{kind}/{part}", f"{ANY_GAME_EMAILS}/{part}"]


@register.filter
def end_reason(game) -> str:
    """Why ``game`` ended, as players read it. Abandonment is each game's own rule (P25: a
    round; R36: two turns), so its words come from the game's words; the stored value and
    the choices (hence the migrations) stay as they are."""
    if game.end_reason == EndReason.ABANDONED:
        return str(words_for(game.game).ABANDONED)
    return str(EndReason(game.end_reason).label)
