"""Helpers for tests that run the app in other processes: a fresh database of the current kind, manage.py."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


def free_port() -> int:
    """A port nothing listens on at 127.0.0.1 now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def current_engine() -> str:
    """``postgresql`` when this test run's DATABASE_URL is PostgreSQL, otherwise ``sqlite``."""
    return "postgresql" if os.environ.get("DATABASE_URL", "").startswith("postg") else "sqlite"


@contextlib.contextmanager
def fresh_database(folder: Path) -> Iterator[str]:
    """The URL of an empty database of the current kind: a SQLite file in ``folder``, or a new PostgreSQL
    database on the run's server (dropped afterwards). pytest-django's test database is left alone."""
    if current_engine() == "sqlite":
        yield f"sqlite:///{folder}/tablescore.sqlite3"
        return
    import psycopg

    url = os.environ["DATABASE_URL"]
    config = dj_database_url.parse(url)
    name = f"tablescore_{uuid.uuid4().hex[:12]}"
    server = {
        "host": config["HOST"] or None,
        "port": config["PORT"] or None,
        "user": config["USER"] or None,
        "password": config["PASSWORD"] or None,
        "dbname": "postgres",
    }
    with psycopg.connect(**server, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlsplit(url)._replace(path=f"/{name}").geturl()
    finally:
        with psycopg.connect(**server, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def environment(database_url: str, **extra: str) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": database_url, "DJANGO_SETTINGS_MODULE": "config.settings", **extra}


def manage(database_url: str, *arguments: str, check: bool = True, timeout: float = 60) -> subprocess.CompletedProcess:
    """Run ``manage.py`` against ``database_url``; fails the test with its output when it fails."""
    done = subprocess.run(
        [PYTHON, "manage.py", *arguments],
        cwd=ROOT,
        env=environment(database_url),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if check and done.returncode != 0:
        raise AssertionError(f"manage.py {' '.join(arguments)} failed:\n{done.stdout}\n{done.stderr}")
    return done


def shell(database_url: str, code: str, timeout: float = 60):
    """Run Python ``code`` inside the app (manage.py shell) and return the JSON it prints last."""
    done = manage(database_url, "shell", "--no-imports", "-c", code, timeout=timeout)
    lines = done.stdout.strip().splitlines()
    return json.loads(lines[-1]) if lines else None


SETUP_EVENT = """
import json
from django.db import transaction
from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments.models import Event, Player
import datetime

with transaction.atomic():
    event = Event.objects.create(
        name="Snapshot Cup", date=datetime.date(2026, 11, 22), game="cheese-rescue", table_size=4,
        manches_per_round=2, rounds_planned=2, status="running",
    )
    Player.objects.bulk_create(Player(event=event, name=f"Player {i:02d}") for i in range(PLAYERS))
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    round_ = seat_by_hand(event, 1, [ids[i : i + 4] for i in range(0, len(ids), 4)])
round_.status = "in_play"
round_.save()
for n, table in enumerate(round_.tables.order_by("number")):
    for manche in (1, 2):
        if ENTERED:
            enter(table, cheese_tallies([(n + manche) % 11, 4, 2, 0]), manche_number=manche, via="api")
print(json.dumps({
    "slug": event.slug,
    "tables": [
        {"token": t.token, "players": [s.player.name for s in t.seats.select_related("player").order_by("position")]}
        for t in round_.tables.order_by("number")
    ],
}))
"""


def setup_event(database_url: str, players: int = 12, entered: bool = True) -> dict:
    """A running Cheese Rescue event, tables of 4, two manches a table, its round published; sheets entered
    in every manche when ``entered``. Returns the slug and, per table, the scorer token and players."""
    return shell(database_url, f"PLAYERS = {players}\nENTERED = {entered}\n{SETUP_EVENT}")


CONSISTENCY = """
import json
from tournaments.models import Manche
problems = []
for manche in Manche.objects.prefetch_related("revisions").order_by("pk"):
    revisions = sorted(manche.revisions.all(), key=lambda r: r.version)
    last = revisions[-1].after if revisions else None
    if [r.version for r in revisions] != list(range(1, manche.version + 1)):
        problems.append(f"manche {manche.pk}: version {manche.version}, revisions {[r.version for r in revisions]}")
    if manche.document != last:
        problems.append(f"manche {manche.pk}: its sheet is not the last revision's")
    if (manche.document is None) != (manche.result is None):
        problems.append(f"manche {manche.pk}: a sheet without a result or a result without a sheet")
print(json.dumps(problems))
"""


def inconsistencies(database_url: str) -> list[str]:
    """Every manche whose version, sheet, result and revisions disagree (an empty list when all agree)."""
    return shell(database_url, CONSISTENCY)
