"""Django settings: everything that varies between machines comes from the environment.

Every variable is documented in docs/configuration.md. With nothing set, the
service runs on a SQLite file under var/, writes emails to files under var/mail/ and
passes Celery tasks as files under var/celery/, so `make run` needs no external service.
"""

import logging
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from core.env import Env, secret_key, url_host
from core.logs.error_reports import init_error_reports

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"
env = Env()

DEBUG = env.bool("DEBUG", False)
# A fixed key is only acceptable on a developer's machine or for commands that serve
# nothing; a serving process without SECRET_KEY stops with one line (see secret_key).
SECRET_KEY = secret_key(env, debug=DEBUG)
SITE_URL = env.url("SITE_URL", "http://127.0.0.1:8000", schemes=("http", "https"))
# The host that emailed links point to is served too (`make run ADDR=192.168.1.5:8000`).
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", url_host(SITE_URL)])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", [SITE_URL])
# A refused form (stale after signing in again, or no cookies) gets the site's own page,
# which says nothing was done and leads back; never Django's reason (piratz_site/errors.py).
CSRF_FAILURE_VIEW = "piratz_site.errors.csrf_failure"

INSTALLED_APPS = [
    # Django's admin with a second factor and the moderators' dashboard (piratz_site/admin_site.py).
    "piratz_site.apps.ModeratorAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from here, not a CDN
    "django_otp",
    # Staff's second factor for /admin/ (docs/moderation.md "Moderators: the admin"), under
    # a readable heading in the admin.
    "piratz_site.apps.TotpDevicesConfig",
    "axes",  # failed /admin/ sign-ins limited per username and address
    "accounts",
    "games",
    "notifications",
    "audit",  # the audit log of moderator actions, with their reasons
    "moderation",  # suspensions, players' reports
    "webhooks",  # players' webhooks per game (docs/webhooks.md)
    "talk",  # table talk: players' messages at a game (docs/api.md)
    "leagues",  # leagues: a season of games among a group of players (docs/leagues.md)
    "push",  # Web Push for game news, and the installable app's shell (docs/push.md)
    "calendars",  # players' secret calendar feeds of their deadlines (docs/players.md)
    "ratings",  # a rating per player and game, leaderboards (docs/ratings.md)
    "people",  # friends, blocks, following players and games (docs/people.md)
    "lobby",  # open games and the lobby (docs/lobby.md)
    "quickmatch",  # quick match: seeks paired into games (docs/quickmatch.md)
    "tournaments",  # Swiss and single elimination tournaments (docs/tournaments.md)
    "anymail",  # inbound email parsing and the provider's signed inbound webhook
    "mailin",  # playing by replying to the turn email (docs/mail-in.md)
    "ops",  # /healthz, /readyz, /metrics (docs/operating.md "Health and metrics")
]

# The games the service offers: one package per game exporting SPEC (games.catalogue;
# docs/adding-a-game.md). Adding a game is its folder plus its line here; each is also a
# Django app (its models, migrations, admin, template tags).
GAME_PACKAGES = ["games.kinds.piratz", "games.kinds.rattenscharf"]
INSTALLED_APPS += GAME_PACKAGES

MIDDLEWARE = [
    # Outermost: every log line of the request carries its id, and the answer that leaves
    # (even one replaced below) carries X-Request-ID.
    "core.logs.request_log.RequestIdMiddleware",
    # Times the whole answer for /metrics, per route name.
    "ops.metrics.RequestMetricsMiddleware",
    # First after those, so that it sees every other answer: error pages under /api/ become JSON.
    "piratz_site.middleware.ApiErrorsAsJsonMiddleware",
    # Before SecurityMiddleware: forwarded headers count only from TRUSTED_PROXIES.
    "core.proxies.ForwardedHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Content-Security-Policy and Permissions-Policy on every answer (SECURE_CSP and
    # PERMISSIONS_POLICY below).
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions (it reads the switch's choice there and in its cookie), before
    # CommonMiddleware (Django's documented place): the browser's language by default.
    "django.middleware.locale.LocaleMiddleware",
    # Under /api/: an address with too many 401s gets 429 for its further failures
    # (after LocaleMiddleware: the refusal speaks the client's language).
    "accounts.throttling.AuthFailureThrottleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Marks request.user verified when the session holds a confirmed TOTP device.
    "django_otp.middleware.OTPMiddleware",
    # Once the user is known: a signed-in player's own language setting wins over the
    # browser's (accounts/languages.py; API keys get theirs in ApiTokenAuthentication).
    "accounts.languages.UserLanguageMiddleware",
    # A session opened by a game email's link is signed in on its games' pages only.
    "accounts.game_scope.GameScopeMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: turns a locked-out admin sign-in into its 429 page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "piratz_site.urls"
WSGI_APPLICATION = "piratz_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.sign_in_state",
            ],
        },
    },
]

