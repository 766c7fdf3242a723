"""Settings from the environment: SQLite in WAL mode by default, caches and rate limits, a clean deploy check."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import env_rate
from config.settings import cache_settings, database_settings

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


def run_python(*args: str, **env: str) -> subprocess.CompletedProcess:
    """Python in a process of its own, in the project's folder, with ``env`` over this environment."""
    environment = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_SETTINGS_MODULE"}}
    environment.update(env)
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120
    )


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    return run_python("manage.py", *args, **env)


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


def test_a_bad_public_url_stops_the_server_naming_the_setting():
    result = run_manage("runserver", "--noreload", "127.0.0.1:0", PUBLIC_URL="http://192.168.1.20:8000/tablescore")
    assert result.returncode != 0
    assert "PUBLIC_URL must be an address" in result.stderr and "tournaments.E001" in result.stderr


def test_a_bad_public_url_stops_an_app_server_too():
    """gunicorn loads ``config.wsgi`` without ``manage.py``: the entry point runs the checks itself."""
    result = run_python("-c", "import config.wsgi", PUBLIC_URL="http://192.168.1.20:8000/tablescore")
    assert result.returncode != 0
    assert "PUBLIC_URL must be an address" in result.stderr and "tournaments.E001" in result.stderr
    good = run_python("-c", "import config.wsgi", PUBLIC_URL="http://192.168.1.20:8000")
    assert good.returncode == 0, good.stderr


def test_check_deploy_warns_when_debug_is_on():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", DEBUG="1")
    assert result.returncode != 0
    assert "DEBUG" in result.stdout + result.stderr


def test_without_cache_url_the_caches_need_no_server():
    caches = cache_settings("", "/srv/counts")
    assert caches["default"]["BACKEND"] == "django.core.cache.backends.filebased.FileBasedCache"
    assert caches["default"]["LOCATION"] == "/srv/counts/live"
    assert caches["ratelimit"]["BACKEND"] == "tournaments.ratelimit_files.CountsFileBasedCache"
    assert caches["ratelimit"]["LOCATION"] == "/srv/counts"


@pytest.mark.parametrize(
    "url", ["redis://cache.example.org:6379/1", "rediss://cache.example.org", "unix:///run/r.sock"]
)
def test_a_cache_url_puts_every_cache_in_redis_each_under_its_prefix(url):
    caches = cache_settings(url, "/unused")
    assert set(caches) == {"default", "ratelimit"}
    for alias, config in caches.items():
        assert config["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
        assert config["LOCATION"] == url
        assert config["KEY_PREFIX"] == f"tablescore:{alias}"


def test_a_cache_url_of_another_kind_is_refused():
    with pytest.raises(ImproperlyConfigured, match="CACHE_URL"):
        cache_settings("memcached://cache.example.org", "/unused")


@pytest.mark.parametrize(
    ("value", "rate"),
    [("", (30, 60)), ("30/m", (30, 60)), ("5/s", (5, 1)), ("100/h", (100, 3600)), ("20/5m", (20, 300)), ("OFF", None)],
)
def test_rate_limits_are_read_as_requests_per_seconds(monkeypatch, value, rate):
    monkeypatch.setenv("SAVE_RATE_LIMIT", value)
    assert env_rate("SAVE_RATE_LIMIT", "30/m") == rate


@pytest.mark.parametrize("value", ["30", "30/min", "m/30", "-1/m", "30/0m", "thirty/m"])
def test_a_rate_limit_that_is_not_understood_stops_the_start(monkeypatch, value):
    monkeypatch.setenv("SAVE_RATE_LIMIT", value)
    with pytest.raises(ImproperlyConfigured, match="SAVE_RATE_LIMIT"):
        env_rate("SAVE_RATE_LIMIT", "30/m")


def test_the_configured_limits_and_login_throttle():
    from config import settings

    assert settings.SAVE_RATE_LIMIT == (30, 60) and settings.NOT_FOUND_RATE_LIMIT == (60, 60)
    checks = {"tournaments:table_check": (240, 60), "tournaments:player_table_check": (240, 60)}
    assert checks == settings.SAVE_RATE_LIMITS
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert (settings.AXES_FAILURE_LIMIT, settings.AXES_COOLOFF_TIME.total_seconds()) == (5, 900)
    assert "axes.middleware.AxesMiddleware" in settings.MIDDLEWARE
