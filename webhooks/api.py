"""``/api/games/{id}/webhooks/``: a player's webhooks for one game: list, add, delete."""

from django.utils.cache import add_never_cache_headers
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.decorators import api_view, throttle_classes
from rest_framework.response import Response

from accounts.throttling import UserRateThrottle
from core.api.body import validated_body
from core.api.errors import STATUS_OF_CODE, ApiError
from core.api.fields import ErrorSerializer, StrictCharField, StrictSerializer
from core.errors import ServiceError
from core.outbound.transport import URL_PATTERN

from . import actions
from .models import Webhook, WebhookKind
from .signing import SIGNATURE_HEADER

_DESCRIPTION = (
    "Every applied move and the game's end are posted to your webhooks: whose turn it is, "
    "the deadline and a link to the table, never hidden information (in a blind game the "
    'move only by its kind). `discord` posts `{"content": …}`, `slack` `{"text": …}`, '
    "`json` the event as data, signed: the header `" + SIGNATURE_HEADER + ": t=<unix "
    'seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed with the secret>`; reject a post '
    "whose `t` is more than 5 minutes from your clock. The secret is shown once, in the "
    "answer that creates the webhook. Only `https://` URLs to public addresses. Posts are "
    "retried with a growing backoff; after repeated permanent failures (a 4xx answer "
    "other than 408/429, a refused address) the webhook is disabled and "
    "`disabled_reason` says why. Each player sees and deletes only their own webhooks."
)
_NOT_A_PLAYER = OpenApiResponse(
    ErrorSerializer, description="`not_a_player`: staff without a seat in the game."
)


class WebhookCreateThrottle(UserRateThrottle):
    """Adding a webhook resolves a host name the caller chose: at most
    ``DEFAULT_THROTTLE_RATES["webhooks"]`` (``API_THROTTLE_WEBHOOKS``, 30 an hour) tries per
    user, refused ones included, so the service is nobody's DNS prober. A budget of its
    own (scope), on ``POST`` only; every request also counts against the user's own."""

    scope = "webhooks"

    def allow_request(self, request, view) -> bool:
        return request.method != "POST" or super().allow_request(request, view)


def _refused(error: ServiceError) -> ApiError:
    return ApiError(STATUS_OF_CODE[error.code], error.code, error.detail)


# The schema's pattern is the one of every outbound post's URL (``WEBHOOK_POSTS.check_url``);
# every URL the service accepts matches it (tests/webhooks/test_api.py).
@extend_schema_field({"type": "string", "pattern": URL_PATTERN})
class _UrlField(StrictCharField):
    pass


class WebhookCreateSerializer(StrictSerializer):
    """A webhook to add: its kind and the URL to post to."""

    kind = serializers.ChoiceField(choices=WebhookKind.choices)
    url = _UrlField(
        max_length=Webhook.MAX_URL_LENGTH,
        trim_whitespace=False,
        help_text="Where to post: `https://…`, a host with public addresses, no user or "
        "password in it.",
    )


class WebhookSerializer(serializers.ModelSerializer):
    url = serializers.CharField(
        source="masked_url",
        help_text="The URL without its path (it holds a chat's token): `https://host/…`.",
    )
    enabled = serializers.BooleanField()

    class Meta:
        model = Webhook
        fields = [
            "id",
            "kind",
            "url",
            "enabled",
            "created_at",
            "disabled_at",
            "disabled_reason",
            "consecutive_failures",
        ]


class WebhookCreatedSerializer(WebhookSerializer):
    secret = serializers.SerializerMethodField(
        help_text="The signing secret (kind `json`; null for the others). Shown only here, "
        "once: it is not stored."
    )

    class Meta(WebhookSerializer.Meta):
        fields = [*WebhookSerializer.Meta.fields, "secret"]

    def get_secret(self, webhook) -> str | None:
        return self.context["secret"] if webhook.kind == WebhookKind.JSON else None


@extend_schema(
    methods=["GET"],
    summary="Your webhooks for this game",
    description=_DESCRIPTION,
    responses={200: WebhookSerializer(many=True), 403: _NOT_A_PLAYER},
)
@extend_schema(
    methods=["POST"],
    summary="Add a webhook to this game",
    description=_DESCRIPTION,
    request=WebhookCreateSerializer,
    responses={
        201: WebhookCreatedSerializer,
        400: OpenApiResponse(
            ErrorSerializer,
            description="`invalid`: an unknown kind, a URL that is not https, has a user "
            "or password, is too long, or whose host resolves to an address that is not "
            "public.",
        ),
        403: _NOT_A_PLAYER,
        409: OpenApiResponse(
            ErrorSerializer,
            description="`game_not_active`: the game has ended; `conflict`: the "
            "game has its maximum of webhooks (`WEBHOOKS_PER_GAME`).",
        ),
        429: OpenApiResponse(
            ErrorSerializer,
            description="`throttled`: too many requests, or more webhooks tried than "
            "`API_THROTTLE_WEBHOOKS` allows (30 an hour by default; refused ones count).",
        ),
    },
)
@api_view(["GET", "POST"])
@throttle_classes([UserRateThrottle, WebhookCreateThrottle])
def webhooks(request, game_id):
    if request.method == "GET":
        try:
            listed = list(actions.webhooks_of(game_id, request.user))
        except ServiceError as error:
            raise _refused(error) from None
        return Response(WebhookSerializer(listed, many=True).data)
    data = validated_body(WebhookCreateSerializer, request)
    try:
        webhook, secret = actions.do_add_webhook(game_id, request.user, **data)
    except ServiceError as error:
        raise _refused(error) from None
    data = WebhookCreatedSerializer(webhook, context={"secret": secret}).data
    response = Response(data, status=status.HTTP_201_CREATED)
    # It holds the signing secret: no cache on the way (a proxy, a browser's) may keep it.
    add_never_cache_headers(response)
    return response


@extend_schema(
    summary="Delete one of your webhooks",
    responses={204: None, 403: _NOT_A_PLAYER},
)
@api_view(["DELETE"])
def webhook_detail(request, game_id, webhook_id):
    try:
        actions.do_delete_webhook(game_id, request.user, webhook_id)
    except ServiceError as error:
        raise _refused(error) from None
    return Response(status=status.HTTP_204_NO_CONTENT)
