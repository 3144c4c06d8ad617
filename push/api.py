"""``/api/me/push-subscriptions/``: the browsers the caller gets push messages on.

The settings page's "Notify me on this device" posts the browser's
``PushSubscription.toJSON()`` here; a program may too. Listed by push service only (the
rest of the endpoint names the device).
"""

from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.api import StrictFieldsMixin
from accounts.throttling import UserRateThrottle
from core.api.body import validated_body
from core.api.errors import ApiError, refused
from core.api.fields import StrictCharField, StrictIntegerField
from core.errors import ServiceError
from core.outbound.transport import URL_PATTERN

from . import actions
from .models import MAX_ENDPOINT_LENGTH, PushSubscription


class PushKeysSerializer(StrictFieldsMixin, serializers.Serializer):
    p256dh = StrictCharField(
        max_length=100, help_text="The browser's P-256 public key, uncompressed, base64url."
    )
    auth = StrictCharField(max_length=50, help_text="The browser's 16-byte secret, base64url.")


# The schema's pattern is the one of every outbound post's URL (``PUSH_POSTS.check_url``);
# every endpoint the service accepts matches it (tests/push/test_endpoint_schema.py).
@extend_schema_field({"type": "string", "pattern": URL_PATTERN})
class _EndpointField(StrictCharField):
    pass


class PushSubscriptionCreateSerializer(StrictFieldsMixin, serializers.Serializer):
    """What ``PushSubscription.toJSON()`` gives in a browser."""

    endpoint = _EndpointField(
        max_length=MAX_ENDPOINT_LENGTH,
        # Refused with its spaces, not trimmed: the schema's pattern admits none.
        trim_whitespace=False,
        help_text="The push service's URL for this browser: https:// on a public host.",
    )
    expirationTime = StrictIntegerField(  # the browser's own name
        required=False, allow_null=True, help_text="The browser's; ignored."
    )
    keys = PushKeysSerializer()


class PushSubscriptionSerializer(serializers.ModelSerializer):
    push_service = serializers.CharField(
        source="origin", help_text="The push service's origin (scheme://host)."
    )

    class Meta:
        model = PushSubscription
        fields = ["id", "push_service", "created_at", "last_used_at"]


_Error = inline_serializer(
    "PushError", {"code": serializers.CharField(), "detail": serializers.CharField()}
)
_NOT_AUTHENTICATED = OpenApiResponse(_Error, description="`not_authenticated`.")
_DESCRIPTION = (
    "The browsers you get push messages on (game news whose channel is push or both in "
    "your settings' `channels`). A push message says which game and opens its page; it "
    "holds no hidden information and no link that signs in."
)


def _refused(error: ServiceError) -> ApiError:
    """``invalid`` 400, ``not_found`` 404, ``conflict`` 409 (``STATUS_OF_CODE``)."""
    return refused(error)


class PushSubscribeThrottle(UserRateThrottle):
    """Subscribing resolves a host name the caller chose (``push.endpoints``): at most
    ``DEFAULT_THROTTLE_RATES["push_subscriptions"]`` (``API_THROTTLE_PUSH_SUBSCRIPTIONS``,
    30 an hour) tries per user, refused ones included, so the service is nobody's DNS
    prober, as for webhooks. On ``POST`` only; every request also counts against the
    user's own budget."""

    scope = "push_subscriptions"

    def allow_request(self, request, view) -> bool:
        return request.method != "POST" or super().allow_request(request, view)


class MyPushSubscriptionsView(APIView):
    throttle_classes = [UserRateThrottle, PushSubscribeThrottle]

    @extend_schema(
        operation_id="me_push_subscriptions_list",
        summary="Your push subscriptions",
        description=_DESCRIPTION,
        request=None,
        responses={200: PushSubscriptionSerializer(many=True), 401: _NOT_AUTHENTICATED},
        tags=["me"],
    )
    def get(self, request):
        rows = PushSubscription.objects.filter(user=request.user)
        return Response(PushSubscriptionSerializer(rows, many=True).data)

    @extend_schema(
        operation_id="me_push_subscriptions_create",
        summary="Get push messages on a browser",
        description=_DESCRIPTION
        + " Posting an endpoint you have already updates its keys (200); a new one is 201.",
        request=PushSubscriptionCreateSerializer,
        responses={
            200: PushSubscriptionSerializer,
            201: PushSubscriptionSerializer,
            400: OpenApiResponse(
                _Error,
                description="`invalid`: an endpoint that is not https:// (or too long), keys "
                "that are not a browser's, or an unknown field.",
            ),
            401: _NOT_AUTHENTICATED,
            409: OpenApiResponse(_Error, description="`conflict`: 10 devices already."),
        },
        tags=["me"],
    )
    def post(self, request):
        data = validated_body(PushSubscriptionCreateSerializer, request)
        try:
            row, created = actions.do_subscribe(
                request.user, data["endpoint"], data["keys"]["p256dh"], data["keys"]["auth"]
            )
        except ServiceError as error:
            raise _refused(error) from None
        return Response(
            PushSubscriptionSerializer(row).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class MyPushSubscriptionView(APIView):
    @extend_schema(
        operation_id="me_push_subscriptions_destroy",
        summary="Stop push messages on a browser",
        description=_DESCRIPTION,
        request=None,
        responses={
            204: None,
            401: _NOT_AUTHENTICATED,
            404: OpenApiResponse(_Error, description="`not_found`: not one of yours."),
        },
        tags=["me"],
    )
    def delete(self, request, subscription_id: int):
        try:
            actions.do_unsubscribe(request.user, subscription_id)
        except ServiceError as error:
            raise _refused(error) from None
        return Response(status=status.HTTP_204_NO_CONTENT)
