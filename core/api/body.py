"""Request bodies: one JSON object, read by a serializer (``core.api.query`` reads the
query string the same strict way)."""

from django.utils.translation import gettext as _

from core.api.errors import ApiError


def json_object(request) -> dict:
    """``request.data`` when it is a JSON object (an absent body reads as ``{}``); ``400
    invalid`` for anything else (a list, a string, ``null``), as the schema says."""
    data = request.data
    if not isinstance(data, dict):
        raise ApiError(400, "invalid", _("The body must be a JSON object."))
    return data


def validated_body(serializer_class, request) -> dict:
    """The body's ``validated_data`` by ``serializer_class``; DRF's ``ValidationError``
    (``400 invalid``) for a body it refuses, ``json_object``'s refusal for a non-object."""
    serializer = serializer_class(data=json_object(request))
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
