"""Reading settings from the environment, with defaults for a laptop at a club night."""

from __future__ import annotations

import os
import secrets
from pathlib import Path


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
