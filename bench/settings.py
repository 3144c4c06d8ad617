"""Settings of the benchmark's server: the project's, with ``bench.urls`` (the bare move).

``bench/api.py`` starts gunicorn with ``DJANGO_SETTINGS_MODULE=bench.settings``;
production never names this module, so the bare endpoint exists only there.
"""

from piratz_site.settings import *  # noqa: F403  (the project's settings, unchanged)

ROOT_URLCONF = "bench.urls"