DATABASES = {
    "default": env.database("DATABASE_URL", "sqlite:///var/piratz.sqlite3", base_dir=BASE_DIR)
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"

# Only staff sign in with a password (at /admin/); players use emailed links and API keys,
# which never go through authenticate(). Axes first: it refuses a locked-out sign-in
# before the password is even checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# django-axes: after ADMIN_LOGIN_FAILURE_LIMIT failed sign-ins (a wrong password or a wrong
# code) for one username from one address, that pair is refused for
# ADMIN_LOGIN_COOLOFF_MINUTES. Only the admin's sign-in counts (AXES_ONLY_ADMIN_SITE).
AXES_ENABLED = True
AXES_ONLY_ADMIN_SITE = True
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_FAILURE_LIMIT = env.int("ADMIN_LOGIN_FAILURE_LIMIT", 5, min_value=1)
AXES_COOLOFF_TIME = env.int("ADMIN_LOGIN_COOLOFF_MINUTES", 60, min_value=1) / 60  # hours
AXES_RESET_ON_SUCCESS = True
# Failures are counted per address as typed, lower-cased: one account, one counter.
AXES_USERNAME_CALLABLE = "piratz_site.admin_site.axes_username"
# The client address as TRUSTED_PROXIES allow it to be known (not a spoofable header).
AXES_CLIENT_IP_CALLABLE = "core.proxies.client_address"
# Failures only: a row of address and browser for every successful sign-in is not needed.
AXES_DISABLE_ACCESS_LOG = True
AXES_VERBOSE = False  # no banner on every manage.py command
# Masked in axes' log lines (it masks the password itself): who, from where, and the code.
AXES_SENSITIVE_PARAMETERS = ["username", "ip_address", "otp_token"]
# The issuer shown in a moderator's authenticator app beside their email.
OTP_TOTP_ISSUER = env.str("OTP_TOTP_ISSUER", "Piratz by mail")
# A device's key is a credential: the admin never shows it (nor its QR code) once made;
# manage.py add_totp_device shows it once, to the moderator being enrolled.
OTP_ADMIN_HIDE_SENSITIVE_DATA = True

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The language of a page or API answer: the signed-in player's setting (User.language),
# else the language switch's cookie, else the browser's Accept-Language, else English.
# Emails go out in the recipient's setting (docs/players.md "Languages: English and German").
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
# The .po catalogs and their compiled .mo files, both committed
# (docs/players.md "Languages: English and German").
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"  # `manage.py collectstatic` fills it for production
# The site's own stylesheet and scripts (static/css, static/js), beside the apps' static/.
STATICFILES_DIRS = [BASE_DIR / "static"]

SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = SITE_URL.startswith("https://")
# The language switch's cookie (docs/players.md "Languages: English and German"): like
# the others, HTTPS-only on an https site; no script reads it.
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
LANGUAGE_COOKIE_HTTPONLY = True

# --- Behind HTTPS and reverse proxies ----------------------------------------------------
# Addresses or networks of the reverse proxies in front of the service: only from them are
# X-Forwarded-For (the client address, for throttles) and X-Forwarded-Proto believed.
TRUSTED_PROXIES = env.networks("TRUSTED_PROXIES", [])
if env.bool("SECURE_PROXY_SSL_HEADER", False):
    if not TRUSTED_PROXIES:
        raise ImproperlyConfigured(
            "SECURE_PROXY_SSL_HEADER=true needs TRUSTED_PROXIES: the proxies that set "
            "X-Forwarded-Proto (a client could send it too)."
        )
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", False)
# Probes and the metrics scraper often speak plain HTTP inside the network: no redirect.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", 0, min_value=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", False)
# Scripts, styles, images and fonts only from this site's own files: no inline script,
# style attribute or on*= handler anywhere (tests/web/test_security_headers.py greps the
# templates; the browser tests fail on any violation), so injected markup cannot run.
# No nonce: Django's admin needs one only for a change list without actions (none here).
# data: images are the SVG icons inside Swagger UI's and the admin's stylesheets.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    # The service worker (/sw.js, docs/push.md) and the web app manifest: our own files.
    "worker-src": [CSP.SELF],
    "manifest-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}
# No page uses the browser's devices or sensors, nor lets an embedded page use them.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: []
    for feature in (
        "accelerometer",
        "autoplay",
        "bluetooth",
        "browsing-topics",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "hid",
        "idle-detection",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "publickey-credentials-get",
        "screen-wake-lock",
        "serial",
        "usb",
        "xr-spatial-tracking",
    )
}
# A slow game lasts weeks: a sign-in lasts SESSION_DAYS, so the links of later emails just
# open the page instead of asking to sign in again.
SESSION_COOKIE_AGE = 60 * 60 * 24 * env.int("SESSION_DAYS", 30, min_value=1)

