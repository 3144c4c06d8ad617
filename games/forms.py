"""What the create forms of every door share: the clock's fields, declared once.

The game create form (``games.views.lobby``), the lobby's "Create an open game" and the
tournament form each inherit ``ClockFields``; ``games.clocks.clock_from_form`` is the one
reader of what they hold, and the service (``games.clocks.clean_clock``) checks it.
"""

from django import forms
from django.utils.translation import gettext_lazy

from games import clocks

CLOCK_FIELD_NAMES = ("clock", "bank_hours", "increment_hours", "cap_hours", "daily_hour")


class ClockFields(forms.Form):
    """The clock (hours per turn, a time bank or a daily deadline) and the numbers of each;
    only the kind chosen is read, the others are left alone, so a form works without a
    script. Placed after the form's ``turn_hours`` (the per-turn clock they replace)."""

    clock = forms.ChoiceField(
        label=gettext_lazy("Clock"),
        choices=[
            ("per_turn", gettext_lazy("the hours per turn above")),
            ("bank", gettext_lazy("a time bank for each player")),
            ("daily", gettext_lazy("a daily deadline at a fixed hour")),
        ],
        initial="per_turn",
        required=False,
    )
    bank_hours = forms.IntegerField(
        label=gettext_lazy("Time bank: hours each player starts with"),
        initial=clocks.DEFAULT_BANK["bank_hours"],
        required=False,
    )
    increment_hours = forms.IntegerField(
        label=gettext_lazy("Time bank: hours added after each turn"),
        initial=clocks.DEFAULT_BANK["increment_hours"],
        required=False,
    )
    cap_hours = forms.IntegerField(
        label=gettext_lazy("Time bank: the most hours a bank holds"),
        initial=clocks.DEFAULT_BANK["cap_hours"],
        required=False,
    )
    daily_hour = forms.IntegerField(
        label=gettext_lazy(
            "Daily deadline: the hour (0-23, your time zone) every turn ends, "
            "at least 12 hours after it starts"
        ),
        initial=20,
        required=False,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Fields of a base class come first; these belong right after the hours per turn.
        others = [name for name in self.fields if name not in CLOCK_FIELD_NAMES]
        at = others.index("turn_hours") + 1 if "turn_hours" in others else len(others)
        self.order_fields([*others[:at], *CLOCK_FIELD_NAMES, *others[at:]])

    def clock_request(self) -> dict | None:
        """The valid form's clock as the actions take it (``clock_from_form``): None for
        hours per turn."""
        return clocks.clock_from_form(self.cleaned_data)
