"""What a moderator confirms an admin action with: a reason, kept to one line."""

from django import forms

from audit.log import MAX_REASON_LENGTH, clean_reason
from core.errors import ServiceError


def reason_field(help_text: str, **kwargs) -> forms.CharField:
    """A moderator's reason: as long as the audit log takes, typed in a three-line box."""
    return forms.CharField(
        max_length=MAX_REASON_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 80}),
        help_text=help_text,
        **kwargs,
    )


class ReasonForm(forms.Form):
    """What every moderator action is confirmed with: why it is taken."""

    reason = reason_field("Why you take this action; it is written to the audit log.")

    def clean_reason(self) -> str:
        # The action's own rule (one line, as in the log; no control or invisible
        # characters), so the form says what the action would refuse, next to the field.
        try:
            return clean_reason(self.cleaned_data["reason"])
        except ServiceError as refused:
            raise forms.ValidationError(refused.detail) from None