# --- Email ---------------------------------------------------------------------------
# Django 6.1's MAILERS; the EMAIL_* variables below are this project's environment names.
EMAIL_BACKEND_PATH = env.str("EMAIL_BACKEND", "django.core.mail.backends.filebased.EmailBackend")
_MAIL_OPTIONS = {
    "django.core.mail.backends.filebased.EmailBackend": lambda: {
        "file_path": env.str("EMAIL_FILE_PATH", str(VAR_DIR / "mail")),
    },
    "django.core.mail.backends.smtp.EmailBackend": lambda: {
        "host": env.str("EMAIL_HOST", "localhost"),
        "port": env.int("EMAIL_PORT", 25, min_value=1),
        "username": env.str("EMAIL_HOST_USER", ""),
        "password": env.str("EMAIL_HOST_PASSWORD", ""),
        "use_tls": env.bool("EMAIL_USE_TLS", False),
        "timeout": env.int("EMAIL_TIMEOUT", 30, min_value=1),
    },
}
MAILERS = {
    "default": {
        "BACKEND": EMAIL_BACKEND_PATH,
        "OPTIONS": _MAIL_OPTIONS.get(EMAIL_BACKEND_PATH, dict)(),
    }
}
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", "Piratz by mail <piratz@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- Celery --------------------------------------------------------------------------
# The default broker is kombu's filesystem transport: messages are files under var/celery/,
# so `make run` runs a real worker and beat with nothing installed (no server, no extra
# package; docs/decisions/0004-file-broker.md says why this one). Production sets a Redis URL.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", "filesystem://")
if CELERY_BROKER_URL.startswith("filesystem://"):
    _BROKER_DIR = Path(env.str("CELERY_BROKER_DIR", str(VAR_DIR / "celery")))
    for _folder in ("messages", "control"):
        (_BROKER_DIR / _folder).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        # One folder both ways: the web server, beat and the worker share one queue.
        "data_folder_in": str(_BROKER_DIR / "messages"),
        "data_folder_out": str(_BROKER_DIR / "messages"),
        "control_folder": str(_BROKER_DIR / "control"),
        "polling_interval": 0.1,  # the worker looks for new files ten times a second
    }
# Tasks always go through the broker, so no request ever runs one (and waits on SMTP).
# Only the test settings run them eagerly.
CELERY_TASK_ALWAYS_EAGER = False
CELERY_TASK_EAGER_PROPAGATES = True
# Should the outbox send on commit even when tasks run eagerly (in the caller's process, so
# inside the request)? Only the unit tests want that; otherwise the sweep sends.
OUTBOX_EAGER_SEND_ON_COMMIT = False
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True  # a worker that dies mid-task leaves it for another worker
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A request whose broker is down must not hang on it: the outbox row is committed and the
# every-minute sweep sends the email, so publishing retries only briefly.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
CELERY_TIMEZONE = "UTC"
# Every task's time limits (docs/operating.md "Background work: sweeps, workers, beat"):
# at the soft one the task is told (SoftTimeLimitExceeded) and records what it was doing;
# at the hard one the worker kills the process running it. The hard one stays under the
# email outbox's 10-minute stuck timeout (and the webhook outbox's is derived from it), so
# a claim is only ever taken back from a process that is gone, never handed to a second
# worker while the first still sends.
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", 240, min_value=1)
CELERY_TASK_TIME_LIMIT = env.int(
    "CELERY_TASK_TIME_LIMIT", 300, min_value=CELERY_TASK_SOFT_TIME_LIMIT + 1
)
if CELERY_TASK_TIME_LIMIT > 9 * 60:
    raise ImproperlyConfigured(
        f"CELERY_TASK_TIME_LIMIT={CELERY_TASK_TIME_LIMIT} must be at most 540 (seconds): "
        "the email outbox takes back a claim after 10 minutes."
    )
# Webhook posts have a queue of their own, served by workers of their own
# (docs/webhooks.md): a slow endpoint then holds only those, never email, sweeps or bots.
WEBHOOKS_QUEUE = "webhooks"
# Push messages are outbound posts too: the same queue and workers (docs/push.md).
CELERY_TASK_ROUTES = {
    "webhooks.tasks.*": {"queue": WEBHOOKS_QUEUE},
    "push.tasks.*": {"queue": WEBHOOKS_QUEUE},
}
# The fast clock for trying deadlines locally (`make run FAST=1`, docs/testing.md): one
# hour of a turn's clock (turn lengths, reminder leads, moderators' extensions) lasts this
# many seconds. Only with DEBUG: a production service on a fast clock would time out every
# player's turn within minutes.
TURN_HOUR_SECONDS = env.int("TURN_HOUR_SECONDS", 3600, min_value=1)
if TURN_HOUR_SECONDS != 3600 and not DEBUG:
    raise ImproperlyConfigured(
        f"TURN_HOUR_SECONDS={TURN_HOUR_SECONDS} is for trying deadlines locally: it needs "
        "DEBUG on. Unset it (a turn hour is 3600 seconds)."
    )
