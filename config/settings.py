"""Settings for Versenyportál, read from the environment (12-factor).

The embedded default (no variables set) is SQLite, Celery in eager mode and console e-mail;
production sets DATABASE_URL, CELERY_BROKER_URL, SECRET_KEY, PORTAL_URL, ALLOWED_HOSTS and the e-mail
variables.
"""

from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False) if (BASE_DIR / ".env").exists() else None

DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG is off (set DEBUG=1 for local development)."
        )
    SECRET_KEY = "insecure-development-key-only-used-with-DEBUG-on"

# The portal's public address (scheme and host, no trailing slash): every link in an e-mail is built from it
# (federation.services.notifications.absolute_url), since a mail has no request to take the host from.
PORTAL_URL = env.str("PORTAL_URL", default="").rstrip("/")
if not PORTAL_URL:
    if not DEBUG:
        raise ImproperlyConfigured(
            "PORTAL_URL must be set when DEBUG is off (the address in e-mail links, e.g. https://versenyportal.hu)."
        )
    PORTAL_URL = "http://127.0.0.1:8000"

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",  # trigram lookups of the search (tournaments/services/search.py)
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "csp",
    "auditlog",
    # Without autodiscovery of rules.py: each app declares its permissions in permissions.py
    # (loaded by federation.apps.FederationConfig.ready).
    "rules",
    "bootstrap",
    "federation",
    "tournaments",
    "results",
    "bridge",
    "ulti",
    "teams",
    "rankings",
    "appeals",
    "demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "config.security_headers.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "federation.middleware.HungarianFirstLocaleMiddleware",
    # A lost database connection answers 503 + Retry-After (the transaction is rolled back), not a 500.
    "federation.middleware.DatabaseUnavailableMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Records the logged-in (or API-token) user as the actor of every audit-log entry of the request.
    "federation.audit.AuditActorMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # federation.access.LoginRequired raised by a page: a redirect to the login page.
    "federation.access.LoginRequiredMiddleware",
    # A query-string value a page cannot use (config.query.BadQuery) answers 400 with the reason.
    "federation.middleware.BadQueryMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes requires: it turns locked-out logins into a 429 page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

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
                "federation.context_processors.portal",
                "tournaments.context_processors.alerts",
            ],
        },
    },
]

# An empty DATABASE_URL counts as unset: the embedded SQLite file.
DATABASES = {
    "default": env.db_url_config(env.str("DATABASE_URL", default="") or f"sqlite:///{VAR_DIR / 'db.sqlite3'}")
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several request threads and eager Celery tasks write to one file; wait instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "rules.permissions.ObjectPermissionBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 10}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Self-registered accounts stay inactive until the mailed link is followed (federation/services/accounts.py); a
# member link waits for the member's confirmation by mail (or a club admin's / the staff's approval).
EMAIL_VERIFICATION_MAX_AGE = env.int("EMAIL_VERIFICATION_MAX_AGE", default=3 * 86400)
LINK_CONFIRMATION_MAX_AGE = env.int("LINK_CONFIRMATION_MAX_AGE", default=7 * 86400)
# Attempts per ACCOUNT_THROTTLE_WINDOW seconds (federation/services/throttle.py): member linking per account, per
# member record and per address; registration and "send the link again" per address and per e-mail.
ACCOUNT_THROTTLE_WINDOW = env.int("ACCOUNT_THROTTLE_WINDOW", default=3600)
ACCOUNT_THROTTLE_LIMITS = {
    "link_account": env.int("LINK_ATTEMPTS_PER_ACCOUNT", default=5),
    "link_member": env.int("LINK_ATTEMPTS_PER_MEMBER", default=5),
    "link_ip": env.int("LINK_ATTEMPTS_PER_IP", default=20),
    "register_ip": env.int("REGISTRATIONS_PER_IP", default=10),
    "register_address": env.int("REGISTRATIONS_PER_ADDRESS", default=3),
}
# The search page (/search/) per client address and minute: it lists names, so it is not left open to scraping.
SEARCH_THROTTLE_PER_MINUTE = env.int("SEARCH_THROTTLE_PER_MINUTE", default=60)
# The table entry phone page (/bridge/table/<code>/, no account): every request per client address and minute
# (a club's phones often share one address), and unknown codes per address in 10 minutes: past it the address
# is refused for the rest of the window, known codes included, so a code cannot be guessed.
TABLE_ENTRY_THROTTLE_PER_MINUTE = env.int("TABLE_ENTRY_THROTTLE_PER_MINUTE", default=300)
TABLE_CODE_MISSES = env.int("TABLE_CODE_MISSES", default=10)
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# The client address of throttles and the login lockout (federation/client_ip.py): X-Forwarded-For is read
# only when this many trusted proxies of ours stand in front of gunicorn (0: the header is ignored).
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)

# Login lockout (django-axes, federation/login_security.py): a username is locked after AXES_FAILURE_LIMIT
# failures, an address after AXES_IP_FAILURE_LIMIT failures over all usernames (password spraying); both
# for AXES_COOLOFF_TIME after the last failure (failures while locked do not extend it), answered 429 with
# Retry-After.
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_IP_FAILURE_LIMIT = env.int("AXES_IP_FAILURE_LIMIT", default=30)
AXES_COOLOFF_TIME = env.float("AXES_COOLOFF_HOURS", default=0.25)
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_HANDLER = "federation.login_security.LoginLockoutHandler"
AXES_CLIENT_IP_CALLABLE = "federation.client_ip.client_ip"
AXES_LOCKOUT_CALLABLE = "federation.login_security.lockout_response"
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True
AXES_ENABLED = env.bool("AXES_ENABLED", default=True)

