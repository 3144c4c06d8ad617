"""ASGI entry point of the table stream's server (uvicorn piratz_site.asgi:application).

The same project as piratz_site.wsgi; production serves only ``/games/*/events`` with it
and the rest of the site on gunicorn (docs/operating.md "The table stream").
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "piratz_site.settings")

application = get_asgi_application()
