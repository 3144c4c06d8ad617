"""REST endpoints of a person: asking for a login link, and the caller's own settings.

``POST /api/auth/login-link/``; ``/api/me/settings/``, ``/api/me/vacations/`` and
``/api/me/api-keys/``.
"""

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from django.conf import settings as django_settings
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from core.api.body import validated_body
from core.api.errors import ApiError, refused
from core.api.fields import (
    BoundedListField,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    StrictSerializer,
    more_unknown_fields,
    unknown_fields,
)
from core.errors import ServiceError

from . import api_keys, display_names, preferences, schedule
from .login_links import MAX_NEXT_LENGTH, request_login_link
from .models import ApiToken, NotificationSettings, Vacation
from .throttling import SCOPE, LoginLinkThrottle

if TYPE_CHECKING:
    # What the mixin is mixed into, for the type checker; at run time it is a plain mixin.
    _SerializerBase = serializers.Serializer
else:
    _SerializerBase = object


class StrictFieldsMixin(_SerializerBase):
    """docs/api.md "Errors": unknown fields are a malformed body, not silently dropped."""

    rejects_unknown_fields = True  # the schema says additionalProperties: false

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            named, count = unknown_fields(data, self.fields)
            if named:
                errors = {name: [_("Unknown field.")] for name in named}
                if count > len(named):  # named are a few; the rest are counted
                    errors[api_settings.NON_FIELD_ERRORS_KEY] = [
                        more_unknown_fields(count - len(named))
                    ]
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)


# Marked for translation here (gettext_noop), translated per request where it is sent.
ACCEPTED = gettext_noop("If the address can receive mail, a login link is on its way.")


class StrictEmailField(StrictCharField, serializers.EmailField):
    """An email address that must arrive as a JSON string."""


@extend_schema_serializer(component_name="LoginLink")  # "LoginLinkRequest" in the schema
class LoginLinkRequestSerializer(StrictFieldsMixin, serializers.Serializer):
    email = StrictEmailField(max_length=254, help_text="Where to send the link.")
    next = StrictCharField(
        required=False,
        allow_blank=True,
        max_length=MAX_NEXT_LENGTH,
        help_text='A path on this site to open after logging in, e.g. "/games/7/". '
        "Anything else is ignored and the link leads to the home page.",
    )


_Error = inline_serializer(
    "LoginLinkError", {"code": serializers.CharField(), "detail": serializers.CharField()}
)


class LoginLinkView(APIView):
    # Anyone may ask, logged in or not; no authentication also means no session CSRF check.
    authentication_classes = []
    permission_classes = [AllowAny]
    # Explicit, not from DEFAULT_THROTTLE_CLASSES: this limit must hold whatever the defaults.
    throttle_classes = [LoginLinkThrottle]
    throttle_scope = SCOPE

    @extend_schema(
        operation_id="auth_login_link",
        summary="Email a login link",
        description=(
            "Sends a single-use link that logs a browser in (creating the account on first "
            "use). The answer is 202 with the same body for every well-formed address, "
            "known or not and whether or not an email actually goes out (at most "
            "LOGIN_LINKS_PER_ADDRESS_PER_HOUR per address), so it reveals nothing about "
            "accounts. Throttled per client address (behind a proxy: as TRUSTED_PROXIES report "
            "it), shared with the web form."
        ),
        request=LoginLinkRequestSerializer,
        responses={
            202: OpenApiResponse(
                inline_serializer("LoginLinkAccepted", {"detail": serializers.CharField()}),
                examples=[OpenApiExample("accepted", value={"detail": ACCEPTED})],
            ),
            400: OpenApiResponse(_Error, description="`invalid`: malformed body or address."),
            429: OpenApiResponse(_Error, description="`throttled`: too many requests."),
        },
        tags=["auth"],
    )
    def post(self, request):
        serializer = LoginLinkRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        request_login_link(
            serializer.validated_data["email"], serializer.validated_data.get("next", "")
        )
        return Response({"detail": _(ACCEPTED)}, status=status.HTTP_202_ACCEPTED)


# --- /api/me/: the caller's own notification settings and vacations -------------------------


