"""Forms of the accounts pages and of the user admin."""

from typing import Any, ClassVar

from django import forms
from django.contrib.auth import forms as auth_forms
from django.utils.translation import gettext_lazy

from .login_links import MAX_NEXT_LENGTH
from .models import User, normalize_email


class LoginLinkRequestForm(forms.Form):
    email = forms.EmailField(
        max_length=254,
        label=gettext_lazy("Your email address"),
        widget=forms.EmailInput(attrs={"autocomplete": "email", "autofocus": True}),
    )
    # Where to go after logging in; checked by the login-link service, unsafe values dropped.
    next = forms.CharField(required=False, max_length=MAX_NEXT_LENGTH, widget=forms.HiddenInput)


class _NormalizedEmailMixin:
    cleaned_data: dict[str, Any]  # the form's, which this mixin is mixed into

    def clean_email(self) -> str:
        # Normalised before the unique check, so "Anna@X" cannot become a second anna@x.
        return normalize_email(self.cleaned_data["email"])


class UserCreationForm(_NormalizedEmailMixin, forms.ModelForm):
    """Admin form for a new user: players log in by emailed link, so no password."""

    class Meta:
        model = User
        fields = ("email", "display_name", "is_staff")

    def save(self, commit: bool = True) -> User:
        user = super().save(commit=False)
        user.set_unusable_password()
        if commit:
            user.save()
            self.save_m2m()
        return user


class UserChangeForm(_NormalizedEmailMixin, auth_forms.UserChangeForm):
    """Admin form for an existing user: Django's, for our model, which has no username."""

    class Meta(auth_forms.UserChangeForm.Meta):
        model = User
        fields = "__all__"
        field_classes: ClassVar[dict] = {}
