"""Set up Django for a benchmark script: the project on sys.path, a fresh SQLite file unless DATABASE_URL."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def setup() -> str:
    """Configure Django, migrate a fresh database when none is given; returns the database vendor."""
    sys.path.insert(0, str(ROOT))
    if not os.environ.get("DATABASE_URL"):
        folder = tempfile.mkdtemp(prefix="tablescore-bench-")
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0, interactive=False)
    return connection.vendor