# How often beat sends the every-minute sweeps (deadlines, reminders, the outbox); the
# digest sweep runs every fifth time. On the fast clock, four times a turn hour (every 15 s
# at 60), so a deadline is played within seconds of passing.
SWEEP_SECONDS = env.int("SWEEP_SECONDS", max(1, min(60, TURN_HOUR_SECONDS // 4)), min_value=1)
# Every periodic task expires when its next run is due: one still queued then (a backlog,
# a worker that was down) is dropped, as the next run does the same work. Sweeps claim
# their rows in the database, so one sent twice (two beats) or redelivered acts once.
CELERY_BEAT_SCHEDULE = {
    "cancel-expired-invitations": {
        "task": "games.tasks.cancel_expired_invitations",
        "schedule": 15 * 60,
        "options": {"expires": 15 * 60},
    },
    "play-due-timeouts": {
        "task": "games.tasks.play_due_timeouts",
        "schedule": SWEEP_SECONDS,
        "options": {"expires": SWEEP_SECONDS},
    },
    "send-due-reminders": {
        "task": "games.tasks.send_due_reminders",
        "schedule": SWEEP_SECONDS,
        "options": {"expires": SWEEP_SECONDS},
    },
    # A digest is due at a whole local hour; five minutes late is on time for a daily email.
    "send-due-digests": {
        "task": "games.tasks.send_due_digests",
        "schedule": 5 * SWEEP_SECONDS,
        "options": {"expires": 5 * SWEEP_SECONDS},
    },
    # Retries, and emails whose send task was lost (broker down, worker killed).
    "send-due-emails": {
        "task": "notifications.tasks.send_due_emails",
        "schedule": SWEEP_SECONDS,
        "options": {"expires": SWEEP_SECONDS},
    },
    # Webhook retries, and posts whose task was lost (docs/webhooks.md).
    "send-due-webhooks": {
        "task": "webhooks.tasks.send_due_webhook_deliveries",
        "schedule": SWEEP_SECONDS,
        "options": {"expires": SWEEP_SECONDS},
    },
    # Push retries, held turn news, and messages whose task was lost (docs/push.md).
    "send-due-pushes": {
        "task": "push.tasks.send_due_push_deliveries",
        "schedule": SWEEP_SECONDS,
        "options": {"expires": SWEEP_SECONDS},
    },
    # Paused games whose longest pause (PAUSE_MAX_DAYS) is over run again.
    "resume-due-pauses": {
        "task": "games.tasks.resume_due_pauses",
        "schedule": SWEEP_SECONDS,
        "options": {"expires": SWEEP_SECONDS},
    },
    # Table talk by email, at most one per player and game an hour (talk.emails).
    "send-due-talk-emails": {
        "task": "talk.tasks.send_due_talk_emails",
        "schedule": SWEEP_SECONDS,
        "options": {"expires": SWEEP_SECONDS},
    },
    # Leagues (docs/leagues.md): start the games a lost task left waiting; the weekly
    # standings emails (once per member and week, whenever this runs).
    "advance-leagues": {
        "task": "leagues.tasks.advance_active_leagues",
        "schedule": 15 * 60,
        "options": {"expires": 15 * 60},
    },
    "send-weekly-standings": {
        "task": "leagues.tasks.send_weekly_standings",
        "schedule": 60 * 60,
        "options": {"expires": 60 * 60},
    },
    # Tournaments (docs/tournaments.md): start those whose time has come, close rounds past
    # their deadline (each claimed once), and go on where a lost task left a round over.
    "start-due-tournaments": {
        "task": "tournaments.tasks.start_due_tournaments",
        "schedule": SWEEP_SECONDS,
        "options": {"expires": SWEEP_SECONDS},
    },
    "close-overdue-tournament-rounds": {
        "task": "tournaments.tasks.close_overdue_rounds",
        "schedule": SWEEP_SECONDS,
        "options": {"expires": SWEEP_SECONDS},
    },
    "advance-tournaments": {
        "task": "tournaments.tasks.advance_running_tournaments",
        "schedule": 15 * 60,
        "options": {"expires": 15 * 60},
    },
    # Quick match (docs/quickmatch.md): expire due seeks, pair the waiting ones (a new
    # seek asks at once too; this catches a lost task and lets waiting windows widen).
    "pair-seeks": {
        "task": "quickmatch.tasks.pair_seeks",
        "schedule": SWEEP_SECONDS,
        "options": {"expires": SWEEP_SECONDS},
    },
    # The lobby's open games whose seats were not all taken in time (docs/lobby.md).
    "expire-open-games": {
        "task": "lobby.tasks.expire_open_games",
        "schedule": 5 * 60,
        "options": {"expires": 5 * 60},
    },
    "purge-login-links": {
        "task": "accounts.tasks.purge_login_links",
        "schedule": 60 * 60,
        "options": {"expires": 60 * 60},
    },
    # Retention (docs/security.md "What is kept, and for how long"): old emails' content,
    # delivery attempts, webhook and push deliveries.
    "purge-old-email-records": {
        "task": "notifications.tasks.purge_old_email_records",
        "schedule": 24 * 60 * 60,
        "options": {"expires": 60 * 60},
    },
    "purge-old-webhook-deliveries": {
        "task": "webhooks.tasks.purge_old_webhook_deliveries",
        "schedule": 24 * 60 * 60,
        "options": {"expires": 60 * 60},
    },
    "purge-old-push-deliveries": {
        "task": "push.tasks.purge_old_push_deliveries",
        "schedule": 24 * 60 * 60,
        "options": {"expires": 60 * 60},
    },
}

# --- Game service ---------------------------------------------------------------------
# How long an invitation waits for every seat to accept before the game is cancelled.
INVITATION_DAYS = env.int("INVITATION_DAYS", 7, min_value=1)
# The longest a host's pause lasts (docs/api.md "Playing together"); then the game resumes.
PAUSE_MAX_DAYS = env.int("PAUSE_MAX_DAYS", 14, min_value=1)
# Leagues an organiser may create in any 24 hours (leagues.actions).
LEAGUES_PER_USER_PER_DAY = env.int("LEAGUES_PER_USER_PER_DAY", 3, min_value=1)
# Tournaments an organiser may create in any 24 hours (tournaments.actions).
TOURNAMENTS_PER_USER_PER_DAY = env.int("TOURNAMENTS_PER_USER_PER_DAY", 3, min_value=1)
# Quick match (docs/quickmatch.md): how long a seek waits before it expires, how many
# seeks a player may post in any hour, and how many displayed rating points a waiting
# seek's window widens by each minute it waits (quickmatch.pairing).
SEEK_HOURS = env.int("SEEK_HOURS", 24, min_value=1)
SEEKS_PER_HOUR = env.int("SEEKS_PER_HOUR", 20, min_value=1)
SEEK_WIDENING_PER_MINUTE = env.int("SEEK_WIDENING_PER_MINUTE", 10, min_value=0)
# The lobby (docs/lobby.md): an open game's seats wait this many hours for players; a
# person hosts at most OPEN_GAMES_PER_USER open games at once and takes at most
# LOBBY_JOINS_PER_HOUR open seats in any hour (lobby.actions).
OPEN_GAME_HOURS = env.int("OPEN_GAME_HOURS", 48, min_value=1)
OPEN_GAMES_PER_USER = env.int("OPEN_GAMES_PER_USER", 3, min_value=1)
LOBBY_JOINS_PER_HOUR = env.int("LOBBY_JOINS_PER_HOUR", 10, min_value=1)
# Table talk: at most this many messages per player and game in any hour (talk.actions).
TALK_MESSAGES_PER_HOUR = env.int("TALK_MESSAGES_PER_HOUR", 30, min_value=1)
# Vacation days a player may take in any rolling 365 days (their turn clocks pause).
VACATION_DAYS_PER_YEAR = env.int("VACATION_DAYS_PER_YEAR", 21, min_value=0)
LOGIN_LINK_MINUTES = env.int("LOGIN_LINK_MINUTES", 30, min_value=1)
# A game email's link signs in for its game only (accounts.game_scope), for this many days
# after the email; the session it opens ends after as many days without use.
GAME_LINK_DAYS = env.int("GAME_LINK_DAYS", 3, min_value=1)
# A player whose game table was open and live (a visible tab polls every few seconds) within
# LIVE_SECONDS gets their turn email TURN_EMAIL_HOLD_SECONDS later, and none if they have
# moved by then (games.presence; docs/players.md "The game emails and the game page").
LIVE_SECONDS = env.int("LIVE_SECONDS", 30, min_value=1)
TURN_EMAIL_HOLD_SECONDS = env.int("TURN_EMAIL_HOLD_SECONDS", 300, min_value=0)
# Where a suspended or disabled player may write to the moderators (accounts.moderators).
MODERATORS_CONTACT = env.str("MODERATORS_CONTACT", "")
# Send attempts per email before it is marked failed (retries back off 1, 5, 25... minutes).
EMAIL_MAX_ATTEMPTS = env.int("EMAIL_MAX_ATTEMPTS", 6, min_value=1)
# Retention, in days (notifications.retention, webhooks.retention, push.retention): a done
# email's content (bodies, headers) is cleared after RETENTION_EMAIL_DAYS, its row kept;
# delivery attempt rows and done webhook and push deliveries are deleted after theirs.
RETENTION_EMAIL_DAYS = env.int("RETENTION_EMAIL_DAYS", 90, min_value=1)
RETENTION_ATTEMPTS_DAYS = env.int("RETENTION_ATTEMPTS_DAYS", 90, min_value=1)
RETENTION_WEBHOOK_DAYS = env.int("RETENTION_WEBHOOK_DAYS", 30, min_value=1)
RETENTION_PUSH_DAYS = env.int("RETENTION_PUSH_DAYS", 30, min_value=1)
# Webhooks (docs/webhooks.md): per game, attempts per post, failed posts in a row before
# a webhook is disabled, seconds per connect and per read, and for the whole post (an
# endpoint trickling its answer cannot hold a worker longer). The loopback allowance (plain
# http:// to 127.0.0.1) is for tests and local runs; `check --deploy` warns when it is on.
WEBHOOKS_PER_GAME = env.int("WEBHOOKS_PER_GAME", 8, min_value=1)
WEBHOOK_MAX_ATTEMPTS = env.int("WEBHOOK_MAX_ATTEMPTS", 6, min_value=1)
WEBHOOK_DISABLE_AFTER_FAILURES = env.int("WEBHOOK_DISABLE_AFTER_FAILURES", 3, min_value=1)
WEBHOOK_TIMEOUT_SECONDS = env.int("WEBHOOK_TIMEOUT_SECONDS", 10, min_value=1)
WEBHOOK_TOTAL_TIMEOUT_SECONDS = env.int("WEBHOOK_TOTAL_TIMEOUT_SECONDS", 15, min_value=1)
WEBHOOKS_ALLOW_INSECURE_LOCALHOST = env.bool("WEBHOOKS_ALLOW_INSECURE_LOCALHOST", False)
# Web Push (docs/push.md): the VAPID key pair (`manage.py make_vapid_keys`; none: no push)
# and the contact push services see; attempts per message, seconds per connect and read,
# and for the whole post (as webhooks'), how long a push service keeps a message for a
# device that is offline, devices per person. Plain http:// to a loopback endpoint only
# for tests and local runs (DEBUG).
VAPID_PUBLIC_KEY = env.str("VAPID_PUBLIC_KEY", "")
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", "")
VAPID_SUBJECT = env.str(
    "VAPID_SUBJECT", "mailto:" + DEFAULT_FROM_EMAIL.rpartition("<")[2].rstrip(">")
)
PUSH_MAX_ATTEMPTS = env.int("PUSH_MAX_ATTEMPTS", 5, min_value=1)
PUSH_TIMEOUT_SECONDS = env.int("PUSH_TIMEOUT_SECONDS", 10, min_value=1)
PUSH_TOTAL_TIMEOUT_SECONDS = env.int("PUSH_TOTAL_TIMEOUT_SECONDS", 15, min_value=1)
PUSH_TTL_SECONDS = env.int("PUSH_TTL_SECONDS", 24 * 60 * 60, min_value=0)
PUSH_SUBSCRIPTIONS_PER_USER = env.int("PUSH_SUBSCRIPTIONS_PER_USER", 10, min_value=1)
PUSH_ALLOW_INSECURE_LOCALHOST = env.bool("PUSH_ALLOW_INSECURE_LOCALHOST", DEBUG)
# Playing by replying to the email (docs/mail-in.md): turn
# emails get a Reply-To of REPLY_ADDRESS with a signed token as its +tag, only when set.
# With DEBUG (`make run`) it is play@localhost unless set: replies then go from the local
# mailbox's reply form to mail-in (mailin.dev_views), with no mail server.
REPLY_DOMAIN = env.str("REPLY_DOMAIN", "localhost" if DEBUG else "")
REPLY_ADDRESS = env.str("REPLY_ADDRESS", f"play@{REPLY_DOMAIN}" if REPLY_DOMAIN else "")
if REPLY_ADDRESS and ("@" not in REPLY_ADDRESS or "+" in REPLY_ADDRESS.partition("@")[0]):
    raise ImproperlyConfigured("REPLY_ADDRESS must be a plain address such as play@example.com.")
REPLY_TOKEN_MAX_AGE_DAYS = env.int("REPLY_TOKEN_MAX_AGE_DAYS", 45, min_value=1)
MAILIN_PER_ADDRESS_PER_HOUR = env.int("MAILIN_PER_ADDRESS_PER_HOUR", 60, min_value=1)
# Inbound mail larger than this is dropped unread (a reply with a move is a few KB; the
# Mailgun webhook answers 406, the pipe exits 0; mailin.intake).
MAILIN_MAX_MESSAGE_BYTES = env.int("MAILIN_MAX_MESSAGE_BYTES", 1024 * 1024, min_value=64 * 1024)
# Mailgun's inbound route posts to /inbound/mailgun/; its signature is checked with this key
# (empty: that URL answers 404).
ANYMAIL = {"MAILGUN_WEBHOOK_SIGNING_KEY": env.str("MAILGUN_WEBHOOK_SIGNING_KEY", "")}
# Bots at the table (docs/bots.md "Bots at the table"): a bot moves this many seconds after the
# turn passes to it (0: at once); the deadline sweep plays its move if its task is still
# not done that many seconds later (BOT_TURN_GRACE_SECONDS). A stand-in bot takes the seat
# of a player who timed out STAND_IN_AFTER_TIMEOUTS turns in a row (the game's option).
BOT_MOVE_DELAY_SECONDS = env.int("BOT_MOVE_DELAY_SECONDS", 3, min_value=0)
BOT_TURN_GRACE_SECONDS = env.int("BOT_TURN_GRACE_SECONDS", 120, min_value=1)
STAND_IN_AFTER_TIMEOUTS = env.int("STAND_IN_AFTER_TIMEOUTS", 3, min_value=1)
# Publish bot tasks even when tasks run eagerly (only tests that want a bot to move inline).
BOT_EAGER_ON_COMMIT = False
# Limits that keep the service from being used to spam strangers.
GAMES_PER_USER_PER_DAY = env.int("GAMES_PER_USER_PER_DAY", 20, min_value=1)
INVITATIONS_PER_USER_PER_DAY = env.int("INVITATIONS_PER_USER_PER_DAY", 50, min_value=1)
PENDING_INVITATIONS_PER_ADDRESS = env.int("PENDING_INVITATIONS_PER_ADDRESS", 5, min_value=1)
LOGIN_LINKS_PER_ADDRESS_PER_HOUR = env.int("LOGIN_LINKS_PER_ADDRESS_PER_HOUR", 5, min_value=1)
# API requests answered 401 per client address, in any window of so many minutes; beyond
# it the address's failed authentications get 429, valid credentials are still served
# (accounts.throttling.AuthFailureThrottleMiddleware).
API_AUTH_FAILURES_PER_ADDRESS = env.int("API_AUTH_FAILURES_PER_ADDRESS", 30, min_value=1)
API_AUTH_FAILURE_WINDOW_MINUTES = env.int("API_AUTH_FAILURE_WINDOW_MINUTES", 10, min_value=1)

# --- REST API ---------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.ApiTokenAuthentication",
        # DRF's, refusing suspended players (403 suspended) as the API key does.
        "accounts.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["core.api.parsers.JSONParser"],  # DRF's, with a depth limit
    "DEFAULT_PAGINATION_CLASS": "core.api.pagination.PageNumberPagination",
    "PAGE_SIZE": 20,
    "DEFAULT_SCHEMA_CLASS": "core.api.schema.ApiAutoSchema",
    "EXCEPTION_HANDLER": "core.api.errors.api_exception_handler",
    "DEFAULT_THROTTLE_CLASSES": [  # sliding-window counters; addresses as TRUSTED_PROXIES say
        "accounts.throttling.AnonRateThrottle",
        "accounts.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("API_THROTTLE_ANON", "60/min"),
        "user": env.str("API_THROTTLE_USER", "600/min"),
        "login_link": env.str("API_THROTTLE_LOGIN_LINK", "10/hour"),
        "reports": env.str("API_THROTTLE_REPORTS", "10/hour"),  # POST /api/reports/, per user
        # POST /api/games/{id}/webhooks/, per user, refused tries included (each resolves a host)
        "webhooks": env.str("API_THROTTLE_WEBHOOKS", "30/hour"),
        # POST /api/me/push-subscriptions/, per user, refused tries included (as webhooks)
        "push_subscriptions": env.str("API_THROTTLE_PUSH_SUBSCRIPTIONS", "30/hour"),
    },
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Piratz by mail API",
    "DESCRIPTION": "Play board games slowly, by email and over this REST API.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Request bodies get components of their own ("…Request"): they may then say
    # additionalProperties: false (core.api.schema) and leave out read-only fields.
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Fields named "kind" in several components: each choice set gets its own enum name.
    # One name for the treasure types, whichever field lists them (moves, standing orders).
    "ENUM_NAME_OVERRIDES": {
        "WebhookKindEnum": "webhooks.models.WebhookKind",
        "TreasureEnum": "games.kinds.piratz.rules.TREASURES",
        "ClockKindEnum": "games.models.ClockKind",
        # Where each kind of game news goes (push app, docs/push.md).
        "NewsChannelEnum": ["email", "push", "both"],
        # Tournaments (docs/tournaments.md): their own status and format, beside leagues'
        # format; and the catalogue's games, which several create bodies name as "game".
        "TournamentStatusEnum": ["signup", "running", "finished", "cancelled"],
        "TournamentFormatEnum": ["swiss", "elimination"],
        "LeagueFormatEnum": ["round_robin", "groups"],
        "GameKindEnum": ["piratz", "rattenscharf"],
    },
    # core.api.schema.add_links: OpenAPI links between operations (docs/api.md "Conformance").
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "core.api.schema.add_links",
        "core.api.schema.mark_required_bodies",
    ],
}

# Throttle counters live here, so every process must see the same cache: Redis when
# CACHE_URL is set (production), else a table in the database (`manage.py
# createcachetable`, which `make run` runs), never a per-process memory.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": env.url("CACHE_URL", "redis://", schemes=("redis", "rediss")),
        # A request that counts itself must not hang on an unreachable Redis (redis-py
        # waits 5 s by default): after a second the throttles let it through uncounted
        # and leave Redis alone for a while (core.cache_outage).
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
    if env.str("CACHE_URL", "")
    else {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "piratz_cache",
        # Culling drops entries at random once full: high, so counters are never culled.
        "OPTIONS": {"MAX_ENTRIES": 1_000_000},
    }
}

