"""REST endpoint for asking for a login link by email (``POST /api/auth/login-link/``)."""

from collections.abc import Mapping

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from .login_links import MAX_NEXT_LENGTH, request_login_link
from .throttling import SCOPE, LoginLinkThrottle

ACCEPTED = "If the address can receive mail, a login link is on its way."


class LoginLinkRequestSerializer(serializers.Serializer):
    email = serializers.EmailField(max_length=254, help_text="Where to send the link.")
    next = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=MAX_NEXT_LENGTH,
        help_text='A path on this site to open after logging in, e.g. "/games/7/". '
        "Anything else is ignored and the link leads to the home page.",
    )

    def to_internal_value(self, data):
        # CONTRACT.md: unknown fields are a malformed body, not silently dropped.
        if isinstance(data, Mapping):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({name: ["Unknown field."] for name in unknown})
        return super().to_internal_value(data)


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
            "accounts. Throttled per client IP."
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
        return Response({"detail": ACCEPTED}, status=status.HTTP_202_ACCEPTED)
