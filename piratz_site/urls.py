"""The site's URLs: the REST API under /api/, player pages, the moderators' admin.

Error pages under /api/ are JSON whatever DEBUG says: see piratz_site.middleware.
"""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from accounts.languages import set_language
from accounts.settings_views import settings_page
from accounts.views import unsubscribe
from mailin.views import mailgun_inbound
from moderation.api import file_report
from notifications.dev_views import mailbox

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/reports/", file_report, name="api-reports"),
    path("api/games/<uuid:game_id>/webhooks/", include("webhooks.urls")),
    path("api/", include("games.api.urls")),
    path("api/auth/", include("accounts.api_urls")),
    path("api/me/", include("accounts.me_urls")),
    path("accounts/", include("accounts.urls")),
    # The language switch on every page (templates/_language_switch.html).
    path("i18n/setlang/", set_language, name="set_language"),
    # One-click unsubscribe links in emails (RFC 8058): short, and outside /accounts/ login.
    path("unsubscribe/<str:token>/", unsubscribe, name="unsubscribe"),
    # A player's email and time settings and vacations (the footer of every email links here).
    path("settings/", settings_page, name="settings-page"),
    # Mailgun's inbound route: replies to turn emails (docs/mail-in.md).
    path("inbound/mailgun/", mailgun_inbound, name="mailin-mailgun"),
    path("", include("games.urls")),
]

if settings.DEBUG:  # local runs only: it shows everyone's emails, login links included
    urlpatterns.insert(0, path("dev/mailbox/", mailbox, name="dev-mailbox"))
