"""Strict query parameters: a list's filters are read as strictly as a request body."""

from django.utils.translation import gettext as _
from rest_framework import serializers

from core.api.fields import more_unknown_fields, unknown_fields

# The pagination's own parameter (core.api.pagination): every paged list takes it.
PAGE_PARAMETER = "page"


class QueryParamsSerializer(serializers.Serializer):
    """The query parameters of one list: its fields, plus ``page``.

    Reads ``request.query_params`` (a ``QueryDict``). A parameter that is not a field (nor
    ``page``) or that is given twice is ``400 invalid`` naming it: ``?status=activ`` or a
    filter this list does not have must not silently answer the whole list. Validate with
    ``QueryParamsSerializer.read(request)``.
    """

    @classmethod
    def read(cls, request) -> dict:
        """The validated filters of ``request`` (absent ones left out); raises DRF's
        ``ValidationError`` (``400 invalid``) for an unknown, repeated or bad parameter."""
        params = request.query_params
        known = {*cls().fields, PAGE_PARAMETER}
        named, count = unknown_fields(params, known)
        if named:
            message = _("Unknown query parameters: %(names)s.") % {"names": ", ".join(named)}
            if count > len(named):
                message += " " + more_unknown_fields(count - len(named))
            raise serializers.ValidationError(message)
        repeated = sorted(name for name in params if len(params.getlist(name)) > 1)
        if repeated:
            raise serializers.ValidationError(
                _("Give each query parameter at most once: %(names)s.")
                % {"names": ", ".join(repeated[:5])}
            )
        serializer = cls(data={name: params[name] for name in params if name != PAGE_PARAMETER})
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)


class QueryBooleanField(serializers.BooleanField):
    """``true`` or ``false``, as OpenAPI clients write a boolean query parameter; DRF's
    own also takes ``1``, ``yes``, ``on`` and their cases, which the schema does not say."""

    def to_internal_value(self, data):
        if data == "true":
            return True
        if data == "false":
            return False
        self.fail("invalid")
