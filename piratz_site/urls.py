"""The site's URLs: the REST API under /api/, player pages, the moderators' admin.

Error pages under /api/ are JSON whatever DEBUG says: see piratz_site.middleware.
"""

from django.conf import settings
from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from accounts.languages import set_language
from accounts.settings_views import api_keys_page, settings_page
from accounts.views import unsubscribe
from calendars.views import calendar_feed, calendar_page
from mailin.dev_views import mailbox_reply
from mailin.views import mailgun_inbound
from moderation.api import file_report
from moderation.views import report_player
from notifications.dev_views import mailbox
from ops.views import healthz, metrics_view, readyz
from push.views import offline_page, remove_device, service_worker, web_app_manifest


class FaviconRedirect(RedirectView):
    """``/favicon.ico``, which browsers and other clients ask for by habit (pages without
    our ``<link rel="icon">``, such as the API's JSON): the site's icon, not a 404.

    Temporary: the icon's static URL is asked at request time and may change with it."""

    permanent = False

    def get_redirect_url(self, *args, **kwargs) -> str:
        return static("favicon.svg")


urlpatterns = [
    # First: the game API's moves and game GETs are most requests, and Django tries the
    # patterns in order (each one it passes costs a request a few Python calls). No other
    # pattern matches a path of it: the order decides nothing else.
    path("api/", include("games.api.urls")),
    path("favicon.ico", FaviconRedirect.as_view(), name="favicon"),
    # The installable app (docs/push.md): its manifest, the service worker at the root (its
    # scope is the whole site) and the page it shows offline.
    path("manifest.webmanifest", web_app_manifest, name="web-app-manifest"),
    path("sw.js", service_worker, name="service-worker"),
    path("offline/", offline_page, name="offline"),
    # For load balancers and Prometheus (docs/operating.md "Health and metrics").
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    path("metrics", metrics_view, name="metrics"),
    path("admin/", admin.site.urls),
    path("api/reports/", file_report, name="api-reports"),
    # The player page's report button (games.views.players); files as the API does.
    path("reports/player/", report_player, name="player-report"),
    path("api/games/<uuid:game_id>/webhooks/", include("webhooks.urls")),
    path("api/games/<uuid:game_id>/messages/", include("talk.urls")),
    # Leaderboards and a player's ratings (ratings/; docs/ratings.md).
    path("api/", include("ratings.urls")),
    path("api/leagues/", include("leagues.api_urls")),
    path("leagues/", include("leagues.urls")),
    path("api/people/", include("people.api_urls")),
    path("people/", include("people.urls")),
    path("api/lobby/", include("lobby.api_urls")),
    path("lobby/", include("lobby.urls")),
    path("api/quickmatch/", include("quickmatch.api_urls")),
    path("quickmatch/", include("quickmatch.urls")),
    path("api/tournaments/", include("tournaments.api_urls")),
    path("tournaments/", include("tournaments.urls")),
    path("api/auth/", include("accounts.api_urls")),
    path("api/me/push-subscriptions/", include("push.urls")),
    path("api/me/", include("accounts.me_urls")),
    path("accounts/", include("accounts.urls")),
    # The language switch on every page (templates/_language_switch.html).
    path("i18n/setlang/", set_language, name="set_language"),
    # One-click unsubscribe links in emails (RFC 8058): short, and outside /accounts/ login.
    path("unsubscribe/<str:token>/", unsubscribe, name="unsubscribe"),
    # A player's email and time settings and vacations (the footer of every email links here).
    path("settings/", settings_page, name="settings-page"),
    # Their own API keys: made (shown once), listed and revoked (docs/api.md "Playing together").
    path("settings/api-keys/", api_keys_page, name="settings-api-keys"),
    # Their secret calendar address: made (shown once), replaced, revoked (docs/players.md).
    path("settings/calendar/", calendar_page, name="settings-calendar"),
    # The settings page's button that removes a browser subscribed to push (docs/push.md).
    path(
        "settings/push/<int:subscription_id>/remove/",
        remove_device,
        name="settings-push-remove",
    ),
    # The calendar feed itself, polled by calendar apps: the token is the credential.
    path("calendar/<str:token>.ics", calendar_feed, name="calendar-feed"),
    # Mailgun's inbound route: replies to turn emails (docs/mail-in.md).
    path("inbound/mailgun/", mailgun_inbound, name="mailin-mailgun"),
    # The table page's talk forms (games may not import talk: docs/architecture.md).
    path("games/<uuid:game_id>/talk/", include("talk.page_urls")),
    path("leaderboard/", include("ratings.page_urls")),
    path("", include("games.urls")),
]

if settings.DEBUG:  # local runs only: it shows everyone's emails, login links included
    urlpatterns[:0] = [
        path("dev/mailbox/", mailbox, name="dev-mailbox"),
        # Its reply form: the reply goes to mail-in as a mail server would pipe it.
        path("dev/mailbox/reply/", mailbox_reply, name="dev-mailbox-reply"),
    ]
