"""Throttle rates for one test: DRF's DEFAULT_THROTTLE_RATES with some scopes changed."""

from django.conf import settings
from django.test import override_settings


def api_rates(**rates: str):
    """``DEFAULT_THROTTLE_RATES`` with ``rates`` in place, as ``override_settings`` (a
    context manager or decorator). The throttles read their rate per request
    (``CountingRateThrottle.get_rate``), so the change applies at once."""
    rest_framework = settings.REST_FRAMEWORK
    merged = {**rest_framework["DEFAULT_THROTTLE_RATES"], **rates}
    return override_settings(REST_FRAMEWORK={**rest_framework, "DEFAULT_THROTTLE_RATES": merged})
