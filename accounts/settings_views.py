"""The settings page (/settings/): the name others see, email and time settings and
vacations, as plain forms; and the API keys page (/settings/api-keys/).

The forms only parse what the browser sends (numbers, times, dates); what is allowed is
decided by ``accounts.preferences`` (``do_update_settings``, ``do_add_vacation``,
``do_end_vacation``), whose ``ServiceError.detail`` is shown as the form's error. Nothing
is validated twice, so the page and the API (``/api/me/settings/``) cannot disagree.
"""

import re

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import get_language_info, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from core.errors import ServiceError

from . import api_keys, preferences, schedule
from .authenticated import AuthenticatedHttpRequest
from .erasure import ERASURE_ASKED, request_erasure
from .models import ApiToken, NotificationSettings, User, Vacation
from .sessions import do_sign_out_everywhere

# What each email a person may switch off is, in their words.
EMAIL_KIND_LABELS = {
    schedule.EmailKind.YOUR_TURN: gettext_lazy("Your turn"),
    schedule.EmailKind.REMINDER: gettext_lazy("Reminders before a deadline"),
    schedule.EmailKind.AUTO_MOVED: gettext_lazy("A move was played for you automatically"),
    schedule.EmailKind.GAME_STARTED: gettext_lazy("A game has started"),
    schedule.EmailKind.GAME_OVER: gettext_lazy("A game is over"),
    schedule.EmailKind.GAME_ENDED: gettext_lazy("A game was ended early"),
    schedule.EmailKind.DIGEST: gettext_lazy("The daily digest"),
    schedule.EmailKind.FOLLOWED: gettext_lazy("News of the games and players you follow"),
}
# Where each game news kind may go (``NotificationSettings.channels``).
CHANNEL_LABELS = {
    schedule.Channel.EMAIL: gettext_lazy("By email"),
    schedule.Channel.PUSH: gettext_lazy("By push message"),
    schedule.Channel.BOTH: gettext_lazy("Both"),
}
MODE_LABELS = {
    NotificationSettings.Mode.EACH_TURN: gettext_lazy("An email for each turn"),
    NotificationSettings.Mode.DIGEST: gettext_lazy("One daily digest"),
    NotificationSettings.Mode.OFF: gettext_lazy("No turn emails"),
}
_DATETIME_INPUT = "%Y-%m-%dT%H:%M"