# A local wall-clock time as the API writes and reads it: two ASCII digits of hour
# (00-23), a colon, two of minute. The schema says this pattern (its "time" format would
# be RFC 3339's "23:00:00Z"), and the field refuses what it does not match: strptime's
# "%H:%M" alone also took "7:5".
CLOCK_TIME_PATTERN = r"^([01][0-9]|2[0-3]):[0-5][0-9]$"


@extend_schema_field({"type": "string", "pattern": CLOCK_TIME_PATTERN, "example": "23:00"})
class ClockTimeField(serializers.TimeField):
    """A local time of day as ``"HH:MM"`` (``CLOCK_TIME_PATTERN``), read as a ``time``."""

    def __init__(self, **kwargs):
        super().__init__(format="%H:%M", input_formats=["%H:%M"], **kwargs)

    def to_internal_value(self, value):
        if not isinstance(value, str) or re.fullmatch(CLOCK_TIME_PATTERN, value) is None:
            self.fail("invalid", format="hh:mm")
        return super().to_internal_value(value)


class QuietHoursSerializer(StrictFieldsMixin, serializers.Serializer):
    """Quiet hours: a start and an end, local times; nothing else."""

    start = ClockTimeField(help_text='Local time, "HH:MM".')
    end = ClockTimeField(
        help_text='Local time, "HH:MM"; earlier than start wraps midnight (23:00-07:00).',
    )

    def validate(self, attrs):
        # Checked here, not by required=True: a PATCH makes nested fields optional too.
        if "start" not in attrs or "end" not in attrs:
            raise serializers.ValidationError(_("Quiet hours need both a start and an end."))
        if attrs["start"] == attrs["end"]:
            raise serializers.ValidationError(
                _("Quiet hours must start and end at different times.")
            )
        return attrs


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "integer", "minimum": 1, "maximum": preferences.MAX_REMINDER_LEAD_HOURS},
        "maxItems": preferences.MAX_REMINDER_LEADS,
        "uniqueItems": True,  # the schema says "distinct", as the service does
    }
)
class _ReminderLeadsField(BoundedListField):
    pass


class _ChannelField(serializers.ChoiceField):
    def __init__(self, **kwargs) -> None:
        super().__init__(choices=[str(channel) for channel in schedule.Channel], **kwargs)
        self.required = False


class ChannelsSerializer(StrictFieldsMixin, serializers.Serializer):
    """Where each kind of game news goes: by email, push (to the devices subscribed at
    ``/api/me/push-subscriptions/``) or both. A PATCH changes only the kinds it names."""

    your_turn = _ChannelField()
    reminder = _ChannelField()
    auto_moved = _ChannelField()
    game_started = _ChannelField()
    game_over = _ChannelField()
    game_ended = _ChannelField()


