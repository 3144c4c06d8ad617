"""The lobby's forms: the filters above the list, and "Create an open game".

Parsed only: ``lobby.actions`` decides what is allowed, and its refusal's sentence is
shown as the form's error.
"""

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy, pgettext_lazy

from games import bots
from games.actions.common import MAX_TURN_HOURS, MIN_TURN_HOURS
from games.catalogue import kinds, rules_for
from games.forms import ClockFields
from games.seat_names import LEVEL_WORDS
from lobby.queries import LobbyFilters


def _game_choices() -> list[tuple[str, str]]:
    return [(name, rules_for(name).NAME) for name in kinds()]


def _any_game_choices() -> list[tuple[str, object]]:
    return [("", pgettext_lazy("lobby filter", "any game")), *_game_choices()]


def _bot_levels() -> list[tuple[str, str]]:
    """Every bot level some game offers, weakest first (which game takes which: the service)."""
    levels: list[str] = []
    for name in kinds():
        levels += [level for level in bots.levels_of(rules_for(name)) if level not in levels]
    return [(level, str(LEVEL_WORDS.get(level, level))) for level in levels]


def _language_choices() -> list[tuple[str, object]]:
    return [("", gettext_lazy("anyone")), *settings.LANGUAGES]


class LobbyFilterForm(forms.Form):
    """The lobby's filters (GET): every field may be left at "any"."""

    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=_any_game_choices, required=False)
    players = forms.TypedChoiceField(
        label=gettext_lazy("Players"),
        choices=[("", pgettext_lazy("lobby filter", "any number")), *((n, n) for n in "234")],
        coerce=int,
        empty_value=None,
        required=False,
    )
    rated = forms.TypedChoiceField(
        label=gettext_lazy("Rated"),
        choices=[
            ("", pgettext_lazy("lobby filter", "rated or not")),
            ("yes", gettext_lazy("rated only")),
            ("no", gettext_lazy("unrated only")),
        ],
        coerce=lambda value: value == "yes",
        empty_value=None,
        required=False,
    )
    language = forms.ChoiceField(
        label=gettext_lazy("For readers of"),
        choices=[("", pgettext_lazy("lobby filter", "any language")), *settings.LANGUAGES],
        required=False,
    )
    can_join = forms.BooleanField(label=gettext_lazy("Only games I can join"), required=False)

    def filters(self) -> LobbyFilters:
        """The filters chosen (the form is bound and valid; an invalid one filters nothing)."""
        if not self.is_valid():
            return LobbyFilters()
        data = self.cleaned_data
        return LobbyFilters(
            game=data.get("game") or None,
            players=data.get("players"),
            rated=data.get("rated"),
            language=data.get("language") or None,
            can_join=True if data.get("can_join") else None,
        )


class CreateOpenGameForm(ClockFields):
    """A new open game: the game and its options as the create form has them, the seats
    (bots among them), and who may take the open ones."""

    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=_game_choices)
    seats = forms.TypedChoiceField(
        label=gettext_lazy("Players in all, you included"),
        choices=[(n, n) for n in "234"],
        coerce=int,
        initial=2,
    )
    bots = forms.TypedChoiceField(
        label=gettext_lazy("Seats for bots"),
        choices=[(n, n) for n in "012"],
        coerce=int,
        initial=0,
        help_text=gettext_lazy(
            "At least one seat stays open for a person. A game with a bot is never rated."
        ),
    )
    bot_level = forms.ChoiceField(
        label=gettext_lazy("Bot level"), choices=_bot_levels, required=False
    )
    turn_hours = forms.IntegerField(
        label=gettext_lazy("Hours per turn"),
        initial=72,
        min_value=MIN_TURN_HOURS,
        max_value=MAX_TURN_HOURS,
    )
    blind = forms.BooleanField(
        label=gettext_lazy("Blind mode: nobody sees collected cards before the end"),
        required=False,
    )
    unrated = forms.BooleanField(
        label=gettext_lazy("Unrated: the result moves nobody's rating"), required=False
    )
    public = forms.BooleanField(
        label=gettext_lazy("Public: anyone may watch the game"), required=False, initial=True
    )
    language = forms.ChoiceField(
        label=gettext_lazy("Open to readers of"),
        choices=_language_choices,
        required=False,
    )
    rating_rule = forms.ChoiceField(
        label=gettext_lazy("Open to ratings at this game"),
        choices=[
            ("any", gettext_lazy("any rating")),
            ("spread", gettext_lazy("within the points below of my rating")),
            ("range", gettext_lazy("between the two ratings below")),
        ],
        initial="any",
    )
    rating_spread = forms.IntegerField(
        label=gettext_lazy("Points from my rating"), initial=200, required=False
    )
    rating_min = forms.IntegerField(label=gettext_lazy("Lowest rating"), required=False)
    rating_max = forms.IntegerField(label=gettext_lazy("Highest rating"), required=False)

    def clean(self):
        cleaned = super().clean()
        assert cleaned is not None  # forms.Form.clean returns cleaned_data
        rule = cleaned.get("rating_rule")
        if rule == "spread" and cleaned.get("rating_spread") is None:
            self.add_error("rating_spread", gettext_lazy("How many points from your rating?"))
        if (
            rule == "range"
            and cleaned.get("rating_min") is None
            and cleaned.get("rating_max") is None
        ):
            self.add_error(
                "rating_min", gettext_lazy("Give the lowest rating, the highest, or both.")
            )
        return cleaned

    def action_arguments(self) -> dict:
        """The valid form as ``lobby.actions.do_create_open_game``'s keyword arguments."""
        data = self.cleaned_data
        # No level chosen: the game's stand-in's; "" (a game without bots) the service refuses.
        level = data.get("bot_level") or bots.stand_in_level(rules_for(data["game"])) or ""
        arguments: dict = {
            "game": data["game"],
            "seats": data["seats"],
            "bots": [level] * data["bots"],
            "turn_hours": data["turn_hours"],
            "blind": data["blind"],
            "rated": False if data["unrated"] else None,
            "public": data["public"],
            "language": data.get("language") or None,
        }
        clock = self.clock_request()
        if clock is not None:
            arguments["clock"] = clock
        if data["rating_rule"] == "spread":
            arguments["rating_spread"] = data.get("rating_spread")
        elif data["rating_rule"] == "range":
            arguments["rating_min"] = data.get("rating_min")
            arguments["rating_max"] = data.get("rating_max")
        return arguments
