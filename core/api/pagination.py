"""The API's pagination: DRF's page numbers, with ``page`` strictly a number as the schema says."""

from django.utils.translation import gettext as _
from rest_framework import pagination
from rest_framework.exceptions import NotFound


class PageNumberPagination(pagination.PageNumberPagination):
    """``?page=N`` with N a whole number from 1; anything else is 404 ``not_found``.

    DRF's own also takes ``page=last`` and treats an empty ``page=`` as page 1, so a
    client's bug (an unset variable) would silently show the first page, and the schema
    (``page``: integer) would not say what the API accepts.
    """

    last_page_strings = ()

    def get_page_number(self, request, paginator):
        raw = request.query_params.get(self.page_query_param)
        if raw is None:
            return 1
        if not (raw.isascii() and raw.isdigit()):
            raise NotFound(
                _("There is no page %(page)r: pages are numbered 1, 2, 3 and so on.")
                % {"page": raw}
            )
        return raw