# The table stream (games.live, games.views.live; docs/operating.md "The table stream"):
# news of a game reaches the streams of every ASGI process through Redis publish/subscribe
# (games.news_bus), on the cache's Redis unless TABLE_NEWS_URL names another. Without Redis
# (`make run`) each stream reads its game's version every TABLE_STREAM_POLL_SECONDS.
_TABLE_NEWS_URL = env.str("TABLE_NEWS_URL", "") or env.str("CACHE_URL", "")
TABLE_NEWS_URL = (
    env.url("TABLE_NEWS_URL", _TABLE_NEWS_URL, schemes=("redis", "rediss"))
    if _TABLE_NEWS_URL
    else ""
)
TABLE_STREAM_POLL_SECONDS = env.int("TABLE_STREAM_POLL_SECONDS", 1, min_value=1)
# A comment line this often keeps proxies from closing an idle stream and tells the server
# that a reader has gone; it also renews the reader's presence, so below LIVE_SECONDS.
TABLE_STREAM_KEEPALIVE_SECONDS = env.int("TABLE_STREAM_KEEPALIVE_SECONDS", 20, min_value=1)
if TABLE_STREAM_KEEPALIVE_SECONDS >= LIVE_SECONDS:
    raise ImproperlyConfigured(
        f"TABLE_STREAM_KEEPALIVE_SECONDS={TABLE_STREAM_KEEPALIVE_SECONDS} must be below "
        f"LIVE_SECONDS={LIVE_SECONDS}: each keepalive renews the reader's presence."
    )

