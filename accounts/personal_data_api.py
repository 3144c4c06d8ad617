"""The caller's personal data in the REST API (issue 26): ``GET /api/me/export/`` (a zip of
JSON files, ``accounts.personal_data``) and ``POST /api/me/delete/`` (emails the link that
confirms deleting the account, ``accounts.erasure``)."""

import json

from django.http import HttpResponse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.query import QueryParamsSerializer

from .erasure import ERASURE_ASKED, request_erasure
from .models import User
from .personal_data import FILENAME, export_zip


class ZipRenderer(BaseRenderer):
    """Lets a client ask for ``application/zip``; an error answer is still the API's JSON."""

    media_type = "application/zip"
    format = "zip"
    charset = None
    render_style = "binary"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, bytes):
            return data
        return json.dumps(data).encode()


class NoQueryParameters(QueryParamsSerializer):
    """The export takes no query parameter: ``?format=`` (DRF's override) or any other is
    refused, as the schema, which names none, says."""


class MyExportView(APIView):
    renderer_classes = [JSONRenderer, ZipRenderer]

    @extend_schema(
        operation_id="me_export",
        summary="Download everything the service holds about you",
        description=(
            "A zip of JSON files: `account.json` (your account and your API keys' names, "
            "never a key), `settings.json` (notification settings, vacations), `games.json` "
            "(each of your games and its moves as the API shows them to your seat), "
            "`messages.json` (your table talk and the messages you reported), `emails.json` "
            "(the emails to your address, their links redacted), `reports.json` (the reports "
            "you filed), `webhooks.json` (your webhooks, their URLs masked) and "
            "`calendar_feed.json` (your calendar address's first characters and dates). Answered "
            "`Content-Disposition: attachment` and `Cache-Control: no-store`."
        ),
        request=None,
        parameters=[OpenApiParameter("format", exclude=True)],
        responses={(200, "application/zip"): OpenApiResponse(OpenApiTypes.BINARY)},
        tags=["me"],
    )
    def get(self, request):
        NoQueryParameters.read(request)
        user = User.objects.get(pk=request.user.pk)
        response = HttpResponse(export_zip(user), content_type="application/zip")
        response["Content-Disposition"] = f'attachment; filename="{FILENAME}"'
        add_never_cache_headers(response)  # Cache-Control: no-store, as for every personal page
        return response


class MyDeletionView(APIView):
    @extend_schema(
        operation_id="me_delete",
        summary="Ask to delete your account",
        description=(
            "Emails you a single-use link, working for an hour, whose page asks you to "
            "confirm; nothing is deleted before that (at most 3 links an hour; the answer is "
            "the same either way). Once confirmed: your seats in running games pass to "
            "stand-in bots (a game with no other player left ends as P25/R36), pending "
            'invitations are declined, your name becomes "former player" everywhere, and '
            "your address, API keys, sessions, settings, vacations and webhooks are erased. "
            "The game records stay for the other players."
        ),
        request=None,
        responses={
            202: OpenApiResponse(
                inline_serializer("DeletionAsked", {"detail": serializers.CharField()}),
                examples=[OpenApiExample("asked", value={"detail": ERASURE_ASKED})],
            ),
        },
        tags=["me"],
    )
    def post(self, request):
        request_erasure(request.user)
        return Response({"detail": _(ERASURE_ASKED)}, status=status.HTTP_202_ACCEPTED)
