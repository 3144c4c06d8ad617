"""``/api/games/{id}/notes/``: the caller's private notes on a game: read, replace, delete."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view
from rest_framework.response import Response

from core.api.body import validated_body
from core.api.errors import refused
from core.api.fields import ErrorSerializer, StrictCharField, StrictSerializer
from core.errors import ServiceError
from games.actions import notes
from games.api.representation import datetime_json
from games.models import GameNote

_DESCRIPTION = (
    "Your private notes on this game: only you ever see them, not the other players, "
    "not moderators. Anyone who holds a seat in the game may keep them, while it runs and "
    "after it ended. Plain text, up to 10,000 characters; the last save wins. They are in "
    "your data export and are deleted with your account."
)


class NoteSerializer(serializers.Serializer):
    text = serializers.CharField(
        allow_blank=True, help_text="Your notes as stored (trimmed); empty when you have none."
    )
    updated_at = serializers.DateTimeField(
        allow_null=True, help_text="When you last saved them; null when you have none."
    )


class NoteWriteSerializer(StrictSerializer):
    text = StrictCharField(
        # Counted as sent, as the schema's maxLength counts; the service then trims and
        # counts again (clean_note), which the table's form goes through alone.
        max_length=GameNote.MAX_LENGTH,
        trim_whitespace=False,
        allow_blank=True,
        help_text="Plain text: up to 10,000 characters; stored trimmed, line breaks and tabs "
        "kept, other control characters refused. Empty (or only spaces) deletes your notes.",
    )


def note_json(note: GameNote | None) -> dict:
    """``note`` for the API; None (no note) reads as empty text."""
    if note is None:
        return {"text": "", "updated_at": None}
    return {"text": note.text, "updated_at": datetime_json(note.updated_at)}


_NOT_A_PLAYER = OpenApiResponse(
    ErrorSerializer,
    description="`not_a_player`: you may see the game (staff) but hold no seat in it; "
    "notes are private, so nobody else's are shown.",
)


@extend_schema(
    methods=["GET"],
    summary="Your private notes on this game",
    description=_DESCRIPTION,
    responses={200: NoteSerializer, 403: _NOT_A_PLAYER},
)
@extend_schema(
    methods=["PUT"],
    summary="Replace your private notes on this game",
    description=_DESCRIPTION,
    request=NoteWriteSerializer,
    responses={
        200: NoteSerializer,
        400: OpenApiResponse(
            ErrorSerializer,
            description="`invalid`: not text, over 10,000 characters, control "
            "characters, an unknown field.",
        ),
        403: _NOT_A_PLAYER,
    },
)
@extend_schema(
    methods=["DELETE"],
    summary="Delete your private notes on this game",
    description="Deleting notes you do not have changes nothing (204 all the same).",
    responses={204: None, 403: _NOT_A_PLAYER},
)
@api_view(["GET", "PUT", "DELETE"])
def game_notes(request, game_id):
    try:
        if request.method == "PUT":
            data = validated_body(NoteWriteSerializer, request)
            return Response(note_json(notes.do_save_game_note(game_id, request.user, data["text"])))
        if request.method == "DELETE":
            notes.do_delete_game_note(game_id, request.user)
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(note_json(notes.own_note(game_id, request.user)))
    except ServiceError as error:
        raise refused(error) from None
