"""Reading settings from the environment, with defaults for a laptop at a club night."""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured


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


def secret_key(path: Path) -> str:
    """``SECRET_KEY`` from the environment, else from ``path``, generated there once when absent."""
    key = os.environ.get("SECRET_KEY")
    if key:
        return key
    if path.exists():
        return path.read_text().strip()
    key = secrets.token_urlsafe(50)
    path.write_text(key + "\n")
    path.chmod(0o600)
    return key


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
