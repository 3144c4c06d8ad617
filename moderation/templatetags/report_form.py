"""``{% report_form player games_together %}``: the player page's report form, which posts
to ``moderation.views.report_player`` (templates/games/player.html). Here, not in games:
games may not import moderation (docs/architecture.md "The floors")."""

from django import template
from django.utils.translation import pgettext_lazy

from moderation.models import ReportCategory

register = template.Library()

# The categories in the reader's words: the model's labels are the moderators' English.
REPORT_CATEGORY_WORDS = {
    ReportCategory.ABUSE.value: pgettext_lazy("report category", "Abuse or insults"),
    ReportCategory.CHEATING.value: pgettext_lazy("report category", "Cheating"),
    ReportCategory.SPAM.value: pgettext_lazy("report category", "Spam"),
    ReportCategory.OTHER.value: pgettext_lazy("report category", "Something else"),
}


def report_categories() -> list[tuple[str, str]]:
    """The report categories (``ReportCategory``'s values) with their words."""
    return [
        (value, str(REPORT_CATEGORY_WORDS.get(value) or value)) for value in ReportCategory.values
    ]


@register.inclusion_tag("moderation/_report_form.html")
def report_form(player, games_together) -> dict:
    """The form reporting ``player`` about one of ``games_together`` (the games the reader
    plays with them); nothing when there is none (the reader's own page included)."""
    return {
        "player": player,
        "name": player.public_name,
        "games_together": games_together,
        "categories": report_categories(),
    }
