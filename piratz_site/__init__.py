"""The Piratz by mail Django project, the composition root above every app: settings, URLs,
the admin site and its dashboard, middleware, WSGI and the Celery app."""

from .celery import app as celery_app

__all__ = ("celery_app",)
