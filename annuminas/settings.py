"""One settings module, read from the environment.

Embedded default (nothing set): SQLite file in the project folder, Celery tasks run eagerly
in-process, local-memory cache. Deployment: ``DATABASE_URL=postgres://…`` (psycopg 3) and
``REDIS_URL=redis://…`` (Celery broker, result backend and cache), plus the production switches
below. ``python manage.py check --deploy`` is clean with production values (see .ci/run).
"""

import os
import secrets
import sys
from pathlib import Path

import environ
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

DEBUG = env.bool("DEBUG", default=False)
# The development key is public (it is in the repository): only DEBUG may use it. Anything else
# without SECRET_KEY, or with a key published in this repository, refuses to start rather than
# sign sessions, password-reset and e-mail confirmation links with a key everybody knows.
DEVELOPMENT_SECRET_KEY = "django-insecure-local-development-key-change-me"  # noqa: S105
PUBLIC_SECRET_KEYS = frozenset(
    {
        DEVELOPMENT_SECRET_KEY,
        # docker-compose.yml's former default: a placeholder, published with the repository.
        "set-a-long-random-SECRET_KEY-in-.env-before-deploying",
    }
)
RUNNING_TESTS = "pytest" in sys.modules
SECRET_KEY = env.str("SECRET_KEY", default="")
if RUNNING_TESTS and not SECRET_KEY:
    # A throw-away key per test run; processes the run starts (a real Celery worker) inherit it.
    SECRET_KEY = os.environ["SECRET_KEY"] = "test-run-" + secrets.token_urlsafe(40)
if not SECRET_KEY and DEBUG:
    SECRET_KEY = DEVELOPMENT_SECRET_KEY
if not DEBUG and (not SECRET_KEY or SECRET_KEY.strip() in PUBLIC_SECRET_KEYS):
    raise ImproperlyConfigured(
        "SECRET_KEY is not set, or is a public key from the repository, and DEBUG is off: "
        "set SECRET_KEY to a long random value of your own (or DEBUG=true for local "
        "development, as `make run` does)."
    )
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "allauth",
    "allauth.account",
    "simple_history",
    "annuminas.accounts",
    "annuminas.api",
    "rules",
    "warbands",
    "battles",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "annuminas.middleware.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Below WhiteNoise, which serves static files compressed ahead (gzip and brotli) itself.
    "annuminas.middleware.CompressionMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "annuminas.middleware.SiteLocaleMiddleware",
    "annuminas.middleware.RejectNullBytesMiddleware",
    "annuminas.middleware.BackendUnavailableMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # X-RateLimit-* on API answers, from the budgets the throttles noted.
    "annuminas.api.throttling.RateLimitHeadersMiddleware",
    # A POST to the API with Idempotency-Key answers a retry with the first answer.
    "annuminas.api.idempotency.IdempotencyMiddleware",
]

