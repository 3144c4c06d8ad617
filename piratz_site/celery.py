"""The Celery application; tasks live in each app's tasks.py."""

import os

from celery import Celery

from core.file_broker import serve_filesystem_urls
from core.redis_broker import serve_redis_urls

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "piratz_site.settings")

serve_filesystem_urls()  # make run's broker: kombu's, with each message written whole
serve_redis_urls()  # production's: kombu's, surviving a lost connection mid-task (0010)
app = Celery("piratz_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