class NotificationSettingsSerializer(StrictFieldsMixin, serializers.Serializer):
    """The person's notification settings; in a PATCH every field is optional."""

    mode = serializers.ChoiceField(
        choices=NotificationSettings.Mode.choices,
        help_text="each_turn: an email per turn and reminders; digest: at most one email a "
        "day listing the games waiting for you; off: no turn emails (game news still comes).",
    )
    digest_hour = StrictIntegerField(
        min_value=0, max_value=23, help_text="Local hour of the daily digest (0-23)."
    )
    reminder_leads = _ReminderLeadsField(
        child=serializers.IntegerField(min_value=1, max_value=preferences.MAX_REMINDER_LEAD_HOURS),
        max_length=preferences.MAX_REMINDER_LEADS,
        help_text="Hours before a deadline at which to remind you: 0-3 distinct whole numbers, "
        "1-720. A lead longer than the turn is skipped.",
    )
    time_zone = serializers.CharField(
        max_length=64, help_text='An IANA time zone, e.g. "Europe/Berlin".'
    )
    quiet_hours = QuietHoursSerializer(
        allow_null=True,
        help_text="No turn email or reminder is sent, and no deadline falls, inside them; "
        "null for none.",
    )
    unsubscribed = BoundedListField(
        child=serializers.ChoiceField(
            choices=[str(kind) for kind in schedule.UNSUBSCRIBABLE_KINDS]
        ),
        # No more than there are kinds to switch off (each is kept once).
        max_length=len(schedule.UNSUBSCRIBABLE_KINDS),
        help_text="Kinds of email switched off (e.g. by one-click unsubscribe). Invitations, "
        "cancellations and login links cannot be switched off.",
    )
    talk_emails = StrictBooleanField(
        help_text="true: the others' table talk by email as it comes, at most one email per "
        "game an hour (off by default; the table_talk email's unsubscribe link sets it false)."
    )
    channels = ChannelsSerializer(
        help_text='Where each kind of game news goes: "email", "push" or "both" (push: to '
        "the devices subscribed at /api/me/push-subscriptions/; none subscribed: nothing). "
        "A PATCH changes only the kinds it names."
    )
    next_digest_at = serializers.DateTimeField(
        read_only=True, allow_null=True, help_text="When the next digest is due (digest mode)."
    )
    language = serializers.ChoiceField(
        choices=[("", "")] + list(django_settings.LANGUAGES),
        allow_blank=True,
        help_text='The language of your pages, emails and API error details ("en", "de"); '
        '"" follows your browser (pages) and English (emails).',
    )
    display_name = StrictCharField(
        allow_null=True,
        min_length=1,
        max_length=display_names.MAX_LENGTH,
        help_text="The name other players see everywhere; null: the name derived from your "
        'address (its first part, numbered as "anna 2" when someone else is shown by it). '
        "1-40 characters (spaces around it are dropped), no @, no control or invisible "
        "characters, and not a name another person is shown by, chosen or derived, in any "
        "case or Unicode compatibility form (a fullwidth or ligature spelling): `invalid` "
        "with a sentence.",
    )

    def validate_time_zone(self, value: str) -> str:
        if not schedule.is_time_zone(value):
            raise serializers.ValidationError(
                _("%(zone)r is not a known time zone; use an IANA name such as Europe/Berlin.")
                % {"zone": value}
            )
        return value

    def validate_reminder_leads(self, value: list[int]) -> list[int]:
        # The raw input, strictly: "24" or 2.0 are not hours, even if they could be coerced.
        problem = preferences.reminder_leads_problem(self.initial_data.get("reminder_leads"))
        if problem:
            raise serializers.ValidationError(problem)
        return value

    def to_representation(self, instance: NotificationSettings) -> dict:
        quiet = None
        if instance.quiet_start is not None and instance.quiet_end is not None:
            quiet = {"start": instance.quiet_start, "end": instance.quiet_end}
        return super().to_representation(
            {
                "mode": instance.mode,
                "digest_hour": instance.digest_hour,
                "reminder_leads": instance.reminder_leads,
                "time_zone": instance.time_zone,
                "quiet_hours": quiet,
                "unsubscribed": instance.unsubscribed,
                "talk_emails": instance.talk_emails,
                "channels": {
                    str(kind): str(instance.channel(kind)) for kind in schedule.PUSH_KINDS
                },
                "next_digest_at": instance.next_digest_at,
                "language": instance.user.language,
                "display_name": instance.user.display_name or None,
            }
        )


class VacationSerializer(StrictFieldsMixin, serializers.ModelSerializer):
    starts_at = serializers.DateTimeField(
        required=False, help_text="When it starts (UTC or with an offset); omitted: now."
    )
    ends_at = serializers.DateTimeField(help_text="When it ends; must be in the future.")
    running = serializers.SerializerMethodField(help_text="Has it started and not ended yet?")

    class Meta:
        model = Vacation
        fields = ["id", "starts_at", "ends_at", "running", "created_at"]
        read_only_fields = ["id", "created_at"]

    def get_running(self, vacation: Vacation) -> bool:
        return vacation.starts_at <= timezone.now() < vacation.ends_at


class VacationListSerializer(serializers.Serializer):
    allowance_days = serializers.IntegerField(
        help_text="Vacation days allowed in any rolling 365 days (VACATION_DAYS_PER_YEAR)."
    )
    vacations = VacationSerializer(
        many=True, help_text="Your vacations that are running, planned or ended within a year."
    )


