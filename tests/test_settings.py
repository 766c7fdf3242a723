"""Settings from the environment: SQLite in WAL mode by default, a deploy check that is clean."""

import os
import subprocess
import sys
from pathlib import Path

from config.settings import database_settings

ROOT = Path(__file__).resolve().parent.parent


def test_sqlite_default_has_wal_busy_timeout_and_immediate_writes():
    config = database_settings("sqlite:////tmp/x.sqlite3")
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["OPTIONS"]["timeout"] >= 5
    assert "journal_mode=WAL" in config["OPTIONS"]["init_command"]
    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"


def test_postgres_url_is_understood():
    config = database_settings("postgres://someone:secret@%2Ftmp%2Fsock/tablescore")
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert config["NAME"] == "tablescore"
    assert config["HOST"] == "/tmp/sock"
    assert "init_command" not in config.get("OPTIONS", {})


def test_sqlite_connection_runs_in_wal_mode(tmp_path, django_db_blocker):
    from django.db.backends.sqlite3.base import DatabaseWrapper

    config = database_settings(f"sqlite:///{tmp_path / 'wal.sqlite3'}")
    config.update({"TIME_ZONE": None, "CONN_HEALTH_CHECKS": False, "AUTOCOMMIT": True, "ATOMIC_REQUESTS": False})
    wrapper = DatabaseWrapper(config, alias="wal-check")
    with django_db_blocker.unblock(), wrapper.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"
        cursor.execute("PRAGMA busy_timeout")
        assert cursor.fetchone()[0] >= 5000
    wrapper.close()


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_SETTINGS_MODULE"}}
    environment.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120
    )


def test_check_deploy_with_production_variables_is_clean():
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        HTTPS="1",
        SECRET_KEY="k" * 20 + "-production-secret-0123456789-abcdefghijklmnop",
        ALLOWED_HOSTS="scores.example.org",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "WARNINGS" not in result.stdout + result.stderr


def test_check_deploy_warns_when_debug_is_on():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", DEBUG="1")
    assert result.returncode != 0
    assert "DEBUG" in result.stdout + result.stderr
