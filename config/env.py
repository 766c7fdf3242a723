"""Reading settings from the environment, with defaults for a laptop at a club night."""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

#: The names this laptop answers to by default (``ALLOWED_HOSTS`` unset).
LOCAL_HOSTS = ["127.0.0.1", "localhost", "[::1]"]


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


#: The folder that holds ``manage.py``, ``config/`` and the app's packages (site-packages once installed).
BASE_DIR = Path(__file__).resolve().parent.parent


def data_dir() -> Path:
    """Where this machine keeps what it makes (the SQLite database, its secret key, the organiser's first password,
    the caches' files, snapshots): ``TABLESCORE_DATA``, which the installed ``tablescore`` command sets to the
    user's data folder, else beside ``manage.py`` in a checkout."""
    return Path(os.environ.get("TABLESCORE_DATA") or BASE_DIR)


def secret_key_file() -> Path:
    """Where a laptop keeps its own secret key when ``SECRET_KEY`` is not set (never committed)."""
    return data_dir() / ".secret_key"


def secret_key(path: Path | None = None) -> str:
    """``SECRET_KEY`` from the environment, else from ``path``; empty (Django then refuses to start) when neither."""
    key = os.environ.get("SECRET_KEY")
    if key:
        return key
    path = path or secret_key_file()
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        return ""


def ensure_secret_key(path: Path | None = None) -> None:
    """Make ``path`` with a new random key when neither it nor ``SECRET_KEY`` exists. The entry points
    (``manage.py``, ``config/wsgi.py``, ``make test``) call it before the settings are read; created at most once,
    whoever comes first, and readable by its owner alone."""
    path = path or secret_key_file()
    if os.environ.get("SECRET_KEY") or path.exists():
        return
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    with os.fdopen(descriptor, "w") as handle:
        handle.write(secrets.token_urlsafe(50) + "\n")


RATE_UNITS = {"s": 1, "m": 60, "h": 3600}


def env_rate(name: str, default: str) -> tuple[int, int] | None:
    """A rate limit such as ``30/m`` (30 a minute; also ``s``, ``h``, or ``20/5m``) as (requests, seconds).

    ``off`` gives None: no limit.
    """
    value = (os.environ.get(name) or default).strip().lower()
    if value == "off":
        return None
    match = re.fullmatch(r"(\d+)\s*/\s*(\d*)\s*([smh])", value)
    if not match or int(match[2] or 1) == 0:
        raise ImproperlyConfigured(f"{name} must look like 30/m (requests per s, m or h) or off, not {value!r}")
    return int(match[1]), int(match[2] or 1) * RATE_UNITS[match[3]]