class SettingsForm(forms.Form):
    mode = forms.ChoiceField(
        label=gettext_lazy("Turn emails"),
        choices=list(MODE_LABELS.items()),
        widget=forms.RadioSelect,
    )
    digest_hour = forms.TypedChoiceField(
        label=gettext_lazy("Hour of the daily digest (your time)"),
        choices=[(hour, f"{hour:02d}:00") for hour in range(24)],
        coerce=int,
    )
    reminder_leads = forms.CharField(
        label=gettext_lazy("Remind me this many hours before a deadline (comma-separated)"),
        required=False,
        max_length=100,
    )
    time_zone = forms.CharField(
        label=gettext_lazy("Time zone"),
        max_length=64,
        widget=forms.TextInput(attrs={"list": "time-zones", "autocomplete": "off"}),
    )
    quiet_start = forms.TimeField(
        label=gettext_lazy("Quiet hours start"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
    )
    quiet_end = forms.TimeField(
        label=gettext_lazy("Quiet hours end"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
    )
    language = forms.ChoiceField(
        label=gettext_lazy("Language of the pages and emails"),
        # Each language in its own name, as the switch on every page shows it.
        choices=[("", gettext_lazy("The browser's language"))]
        + [(code, get_language_info(code)["name_local"]) for code, _name in settings.LANGUAGES],
        required=False,
    )
    # Opt-in (off by default), so not one of the emails to switch off below.
    talk_emails = forms.BooleanField(
        label=gettext_lazy(
            "Email me the others' table talk as it comes, at most one email per game an hour"
        ),
        required=False,
    )
    unsubscribed = forms.MultipleChoiceField(
        label=gettext_lazy("Switch off these emails"),
        choices=list(EMAIL_KIND_LABELS.items()),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    # One choice per kind of game news: email, push or both (rendered as their own group).
    channel_field_names = [f"channel_{kind}" for kind in schedule.PUSH_KINDS]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for kind in schedule.PUSH_KINDS:
            # Not required: a form without them (an older page) leaves the channels alone.
            self.fields[f"channel_{kind}"] = forms.ChoiceField(
                label=EMAIL_KIND_LABELS[kind], choices=list(CHANNEL_LABELS.items()), required=False
            )

    def clean(self):
        super().clean()
        data = self.cleaned_data
        if (data.get("quiet_start") is None) != (data.get("quiet_end") is None):
            raise forms.ValidationError(
                _("Give both the start and the end of your quiet hours, or leave both empty.")
            )
        return data

    def changes(self) -> dict:
        """The form as ``do_update_settings`` takes it.

        Lead times are passed on as typed: a word stays a word, so that
        ``preferences.reminder_leads_problem`` (the one judge of lead times) explains it.
        """
        data = self.cleaned_data
        leads = [
            int(part) if re.fullmatch(r"[0-9]{1,6}", part) else part
            for part in re.split(r"[\s,;]+", data["reminder_leads"].strip())
            if part
        ]
        quiet = None
        if data["quiet_start"] is not None:
            quiet = (data["quiet_start"], data["quiet_end"])
        channels = {
            str(kind): data[f"channel_{kind}"]
            for kind in schedule.PUSH_KINDS
            if data.get(f"channel_{kind}")
        }
        return {
            **({"channels": channels} if channels else {}),
            "mode": data["mode"],
            "digest_hour": data["digest_hour"],
            "reminder_leads": leads,
            "time_zone": data["time_zone"].strip(),
            "quiet_hours": quiet,
            "unsubscribed": list(data["unsubscribed"]),
            "talk_emails": data["talk_emails"],
            "language": data["language"],
        }

    @classmethod
    def initial_for(cls, saved: NotificationSettings) -> dict:
        return {
            "language": saved.user.language,
            "mode": saved.mode,
            "digest_hour": saved.digest_hour,
            "reminder_leads": ", ".join(str(lead) for lead in saved.reminder_leads),
            "time_zone": saved.time_zone,
            "quiet_start": saved.quiet_start,
            "quiet_end": saved.quiet_end,
            "unsubscribed": list(saved.unsubscribed),
            "talk_emails": saved.wants(schedule.EmailKind.TABLE_TALK),
            **{f"channel_{kind}": saved.channel(kind) for kind in schedule.PUSH_KINDS},
        }


class DisplayNameForm(forms.Form):
    """The name others see, parsed only: ``preferences.do_update_settings`` (the same
    service the API's ``PATCH /api/me/settings/`` calls) judges it."""

    display_name = forms.CharField(
        label=gettext_lazy("Your name (empty: the first part of your address)"),
        required=False,
        # Longer than the rules allow, so that the service, not the browser, says why.
        max_length=200,
        strip=True,
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )


class VacationForm(forms.Form):
    """A vacation in the person's own time zone (the view parses under it)."""

    starts_at = forms.DateTimeField(
        label=gettext_lazy("From (empty: now)"),
        required=False,
        input_formats=[_DATETIME_INPUT],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=_DATETIME_INPUT),
    )
    ends_at = forms.DateTimeField(
        label=gettext_lazy("Until"),
        input_formats=[_DATETIME_INPUT],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=_DATETIME_INPUT),
    )


def _render(request, settings_form, vacation_form, name_form=None, *, status=200) -> HttpResponse:
    saved = preferences.settings_for(request.user)
    now = timezone.now()
    vacations = Vacation.objects.filter(user=request.user, ends_at__gt=now).order_by("starts_at")
    if name_form is None:
        name_form = DisplayNameForm(initial={"display_name": request.user.display_name})
    context = {
        "name_form": name_form,
        "public_name": request.user.public_name,
        "settings_form": settings_form,
        "vacation_form": vacation_form,
        "vacations": [
            {
                "id": v.id,
                "starts_at": v.starts_at,
                "ends_at": v.ends_at,
                "running": v.starts_at <= now,
            }
            for v in vacations
        ],
        "zone": saved.zone.key,
        "zones": schedule.known_time_zones(),
        "allowance": settings.VACATION_DAYS_PER_YEAR,
        # The settings page's "Notify me on this device" subscribes with it (docs/push.md).
        "vapid_public_key": settings.VAPID_PUBLIC_KEY,
    }
    return render(request, "accounts/settings.html", context, status=status)


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def settings_page(request: AuthenticatedHttpRequest) -> HttpResponse:
    """GET: the forms, filled with the saved settings. POST (``form`` says which): set the
    name others see, save the settings, add a vacation, or end/cancel one; then back here
    (POST-redirect-GET); or sign out everywhere, then to the login page; or ask for the
    link that deletes the account (``accounts.erasure``), then back here.
    A refused change shows the reason, keeps what was typed and changes nothing (400)."""
    saved = preferences.settings_for(request.user)
    settings_form = SettingsForm(initial=SettingsForm.initial_for(saved))
    vacation_form = VacationForm()
    if request.method != "POST":
        return _render(request, settings_form, vacation_form)

    which = request.POST.get("form")
    now = timezone.now()
    if which == "settings":
        settings_form = SettingsForm(request.POST)
        if settings_form.is_valid():
            try:
                # The User itself, not the request's lazy wrapper: the action writes
                # the language through the person's model class.
                person = User.objects.get(pk=request.user.pk)
                preferences.do_update_settings(person, settings_form.changes(), now=now)
            except ServiceError as refused:
                settings_form.add_error(None, refused.detail)
            else:
                messages.success(request, _("Your settings are saved."))
                return redirect("settings-page")
        return _render(request, settings_form, vacation_form, status=400)
    if which == "display_name":
        return _change_display_name(request, settings_form, vacation_form, now=now)
    if which == "vacation":
        # The person types their own wall-clock times.
        with timezone.override(saved.zone):
            vacation_form = VacationForm(request.POST)
            valid = vacation_form.is_valid()
        if valid:
            try:
                preferences.do_add_vacation(
                    request.user,
                    vacation_form.cleaned_data["starts_at"],
                    vacation_form.cleaned_data["ends_at"],
                    now=now,
                )
            except ServiceError as refused:
                vacation_form.add_error(None, refused.detail)
            else:
                messages.success(request, _("Your vacation is saved."))
                return redirect("settings-page")
        return _render(request, settings_form, vacation_form, status=400)
    if which == "end_vacation":
        try:
            vacation_id = forms.IntegerField().clean(request.POST.get("vacation"))
            preferences.do_end_vacation(request.user, vacation_id, now=now)
        except forms.ValidationError:
            messages.error(request, _("You have no vacation with this id."))
        except ServiceError as refused:
            messages.error(request, refused.detail)
        else:
            messages.success(request, _("Your vacation is ended or cancelled."))
        return redirect("settings-page")
    if which == "sign_out_everywhere":
        return _sign_out_everywhere(request)
    if which == "delete_account":
        # The same answer whether or not a link went out (the hourly cap).
        request_erasure(request.user)
        messages.success(request, _(ERASURE_ASKED))
        return redirect("settings-page")
    messages.error(request, _("Nothing was changed: the form sent was not recognised."))
    return redirect("settings-page")


def _change_display_name(
    request: AuthenticatedHttpRequest, settings_form, vacation_form, *, now
) -> HttpResponse:
    """Set the name others see through ``do_update_settings`` (its refusal, a sentence,
    shown at the field with what was typed kept, 400); then back to the page."""
    name_form = DisplayNameForm(request.POST)
    if name_form.is_valid():
        try:
            person = User.objects.get(pk=request.user.pk)
            preferences.do_update_settings(
                person, {"display_name": name_form.cleaned_data["display_name"]}, now=now
            )
        except ServiceError as refused:
            name_form.add_error("display_name", refused.detail)
        else:
            messages.success(
                request,
                _("Other players now see you as %(name)s.") % {"name": person.public_name},
            )
            return redirect("settings-page")
    return _render(request, settings_form, vacation_form, name_form, status=400)


def _sign_out_everywhere(request: AuthenticatedHttpRequest) -> HttpResponse:
    """End every sign-in of the person (``do_sign_out_everywhere``), this browser's too,
    and say so on the login page."""
    do_sign_out_everywhere(request.user)
    logout(request)  # this session is invalid now anyway: a clean new one for the message
    messages.success(
        request,
        _(
            "You are signed out everywhere: on every browser, and the links of the game "
            "emails sent so far no longer sign in. Ask for a login link to sign in again."
        ),
    )
    return redirect("accounts:login")


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def api_keys_page(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The person's API keys (``accounts.api_keys``, as ``/api/me/api-keys/``): the list
    (name, prefix, created, last used); POST ``form=create`` with a name makes one and
    answers this page with the key itself, once, in the body of that answer only (never in
    the session, a URL or a log; ``never_cache`` sends ``Cache-Control: no-store``);
    POST ``form=revoke`` with ``key`` deletes one, then back here. A refusal (a bad name,
    a sixth key) is the service's sentence at the form, 400."""
    name_error = None
    new_key = None
    status = 200
    if request.method == "POST":
        which = request.POST.get("form")
        if which == "revoke":
            try:
                key_id = forms.IntegerField().clean(request.POST.get("key"))
                api_keys.do_delete_api_key(request.user, key_id)
            except forms.ValidationError:
                messages.error(request, _("You have no API key with that id."))
            except ServiceError as refused:
                messages.error(request, refused.detail)
            else:
                messages.success(request, _("The API key is revoked: it no longer works."))
            return redirect("settings-api-keys")
        if which != "create":
            messages.error(request, _("Nothing was changed: the form sent was not recognised."))
            return redirect("settings-api-keys")
        try:
            token, key = api_keys.do_create_api_key(request.user, request.POST.get("name", ""))
        except ServiceError as refused:
            name_error, status = refused.detail, 400
        else:
            new_key = {"name": token.name, "key": key}
    keys = list(api_keys.keys_of(request.user))
    context = {
        "keys": keys,
        "new_key": new_key,
        "name_error": name_error,
        # What was typed comes back after a refusal; after a success the field is empty.
        "typed_name": request.POST.get("name", "") if name_error else "",
        "max_keys": ApiToken.MAX_PER_USER,
        "max_name_length": ApiToken.MAX_NAME_LENGTH,
        "zone": preferences.settings_for(request.user).zone.key,
    }
    return render(request, "accounts/api_keys.html", context, status=status)
