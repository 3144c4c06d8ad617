"""A person's calendar feed: the hash of its secret URL token, and what its polls saw."""

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone


class CalendarFeed(models.Model):
    """The one calendar feed of a person (``calendars.feeds``): at most one per person, so
    making a new one revokes the old.

    Only a hash of the URL's token is stored: a database leak does not leak live feed
    URLs. ``etag`` and ``changed_at`` record the last answer a poll got (its hash, and when
    it last differed from the one before), so that ``Last-Modified`` is exact without
    tracking every change that may alter the feed.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed"
    )
    token_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(
        max_length=12, help_text="The token's first characters, to recognise the URL."
    )
    created_at = models.DateTimeField(default=timezone.now)
    last_polled_at = models.DateTimeField(null=True, blank=True)
    etag = models.CharField(max_length=64, blank=True, default="", editable=False)
    changed_at = models.DateTimeField(null=True, blank=True, editable=False)

    TOKEN_PREFIX = "cal_"

    class Meta:
        verbose_name = "calendar feed"

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user_id})"

    @staticmethod
    def hash_token(token: str) -> str:
        # A plain SHA-256 suffices: tokens are 256-bit random, not guessable passwords.
        return hashlib.sha256(token.encode()).hexdigest()

    @classmethod
    def new_token(cls) -> str:
        return cls.TOKEN_PREFIX + secrets.token_urlsafe(32)