# Every handler carries the "redact" filter: no URL token, API key or readable address
# reaches a log line (core/redaction.py). Django's own defaults are replaced, not
# added to: its "console" handler on the "django" logger printed each django.* line a
# second time beside the root handler (twice under `make run`), and without our filter.
# One line per event: plain text, or with LOG_FORMAT=json one JSON object (time, level,
# logger, message, request_id); every line carries its request's id ("-" outside one).
LOG_LEVEL = env.str("LOG_LEVEL", "INFO")
LOG_FORMAT = env.str("LOG_FORMAT", "plain")
if LOG_FORMAT not in ("plain", "json"):
    raise ImproperlyConfigured(f"LOG_FORMAT must be plain or json; got {LOG_FORMAT!r}.")
_LOG_FILTERS = ["redact", "request_id"]
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "redact": {"()": "core.redaction.RedactingFilter"},
        "request_id": {"()": "core.logs.request_log.RequestIdFilter"},
    },
    "formatters": {
        "plain": {"format": "%(asctime)s [%(request_id)s] %(levelname)s %(name)s %(message)s"},
        "json": {"()": "core.logs.request_log.JsonFormatter"},
        # runserver's request lines, as Django prints them.
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": _LOG_FILTERS,
        },
        "django.server": {
            "class": "logging.StreamHandler",
            "formatter": "json" if LOG_FORMAT == "json" else "django.server",
            "filters": _LOG_FILTERS,
        },
    },
    "loggers": {
        # No handler of its own (Django's console and mail_admins go): it reaches the root's.
        "django": {"handlers": [], "level": LOG_LEVEL, "propagate": True},
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
}
# Celery workers keep this configuration instead of replacing the root's handlers with
# their own, unfiltered ones.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# Python writes its warnings (a deprecation, a missing static folder) to stderr as plain
# text; as records of the "py.warnings" logger they become JSON lines too. (gunicorn's own
# lines: core/logs/server_log.py.)
if LOG_FORMAT == "json":
    logging.captureWarnings(True)

# --- Health and metrics (docs/operating.md "Health and metrics") -------------------------
# Who may read /metrics: a bearer token and/or client networks; neither: this machine only.
METRICS_TOKEN = env.str("METRICS_TOKEN", "")
METRICS_ALLOWED_ADDRESSES = env.networks("METRICS_ALLOWED_ADDRESSES", [])
# The whole-table counts (moves, emails by kind and status) are recounted at most this often.
METRICS_COUNTS_CACHE_SECONDS = env.int("METRICS_COUNTS_CACHE_SECONDS", 30, min_value=0)
# Errors reported to Sentry when SENTRY_DSN is set, redacted (core/logs/error_reports.py).
SENTRY_DSN = env.str("SENTRY_DSN", "")
init_error_reports(
    SENTRY_DSN,
    environment=env.str("SENTRY_ENVIRONMENT", ""),
    release=env.str("SENTRY_RELEASE", ""),
)