LANGUAGE_CODE = "hu"
LANGUAGES = [("hu", _("Hungarian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Budapest"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = env.path("STATIC_ROOT", default=str(VAR_DIR / "static"))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
# Uploads live outside the web root and are only served through permission-checked views.
MEDIA_ROOT = env.path("MEDIA_ROOT", default=str(VAR_DIR / "uploads"))
MEDIA_URL = "/media/"
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024
# The largest result file (PBN, CSV) any game's upload page or API takes, in bytes (results/upload_input.py).
RESULT_UPLOAD_MAX_BYTES = env.int("RESULT_UPLOAD_MAX_BYTES", default=4 * 1024 * 1024)

# E-mail: console by default; EMAIL_URL (e.g. smtp+tls://user:pass@host:587) in production.
_email = env.email_url("EMAIL_URL", default="consolemail://")
vars().update(_email)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Versenyportál <noreply@versenyportal.hu>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=_email.get("EMAIL_TIMEOUT") or 30)
# The outbox (federation.tasks): a mail is tried at most this many times, then marked failed with the last
# error (federation staff see it on /outbox/); tries at least this many seconds apart (the sweep runs every 5
# minutes).
NOTIFICATION_MAX_ATTEMPTS = env.int("NOTIFICATION_MAX_ATTEMPTS", default=5)
NOTIFICATION_RETRY_SECONDS = env.int("NOTIFICATION_RETRY_SECONDS", default=240)

CACHES = {"default": env.cache("CACHE_URL", default="locmemcache://")}
# Public pages that change only on recompute are cached for anonymous visitors (results/page_cache.py); 0: off.
PAGE_CACHE_SECONDS = env.int("PAGE_CACHE_SECONDS", default=300)

# Celery: no broker configured means eager mode (tasks run in-process, after commit).
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Socket timeouts: a frozen (not dead) Redis would otherwise hang every publish, i.e. every upload request.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 600,
    "socket_timeout": 5,
    "socket_connect_timeout": 5,
}
CELERY_BEAT_SCHEDULE = {
    "send-pending-notifications": {"task": "federation.tasks.send_pending_notifications", "schedule": 300.0},
    "rankings-confirmation-deadlines": {"task": "rankings.tasks.confirmation_deadlines", "schedule": 900.0},
    "rankings-refresh-current-lists": {"task": "rankings.tasks.refresh_current_lists", "schedule": 86400.0},
    "appeals-lapse-overdue": {"task": "appeals.tasks.lapse_overdue_appeals", "schedule": 300.0},
    # Directors whose qualification expired leave the events not yet finished (VSz 9); safe twice.
    "tournaments-release-expired-directors": {
        "task": "tournaments.tasks.release_expired_directors",
        "schedule": 3600.0,
    },
    # Recomputes whose message was lost (broker down at upload, worker killed): re-published after a grace.
    "results-sweep-recomputes": {"task": "results.tasks.sweep_recomputes", "schedule": 60.0},
    # Bridge sessions whose announced start the clock has passed: their start is recorded, deals open.
    "bridge-record-due-starts": {"task": "bridge.tasks.record_due_starts", "schedule": 60.0},
    # Their hand records (double-dummy, par) once the start has passed, whether or not a recompute runs.
    "bridge-compute-due-hand-records": {"task": "bridge.tasks.compute_due_hand_records", "schedule": 120.0},
}
RECOMPUTE_SWEEP_GRACE_SECONDS = env.int("RECOMPUTE_SWEEP_GRACE_SECONDS", default=120)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": [
        # DjangoFilterBackend whose integer filters refuse values outside their column's range (a 400).
        "config.query.BoundedFilterBackend",
        "rest_framework.filters.SearchFilter",
        "rest_framework.filters.OrderingFilter",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # federation.access.LoginRequired (an anonymous caller) as DRF's NotAuthenticated.
    "EXCEPTION_HANDLER": "federation.access.api_exception_handler",
    # Per client address (anonymous) and per user; 429 with Retry-After beyond them (config/throttling.py).
    "DEFAULT_THROTTLE_CLASSES": ["config.throttling.AnonRateThrottle", "config.throttling.UserRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("API_THROTTLE_ANON", default="120/min"),
        "user": env.str("API_THROTTLE_USER", default="600/min"),
    },
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Versenyportál API",
    "DESCRIPTION": "Calendar, entries, results, rankings and appeals of MBSz and MAUSZ.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Production hardening; all on unless DEBUG.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SESSION_COOKIE_HTTPONLY = True
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"

# Content Security Policy (django-csp): only our own origin, no inline script or style anywhere (templates use
# static files and classes; data: images are Bootstrap's and Swagger UI's SVG icons). /api/docs/ serves its
# Swagger UI start-up script as a separate file (SpectacularSwaggerSplitView), so it needs no exception.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
# Browser features the portal never uses are switched off (config.security_headers).
PERMISSIONS_POLICY = (
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), "
    "payment=(), usb=()"
)

# Audit log (django-auditlog, models registered in federation/audit.py): who changed which entry, role,
# result version or appeal decision, and how. Rows are never edited; the admin shows them read-only.
AUDITLOG_INCLUDE_ALL_MODELS = False

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}

# WhiteNoise warns at start-up when the collected-static folder is missing (development, tests).
Path(STATIC_ROOT).mkdir(parents=True, exist_ok=True)