ROOT_URLCONF = "annuminas.urls"
WSGI_APPLICATION = "annuminas.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE transactions serialise writers on SQLite the way row locks do on PostgreSQL.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20}
    )
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # Server-side binding lets psycopg prepare the statements a worker repeats thousands of times
    # (planning was a third of a post-battle run's SQL time). Turn it off behind a
    # transaction-pooling proxy such as pgbouncer.
    DATABASES["default"].setdefault("OPTIONS", {})["server_side_binding"] = env.bool(
        "DB_SERVER_SIDE_BINDING", default=True
    )
    # A database host that does not answer (a failover, a network cut) fails the connection in
    # seconds, answered 503 (annuminas.outage), instead of holding a web thread for minutes.
    DATABASES["default"]["OPTIONS"].setdefault(
        "connect_timeout", env.int("DB_CONNECT_TIMEOUT", default=5)
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: cache, Celery -------------------------------------------------------------------
REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL:
    CACHES = {
        "default": {
            # Redis down: reads miss, writes are dropped, requests go on (annuminas/cache.py).
            "BACKEND": "annuminas.cache.ResilientRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env.str("CACHE_KEY_PREFIX", default="annuminas"),
            # Keys carry the database's epoch: nothing cached outlives a restore.
            "KEY_FUNCTION": "annuminas.cache.epoch_key",
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "KEY_FUNCTION": "annuminas.cache.epoch_key",
        }
    }

CELERY_BROKER_URL = REDIS_URL or "memory://localhost/"  # a host named, so kombu does not warn
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
# No broker configured: tasks run in-process, synchronously (the embedded default).
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
# After every roster write, render the warband's sheet ahead of its next view (a task).
SHEET_WARM_ON_WRITE = env.bool("SHEET_WARM_ON_WRITE", default=True)
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=300)
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=240)
CELERY_RESULT_EXPIRES = 3600
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_DB_REUSE_MAX = env.int("CELERY_DB_REUSE_MAX", default=1000)  # reuse connections (bench)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Sending a task from a request (annuminas.tasks.enqueue_safely) must give up at once when Redis
# is down: one connection attempt (kombu retried for 6 s), a short connect timeout, then a
# circuit breaker that waits BROKER_RETRY_AFTER seconds (doubling) before trying. Workers keep
# reconnecting on their own (broker_connection_max_retries).
CELERY_BROKER_CONNECTION_TIMEOUT = env.float("CELERY_BROKER_CONNECTION_TIMEOUT", default=1.0)
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = CELERY_BROKER_CONNECTION_TIMEOUT
BROKER_RETRY_AFTER = env.float("BROKER_RETRY_AFTER", default=10.0)
# A message whose worker died unacknowledged goes back to the queue after this long; it must
# exceed any task's run time. The sweeper re-sends a lost post-battle run much sooner (after
# POSTBATTLE_RUN_LOST_AFTER seconds without a heartbeat); the late redelivery is then a no-op.
# A Redis that accepts connections and never answers (frozen, or a network path that drops
# after the handshake) held a send for good: socket_timeout bounds every command. It must stay
# above the 1 s a worker's BRPOP waits for a message.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 900,
    "max_retries": 0,  # a publisher's connection: one attempt
    "socket_connect_timeout": CELERY_BROKER_CONNECTION_TIMEOUT,
    "socket_timeout": 3,
}
CELERY_REDIS_SOCKET_TIMEOUT = 3
POSTBATTLE_RUN_LOST_AFTER = env.int("POSTBATTLE_RUN_LOST_AFTER", default=120)
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_TASK_DEFAULT_QUEUE", default="annuminas")
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE = {
    "nightly-standings": {
        "task": "battles.standings_recompute",
        "schedule": crontab(hour=3, minute=30),
    },
    # Every minute, so a killed worker's runs are re-sent within POSTBATTLE_RUN_LOST_AFTER + 60 s;
    # a sweep nobody picked up within the minute is dropped (the next one replaces it).
    "sweep-stuck-jobs": {
        "task": "battles.jobs_sweep",
        "schedule": 60.0,
        "options": {"expires": 55},
    },
    # Notifications: the daily digest, rounds closing within 48 h, webhook deliveries to retry.
    "notifications-digest": {
        "task": "battles.notifications_digest",
        "schedule": crontab(hour=7, minute=0),
    },
    "notifications-rounds-closing": {
        "task": "battles.rounds_closing_notify",
        "schedule": crontab(minute=5),
    },
    "notifications-resend": {
        "task": "battles.notifications_resend",
        "schedule": 60.0,
        "options": {"expires": 55},
    },
}
# The site's public address, for links in e-mails, webhooks and calendar feeds.
SITE_URL = env.str("SITE_URL", default="http://localhost:8000")
# Webhooks may point at private or loopback addresses only when this is on (development, tests).
WEBHOOKS_ALLOW_PRIVATE = env.bool("WEBHOOKS_ALLOW_PRIVATE", default=False)

# --- Auth -------------------------------------------------------------------------------------
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGIN_ON_PASSWORD_RESET = False
# Failed logins (login page and the API's token endpoint, see accounts.services.user_authenticate)
# per address and per login name; checked before any password is hashed, kept in the cache.
ACCOUNT_RATE_LIMITS = {
    "login_failed": env.str("LOGIN_FAILED_RATE_LIMIT", default="10/m/ip,5/5m/key"),
    # allauth also limits every login (30 a minute per address, successes included): a game
    # night on one Wi-Fi, or every player behind one proxy, would be locked out. Failures only.
    "login": None,
}
# The failed-login lockout above holds unknown devices; a browser that signed in before (a signed
# device cookie, annuminas.accounts.lockout) is held only by this limit of its own.
ACCOUNT_ADAPTER = "annuminas.accounts.adapter.AccountAdapter"
DEVICE_LOGIN_FAILED_RATE_LIMIT = env.str("DEVICE_LOGIN_FAILED_RATE_LIMIT", default="5/5m/key")
# Behind a reverse proxy, the client address is the proxy's unless this says how many proxies
# append to X-Forwarded-For (0: use REMOTE_ADDR, for gunicorn facing the clients directly).
ALLAUTH_TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
ACCOUNT_DEFAULT_HTTP_PROTOCOL = env.str("ACCOUNT_DEFAULT_HTTP_PROTOCOL", default="http")
EMAIL_BACKEND = env.str("EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Annúminas <no-reply@localhost>")

