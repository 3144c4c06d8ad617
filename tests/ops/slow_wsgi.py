"""The service's WSGI application with one address that answers after 3 s, so that a real
gunicorn (with ``GUNICORN_REQUEST_TIME_LIMIT=1``) writes its request time-limit line."""

import time

from piratz_site.wsgi import application as service

SLOW_PATH = "/slow-for-the-time-limit/"
SECONDS = 3


def application(environ, start_response):
    if environ.get("PATH_INFO") == SLOW_PATH:
        time.sleep(SECONDS)
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"slow"]
    return service(environ, start_response)