_MeError = inline_serializer(
    "MeError", {"code": serializers.CharField(), "detail": serializers.CharField()}
)
_NOT_AUTHENTICATED = OpenApiResponse(_MeError, description="`not_authenticated`.")


def _invalid(error: ServiceError) -> ApiError:
    """The answer to a refused request: its code's status (``invalid`` 400, ``not_found``
    404, ``conflict`` 409)."""
    return refused(error)


class MySettingsView(APIView):
    @extend_schema(
        operation_id="me_settings_read",
        request=None,
        summary="Your notification settings",
        responses={200: NotificationSettingsSerializer, 401: _NOT_AUTHENTICATED},
        tags=["me"],
    )
    def get(self, request):
        settings = preferences.settings_for(request.user)
        return Response(NotificationSettingsSerializer(settings).data)

    @extend_schema(
        operation_id="me_settings_update",
        summary="Change your notification settings",
        description=(
            "Changes only the fields given. A refused change (`invalid`: an unknown time "
            "zone, quiet hours that start when they end or are not HH:MM, lead times out "
            "of range or repeated, a display name of the wrong form or another player's, "
            "an unknown field) changes nothing. The next digest time "
            "is recomputed when the mode, digest hour or time zone change."
        ),
        request=NotificationSettingsSerializer(partial=True),
        responses={
            200: NotificationSettingsSerializer,
            400: OpenApiResponse(_MeError, description="`invalid`: see the description."),
            401: _NOT_AUTHENTICATED,
        },
        tags=["me"],
    )
    def patch(self, request):
        serializer = NotificationSettingsSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        changes = dict(serializer.validated_data)
        if "quiet_hours" in changes and changes["quiet_hours"] is not None:
            changes["quiet_hours"] = (
                changes["quiet_hours"]["start"],
                changes["quiet_hours"]["end"],
            )
        try:
            settings = preferences.do_update_settings(request.user, changes, now=timezone.now())
        except ServiceError as error:
            raise _invalid(error) from None
        return Response(NotificationSettingsSerializer(settings).data)


class MyVacationsView(APIView):
    @extend_schema(
        operation_id="me_vacations_list",
        request=None,
        summary="Your vacations",
        responses={200: VacationListSerializer, 401: _NOT_AUTHENTICATED},
        tags=["me"],
    )
    def get(self, request):
        since = timezone.now() - preferences.YEAR
        vacations = Vacation.objects.filter(user=request.user, ends_at__gt=since)
        body = {"allowance_days": django_settings.VACATION_DAYS_PER_YEAR, "vacations": vacations}
        return Response(VacationListSerializer(body).data)

    @extend_schema(
        operation_id="me_vacations_create",
        summary="Declare a vacation",
        description=(
            "While a vacation runs, your turn deadlines are paused (the clock resumes with "
            "the time that was left) and other players see you are away until its end. "
            "Refused with `400 invalid` if it ends before it starts or is already over, "
            "starts in the past, starts more than a year ahead or is longer than "
            "VACATION_DAYS_PER_YEAR days; with `409 conflict` if it overlaps another of "
            "your vacations, or would put more than VACATION_DAYS_PER_YEAR days of vacation "
            "(past, running and planned) into any rolling 365 days."
        ),
        request=VacationSerializer,
        responses={
            201: VacationSerializer,
            400: OpenApiResponse(_MeError, description="`invalid`: see the description."),
            401: _NOT_AUTHENTICATED,
            409: OpenApiResponse(_MeError, description="`conflict`: see the description."),
        },
        tags=["me"],
    )
    def post(self, request):
        serializer = VacationSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            vacation = preferences.do_add_vacation(
                request.user, data.get("starts_at"), data["ends_at"], now=timezone.now()
            )
        except ServiceError as error:
            raise _invalid(error) from None
        return Response(VacationSerializer(vacation).data, status=status.HTTP_201_CREATED)