# --- i18n -------------------------------------------------------------------------------------
LANGUAGE_CODE = "es"
LANGUAGES = [("es", _("Spanish")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "Europe/Madrid"
LANGUAGE_COOKIE_NAME = "annuminas_language"

# --- Static files ------------------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if env.bool("STATIC_MANIFEST", default=False)
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
# Serve straight from the finders when collectstatic has not run (make run, tests).
WHITENOISE_USE_FINDERS = env.bool("WHITENOISE_USE_FINDERS", default=True)

# --- REST API -----------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: an anonymous API call then gets 401 with WWW-Authenticate, not 403.
        "annuminas.api.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": [
        # JSON only: a body in another format is a 415 (no view uploads a file).
        "annuminas.api.parsers.SafeJSONParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "annuminas.api.pagination.StandardPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        "annuminas.api.filters.StrictOrderingFilter",
    ],
    "DEFAULT_THROTTLE_CLASSES": [
        "annuminas.api.throttling.WriteRateThrottle",
        "annuminas.api.throttling.AnonRateThrottle",
    ],
    # The client's address is the X-Forwarded-For entry our own proxies added, as for the login
    # limits; with no proxy, the connection's address (a client-written header is ignored).
    "NUM_PROXIES": ALLAUTH_TRUSTED_PROXY_COUNT,
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("THROTTLE_ANON", default="600/minute"),
        "writes": env.str("THROTTLE_WRITES", default="600/minute"),
        "auth": env.str("THROTTLE_AUTH", default="30/minute"),
    },
    "EXCEPTION_HANDLER": "annuminas.api.errors.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "annuminas.api.autoschema.ContractAutoSchema",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Annúminas API",
    "DESCRIPTION": (
        "Warband rosters, the rules engine and campaigns of the Annúminas skirmish game. "
        'Every error answers {"error": {"code", "message", "fields"}}.'
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Every operation also lists the error answers (one shape) it may give.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "annuminas.api.schema.document_errors",
        "annuminas.api.schema.complete_contract",
    ],
    # Choice sets that share a field name get stable, readable enum names.
    "ENUM_NAME_OVERRIDES": {
        "FighterStatusEnum": "warbands.models.Fighter.Status",
        "BattleStatusEnum": "battles.models.Battle.Status",
        "BattleEventKindEnum": "battles.models.BattleEvent.Kind",
        "MembershipRoleEnum": "battles.models.Membership.Role",
        "PackVersionStateEnum": "warbands.models.PackVersion.State",
        "CampaignStateEnum": "battles.models.Campaign.State",
        "AttackKindEnum": [("melee", "melee"), ("shooting", "shooting")],
    },
}

# --- Security (production switches) ----------------------------------------------------------
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=False)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=False)
# Sessions stay in the database (Django's default): a cached copy would outlive a logout whose
# cache delete was lost while Redis blinked (the resilient cache drops failed writes).
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=False)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
SECURE_CONTENT_TYPE_NOSNIFF = True
# Content-Security-Policy (annuminas.middleware; Django 6's SECURE_CSP shape): the site's own
# scripts and stylesheets only — no inline script or style, no eval (htmx is told so in
# base.html) —, images from the site and data: URLs (Pico's icons), no framing, no plugins.
SECURE_CSP = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    # Tasks run in-process (the embedded default) are part of the request or command that queued
    # them: a line per success would bury the dev server's log; failures are still logged.
    "loggers": ({"celery.app.trace": {"level": "WARNING"}} if CELERY_TASK_ALWAYS_EAGER else {}),
}

# Demo account created by `make run` (manage.py bootstrap_demo).
DEMO_USERNAME = "demo"
DEMO_PASSWORD = "annuminas-demo"  # noqa: S105 - public demo credentials, printed by make run
