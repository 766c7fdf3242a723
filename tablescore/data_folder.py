"""The folder where an installed Tablescore keeps a club's tournaments: the database, its secret key, the
organiser's first password, snapshots and the caches' files. Upgrading the package leaves it alone."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

#: The environment variable the settings read (``config.env.data_dir``); the command sets it for itself.
VARIABLE = "TABLESCORE_DATA"


def default_data_folder() -> Path:
    """The platform's folder for a user's application data: ``%LOCALAPPDATA%\\Tablescore`` on Windows,
    ``~/Library/Application Support/Tablescore`` on macOS, ``~/.local/share/Tablescore`` on Linux."""
    return Path(platformdirs.user_data_dir("Tablescore", appauthor=False))


def use_data_folder(folder: Path | str | None) -> Path:
    """Make ``folder`` (else ``TABLESCORE_DATA``, else the platform's default) and point the settings at it."""
    chosen = Path(folder or os.environ.get(VARIABLE) or default_data_folder()).expanduser().resolve()
    chosen.mkdir(parents=True, exist_ok=True)
    os.environ[VARIABLE] = str(chosen)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    return chosen
