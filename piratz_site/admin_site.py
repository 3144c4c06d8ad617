"""The moderators' admin site: a password and a TOTP code to sign in, a dashboard on top.

Staff reach ``/admin/`` only with a session verified by a confirmed TOTP device
(django-otp's ``OTPAdminSite``); a staff member with a password but no device is refused
and told how to enrol (``manage.py add_totp_device``). Failed sign-ins, a wrong password
or a wrong code alike, count towards django-axes' lockout of that username from that
address (settings ``AXES_*``).
"""

from django import forms
from django.contrib.auth.signals import user_login_failed
from django.utils import timezone
from django_otp.admin import OTPAdminAuthenticationForm, OTPAdminSite
from django_otp.plugins.otp_totp.models import TOTPDevice

NO_DEVICE_MESSAGE = (
    "This account has no authenticator app enrolled, so it cannot sign in here. "
    "An operator enrols one with the command add_totp_device and your email address."
)
CODE_REQUIRED_MESSAGE = "Enter the 6-digit code your authenticator app shows for this site."
WRONG_CODE_MESSAGE = "That code is not right (or has expired). Enter the current code."


def axes_username(request, credentials: dict | None) -> str:
    """The username django-axes counts failures under: the address as typed, normalised.

    Emails are stored lower-case (``User.objects.normalize_email`` plus the form), so
    ``Mod@Example.com`` and ``mod@example.com`` are one account: counting them apart would
    give an attacker a fresh set of attempts per spelling.
    """
    if credentials and credentials.get("username"):
        typed = credentials["username"]
    else:
        typed = request.POST.get("username", "") if request is not None else ""
    return str(typed).strip().lower()


class ModeratorLoginForm(OTPAdminAuthenticationForm):
    """The admin's sign-in: email, password and the current TOTP code, in one step.

    django-otp 1.7 wants the device chosen from a list it fills only after a first
    submission; moderators have exactly one kind of device (TOTP, enrolled by
    ``add_totp_device``), so without a choice the form uses the user's confirmed TOTP
    device. A refused code is reported to django-axes as a failed sign-in, so guessing codes
    for a known password locks out like guessing passwords does.
    """

    otp_error_messages = {
        **OTPAdminAuthenticationForm.otp_error_messages,
        "token_required": CODE_REQUIRED_MESSAGE,
        "invalid_token": WRONG_CODE_MESSAGE,
    }

    def _chosen_device(self, user):
        device = super()._chosen_device(user)
        if device is None:
            device = TOTPDevice.objects.devices_for_user(user, confirmed=True).first()
        return device

    def clean_otp(self, user):
        if user is None:
            return
        if not TOTPDevice.objects.devices_for_user(user, confirmed=True).exists():
            raise forms.ValidationError(NO_DEVICE_MESSAGE, code="no_device")
        try:
            super().clean_otp(user)
        except forms.ValidationError:
            # Every code typed and refused counts, a wrong one or one sent while
            # django-otp's own throttle holds the device: both are guesses.
            if self.cleaned_data.get("otp_token"):
                user_login_failed.send(
                    sender=type(self),
                    credentials={"username": self.cleaned_data.get("username", "")},
                    request=self.request,
                )
            raise


class ModeratorAdminSite(OTPAdminSite):
    """``admin.site``: django-otp's verified-only site under Django's usual name "admin"."""

    site_header = "Piratz by mail: moderation"
    site_title = "Piratz moderation"
    index_title = "Dashboard"
    login_form = ModeratorLoginForm
    login_template = "admin/moderator_login.html"
    index_template = "admin/dashboard_index.html"

    def __init__(self, name: str = "admin"):
        super().__init__(name)

    def index(self, request, extra_context=None):
        """The usual app list, with the dashboard's counts above it."""
        # deferred: the dashboard imports every app's models; this module loads before them.
        from piratz_site.dashboard import dashboard_tiles

        context = {"dashboard": dashboard_tiles(timezone.now()), **(extra_context or {})}
        return super().index(request, extra_context=context)
