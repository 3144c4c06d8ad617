"""The API's own exception classes, apart from the error handler: authentication imports
them while DRF is still loading its views (an import of core.api.errors there is a circle)."""

from rest_framework import exceptions


class SuspendedError(exceptions.PermissionDenied):
    """403 ``suspended``: the key or session is genuine, but a moderator suspended its owner."""

    default_code = "suspended"