class MyVacationView(APIView):
    @extend_schema(
        operation_id="me_vacations_end",
        summary="End or cancel a vacation",
        description=(
            "A running vacation ends now (only the time taken counts against the "
            "allowance); a planned one is removed. `409 conflict` if it is over already."
        ),
        request=None,
        responses={
            204: None,
            401: _NOT_AUTHENTICATED,
            404: OpenApiResponse(_MeError, description="`not_found`: not one of yours."),
            409: OpenApiResponse(_MeError, description="`conflict`: it is over already."),
        },
        tags=["me"],
    )
    def delete(self, request, vacation_id: int):
        try:
            preferences.do_end_vacation(request.user, vacation_id, now=timezone.now())
        except ServiceError as error:
            raise _invalid(error) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- /api/me/api-keys/: the caller's own API keys -------------------------------------------


class ApiKeySerializer(serializers.ModelSerializer):
    """One of the caller's keys, as the list shows it: never the key, only its prefix."""

    class Meta:
        model = ApiToken
        fields = ["id", "name", "prefix", "created_at", "last_used_at"]
        extra_kwargs = {
            "prefix": {"help_text": "The key's first characters, to tell keys apart."},
            "last_used_at": {"help_text": "When it was last used (to the hour); null: never."},
        }


class ApiKeyCreatedSerializer(ApiKeySerializer):
    key = serializers.CharField(
        help_text="The key itself, for `Authorization: Token <key>`. Shown only here, once: "
        "only its hash is stored."
    )

    class Meta(ApiKeySerializer.Meta):
        fields = [*ApiKeySerializer.Meta.fields, "key"]


class ApiKeyCreateSerializer(StrictSerializer):
    name = StrictCharField(
        max_length=ApiToken.MAX_NAME_LENGTH,
        help_text="What the key is for, e.g. the program that will use it (1-60 characters; "
        "no control characters).",
    )


_KEYS_DESCRIPTION = (
    "Your own API keys: at most 5 (`409 conflict` for a sixth). A key is shown once, in the "
    "answer that makes it; deleting one (the one this request uses too) stops it working at "
    "once. An operator's `manage.py issue_token` replaces them all with one."
)


class MyApiKeysView(APIView):
    @extend_schema(
        operation_id="me_api_keys_list",
        request=None,
        summary="Your API keys",
        description=_KEYS_DESCRIPTION,
        responses={200: ApiKeySerializer(many=True), 401: _NOT_AUTHENTICATED},
        tags=["me"],
    )
    def get(self, request):
        return Response(ApiKeySerializer(api_keys.keys_of(request.user), many=True).data)

    @extend_schema(
        operation_id="me_api_keys_create",
        summary="Make a new API key",
        description=_KEYS_DESCRIPTION,
        request=ApiKeyCreateSerializer,
        responses={
            201: ApiKeyCreatedSerializer,
            400: OpenApiResponse(
                _MeError,
                description="`invalid`: a missing, blank or over-long name, one with control "
                "characters, or an unknown field.",
            ),
            401: _NOT_AUTHENTICATED,
            409: OpenApiResponse(_MeError, description="`conflict`: you have 5 keys already."),
        },
        tags=["me"],
    )
    def post(self, request):
        data = validated_body(ApiKeyCreateSerializer, request)
        try:
            token, key = api_keys.do_create_api_key(request.user, data["name"])
        except ServiceError as error:
            raise _invalid(error) from None
        # ApiKeyCreatedSerializer documents this answer: the key's row and, once, the key.
        response = Response(
            {**ApiKeySerializer(token).data, "key": key}, status=status.HTTP_201_CREATED
        )
        # A live credential: no cache on the way (a proxy, the browser's) may keep a copy.
        add_never_cache_headers(response)
        return response


class MyApiKeyView(APIView):
    @extend_schema(
        operation_id="me_api_keys_destroy",
        summary="Delete one of your API keys",
        description=_KEYS_DESCRIPTION,
        request=None,
        responses={
            204: None,
            401: _NOT_AUTHENTICATED,
            404: OpenApiResponse(_MeError, description="`not_found`: not one of your keys."),
        },
        tags=["me"],
    )
    def delete(self, request, key_id: int):
        try:
            api_keys.do_delete_api_key(request.user, key_id)
        except ServiceError as error:
            raise _invalid(error) from None
        return Response(status=status.HTTP_204_NO_CONTENT)
