"""Tablescore settings, read from the environment (see README: "Settings")."""

from __future__ import annotations

import os
import tempfile
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config.env import BASE_DIR, LOCAL_HOSTS, data_dir, env_bool, env_list, env_rate, secret_key

#: What the app serves and shows (``templates/``, ``static/``, ``locale/``): beside ``manage.py`` in a checkout,
#: inside the ``tablescore`` package once installed (the wheel puts them there).
APP_FILES_DIR = BASE_DIR / "tablescore" if (BASE_DIR / "tablescore" / "templates").is_dir() else BASE_DIR
#: What this machine makes: the SQLite database, the secret key, caches and snapshots (``config.env.data_dir``).
DATA_DIR = data_dir()

SECRET_KEY = secret_key()
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", LOCAL_HOSTS)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

#: The address phones reach this Tablescore at (``http://192.168.1.20:8000``), for every QR code and printed link
#: unless an event has its own; empty: the address each page was asked for. Checked as the app starts
#: (``tournaments/checks.py``), cleaned where it is used (``tournaments/public_address.py``).
PUBLIC_URL = os.environ.get("PUBLIC_URL", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "django_tables2",
    "axes",
    "tournaments",
]

MIDDLEWARE = [
    "tournaments.after_response.AfterResponseMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "tournaments.edge.body_size.RequestSizeLimitMiddleware",
    "tournaments.edge.headers.SecurityHeadersMiddleware",
    "tournaments.edge.headers.PrivateResponsesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "tournaments.edge.rate_limits.RateLimitMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
    "tournaments.edge.busy_database.DatabaseUnavailableMiddleware",
    "tournaments.access.OrganiserLoginMiddleware",
    "tournaments.devices.DeviceCookieMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [APP_FILES_DIR / "templates"],
        "OPTIONS": {
            "loaders": [
                (
                    "django.template.loaders.cached.Loader",
                    [
                        "django.template.loaders.filesystem.Loader",
                        "django.template.loaders.app_directories.Loader",
                        "tournaments.games.loaders.Loader",
                    ],
                )
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"


def database_settings(url: str) -> dict:
    """One database from ``DATABASE_URL``."""
    config = dj_database_url.parse(url, conn_max_age=0 if url.startswith("sqlite") else 60, conn_health_checks=True)
    return sqlite_tuned(config)


def sqlite_file_settings(path: Path) -> dict:
    """The SQLite file at ``path``, named as it is: a folder such as ``C:\\Users\\Núria Pérez`` needs no URL."""
    return sqlite_tuned({"ENGINE": "django.db.backends.sqlite3", "NAME": str(path), "CONN_HEALTH_CHECKS": True})


def sqlite_tuned(config: dict) -> dict:
    """SQLite gets WAL, a busy timeout and immediate writes; other databases are left as they are."""
    if config["ENGINE"] == "django.db.backends.sqlite3":
        config["OPTIONS"] = {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
        # Tests use a file too (not shared-cache memory), so concurrent writers meet real SQLite locking.
        config["TEST"] = {"NAME": os.path.join(tempfile.gettempdir(), f"tablescore-test-{os.getpid()}.sqlite3")}
    return config


DATABASES = {
    "default": (
        database_settings(os.environ["DATABASE_URL"])
        if os.environ.get("DATABASE_URL")
        else sqlite_file_settings(DATA_DIR / "db.sqlite3")
    )
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# django-axes refuses logins after too many failures (see "Login throttling" below), then Django's own check.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = os.environ.get("LANGUAGE_CODE", "en")
LANGUAGES = [("en", _("English")), ("es", _("Spanish")), ("it", _("Italian"))]
#: The app's catalogues first, then the date words of the formats package (lower-case Italian months).
LOCALE_PATHS = [APP_FILES_DIR / "locale", BASE_DIR / "config" / "formats" / "locale"]
#: Dates in each language's own style, where Django's formats differ from it.
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Rome")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [APP_FILES_DIR / "static"]
#: Made as the app starts if missing (``tournaments/apps.py``): whitenoise warns of a missing one.
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or DATA_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournaments:dashboard"
LOGOUT_REDIRECT_URL = "tournaments:home"

# Security: strict by default; HTTPS settings switch on with HTTPS=1 behind a TLS proxy.
HTTPS = env_bool("HTTPS", False)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if HTTPS else None
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", 31536000 if HTTPS else 0))
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True

DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024

# tournaments/edge/: the Content-Security-Policy (no inline scripts or styles), bodies refused from their
# Content-Length (413) above 256 kB, or 2 MB for the player list import and 200 MB for pictures of paper sheets, and
# rate limits.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "frame-ancestors 'none'; form-action 'self'; base-uri 'self'"
)
REQUEST_BODY_LIMIT = 256 * 1024
REQUEST_BODY_LIMITS = {"tournaments:players_import": 2 * 1024 * 1024, "tournaments:round_paper": 200 * 1024 * 1024}
# Behind a proxy, CLIENT_IP_HEADER names the header whose last entry the proxy sets to the client's address
# (X-Forwarded-For); without it the client's address is the connection's.
CLIENT_IP_HEADER = os.environ.get("CLIENT_IP_HEADER", "")
# Rate limits, as (requests, seconds): saves (POST, PUT, PATCH, DELETE) through one table's or player's link;
# views of SAVE_RATE_LIMITS count apart with their own limit (the live check runs as the table types); and
# "not found" answers per client address under NOT_FOUND_PREFIXES, past which that address gets 429 there.
SAVE_RATE_LIMIT = env_rate("SAVE_RATE_LIMIT", "30/m")
SAVE_RATE_LIMITS = dict.fromkeys(
    ["tournaments:table_check", "tournaments:player_table_check"], env_rate("CHECK_RATE_LIMIT", "240/m")
)
NOT_FOUND_RATE_LIMIT = env_rate("NOT_FOUND_RATE_LIMIT", "60/m")
NOT_FOUND_PREFIXES = ("/t/", "/p/", "/api/")


def cache_settings(url: str, folder: str) -> dict:
    """The cache aliases: with ``CACHE_URL`` (redis://, rediss:// or unix://) all in that Redis server, shared
    by every process of every machine; without it files shared by the processes of this machine: ``ratelimit``
    (the rate limits' counts) in ``folder``, ``default`` (the live standings' renders) in its ``live`` folder."""
    if url:
        if not url.startswith(("redis://", "rediss://", "unix://")):
            raise ImproperlyConfigured(f"CACHE_URL must be a redis://, rediss:// or unix:// address, not {url!r}")
        redis = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}
        return {alias: {**redis, "KEY_PREFIX": f"tablescore:{alias}"} for alias in ("default", "ratelimit")}
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": os.path.join(folder, "live"),
        },
        "ratelimit": {
            "BACKEND": "tournaments.ratelimit_files.CountsFileBasedCache",
            "LOCATION": folder,
            "OPTIONS": {"MAX_ENTRIES": 5000},
        },
    }


CACHES = cache_settings(
    os.environ.get("CACHE_URL", ""), os.environ.get("RATELIMIT_CACHE_DIR") or str(DATA_DIR / ".ratelimit")
)

# Login throttling (django-axes): 5 failures for one user name from one client address lock that pair out for 15
# minutes (429, the form again); other addresses and other users are not held up. Failures are rows in the
# database, so every process and machine sees them; a success clears them.
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_CLIENT_IP_CALLABLE = "tournaments.edge.client_address.client_ip"
AXES_LOCKOUT_CALLABLE = "tournaments.edge.login_throttle.login_lockout"
AXES_DISABLE_ACCESS_LOG = True

# Game bundles kept outside tournaments/games/ (module paths, each exposing GAME); see docs/architecture.md.
EXTRA_GAMES: list[str] = []

DJANGO_TABLES2_TEMPLATE = "django_tables2/semantic.html"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
