"""Snapshots of the whole database, taken while the app serves, and bringing one back.

SQLite: the online backup API copies a consistent image of the database file while writers carry on;
the copy is a single self-contained file. PostgreSQL: ``pg_dump -Fc`` (one consistent transaction),
brought back with ``pg_restore --clean --if-exists`` in one transaction.

Functions take Django's connection settings (``connections["default"].settings_dict``) so they can be
used from a command, a test or a script alike.
"""

from __future__ import annotations

import datetime
import os
import re
import shutil
import sqlite3
import subprocess
from pathlib import Path

from .sql import sqlite_file_is_whole, sqlite_file_self_contained, sqlite_file_tables

PREFIX = "tablescore-"
SAFETY_PREFIX = "before-restore-"
SUFFIXES = {"sqlite": ".sqlite3", "postgresql": ".dump"}
SNAPSHOT_NAME = re.compile(r"^tablescore-\d{8}-\d{6}-\d{6}\.(sqlite3|dump)$")
SQLITE_MAGIC = b"SQLite format 3\x00"
PG_DUMP_MAGIC = b"PGDMP"
BUSY_SECONDS = 30
PG_TIMEOUT_SECONDS = 3600


class SnapshotError(Exception):
    """A snapshot that could not be taken or restored; the message says why."""


def database_kind(settings_dict: dict) -> str:
    """``sqlite`` or ``postgresql``: the two databases Tablescore snapshots."""
    engine = settings_dict.get("ENGINE", "")
    if engine.endswith("sqlite3"):
        name = str(settings_dict.get("NAME") or "")
        if not name or name == ":memory:" or "mode=memory" in name:
            raise SnapshotError("An in-memory SQLite database has no file to snapshot.")
        return "sqlite"
    if "postgresql" in engine:
        return "postgresql"
    raise SnapshotError(f"Snapshots work with SQLite and PostgreSQL, not with {engine or 'this database'}.")


def snapshot_name(kind: str, when: datetime.datetime, prefix: str = PREFIX) -> str:
    """A file name that sorts by time: tablescore-20261122-101530-123456.sqlite3 (UTC)."""
    when = when.astimezone(datetime.UTC)
    return f"{prefix}{when:%Y%m%d-%H%M%S-%f}{SUFFIXES[kind]}"


def snapshots_in(folder: Path) -> list[Path]:
    """The snapshots this app took in ``folder``, oldest first (other files are left out)."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_file() and SNAPSHOT_NAME.match(p.name))


def prune_snapshots(folder: Path, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` snapshots in ``folder``; returns the deleted files."""
    if keep < 1:
        raise SnapshotError("Keep at least one snapshot.")
    old = snapshots_in(folder)[:-keep]
    for path in old:
        path.unlink(missing_ok=True)
    return old


def take_snapshot(
    settings_dict: dict, folder: Path, *, now: datetime.datetime | None = None, prefix: str = PREFIX
) -> Path:
    """Copy the whole database into a new timestamped file in ``folder`` and return its path.

    The copy is written under a temporary name and renamed when complete, so a file with a
    snapshot's name is always a whole snapshot.
    """
    kind = database_kind(settings_dict)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    now = now or datetime.datetime.now(datetime.UTC)
    target = folder / snapshot_name(kind, now, prefix)
    if target.exists():
        raise SnapshotError(f"{target} exists already.")
    partial = target.with_name(target.name + ".partial")
    try:
        if kind == "sqlite":
            sqlite_backup(Path(settings_dict["NAME"]), partial)
        else:
            run_pg("pg_dump", settings_dict, ["--format=custom", "--no-owner", f"--file={partial}"])
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def restore_snapshot(settings_dict: dict, snapshot: Path) -> None:
    """Replace everything in the database with the snapshot's content.

    Close the caller's own connections first; the app's processes may keep running (SQLite waits for
    a writer that holds the lock; PostgreSQL restores in one transaction, all or nothing).
    """
    kind = database_kind(settings_dict)
    snapshot = Path(snapshot)
    check_snapshot(kind, snapshot)
    if kind == "sqlite":
        sqlite_restore(snapshot, Path(settings_dict["NAME"]))
    else:
        run_pg(
            "pg_restore",
            settings_dict,
            ["--clean", "--if-exists", "--no-owner", "--single-transaction", "--exit-on-error", str(snapshot)],
        )


def check_snapshot(kind: str, snapshot: Path) -> None:
    """Refuse a missing file, or one that is not a snapshot of this kind of database."""
    if not snapshot.is_file():
        raise SnapshotError(f"There is no file {snapshot}.")
    with snapshot.open("rb") as file:
        head = file.read(len(SQLITE_MAGIC))
    if kind == "sqlite" and not head.startswith(SQLITE_MAGIC):
        raise SnapshotError(f"{snapshot} is not a SQLite snapshot.")
    if kind == "postgresql" and not head.startswith(PG_DUMP_MAGIC):
        raise SnapshotError(f"{snapshot} is not a PostgreSQL snapshot (pg_dump custom format).")
    if kind == "sqlite":
        with closing_sqlite(snapshot, readonly=True) as db:
            if not sqlite_file_is_whole(db):
                raise SnapshotError(f"{snapshot} is damaged (SQLite quick_check failed).")
            tables = sqlite_file_tables(db)
        if "tournaments_event" not in tables:
            raise SnapshotError(f"{snapshot} is not a Tablescore database.")


class closing_sqlite:
    """A sqlite3 connection that is closed (not just committed) when the block ends."""

    def __init__(self, path: Path, *, readonly: bool = False):
        uri = f"{Path(path).resolve().as_uri()}?mode={'ro' if readonly else 'rw'}"
        try:
            self.db = sqlite3.connect(uri, uri=True, timeout=BUSY_SECONDS, isolation_level=None)
        except sqlite3.Error as error:
            raise SnapshotError(f"Cannot open {path}: {error}.") from error

    def __enter__(self) -> sqlite3.Connection:
        return self.db

    def __exit__(self, *exc) -> None:
        self.db.close()


def sqlite_backup(database: Path, target: Path) -> None:
    """The online backup API: one consistent copy, then made a self-contained file (no WAL beside it)."""
    if not database.is_file():
        raise SnapshotError(f"There is no database file {database}.")
    try:
        with closing_sqlite(database) as source:
            copy = sqlite3.connect(target, isolation_level=None)
            try:
                source.backup(copy)
                sqlite_file_self_contained(copy)
                if not sqlite_file_is_whole(copy):
                    raise SnapshotError(f"The copy of {database} failed SQLite's quick_check.")
            finally:
                copy.close()
    except sqlite3.Error as error:
        raise SnapshotError(f"Could not copy {database}: {error}.") from error


def sqlite_restore(snapshot: Path, database: Path) -> None:
    """Copy the snapshot into the database file through the backup API, under SQLite's own locking."""
    if not database.is_file():
        raise SnapshotError(f"There is no database file {database}.")
    try:
        with closing_sqlite(snapshot, readonly=True) as source, closing_sqlite(database) as target:
            source.backup(target)
    except sqlite3.Error as error:
        raise SnapshotError(f"Could not restore {snapshot}: {error}.") from error


def pg_program(name: str) -> str:
    """``pg_dump`` or ``pg_restore`` from PATH, or from the newest PostgreSQL installed under /usr/lib."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), key=lambda p: int(p.parts[-3]))
    if candidates:
        return str(candidates[-1])
    raise SnapshotError(f"{name} is not installed (it comes with PostgreSQL's client programs).")


def pg_environment(settings_dict: dict) -> dict[str, str]:
    """The libpq variables for Django's connection settings (the password never goes on a command line)."""
    env = dict(os.environ)
    options = settings_dict.get("OPTIONS") or {}
    for variable, value in (
        ("PGHOST", settings_dict.get("HOST")),
        ("PGPORT", settings_dict.get("PORT")),
        ("PGUSER", settings_dict.get("USER")),
        ("PGPASSWORD", settings_dict.get("PASSWORD")),
        ("PGDATABASE", settings_dict.get("NAME")),
        ("PGSSLMODE", options.get("sslmode")),
    ):
        if value:
            env[variable] = str(value)
        else:
            env.pop(variable, None)
    return env


def run_pg(program: str, settings_dict: dict, arguments: list[str]) -> None:
    command = [pg_program(program), f"--dbname={settings_dict['NAME']}", *arguments]
    try:
        done = subprocess.run(
            command,
            env=pg_environment(settings_dict),
            capture_output=True,
            text=True,
            timeout=PG_TIMEOUT_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired as error:
        raise SnapshotError(f"{program} did not finish within {PG_TIMEOUT_SECONDS} seconds.") from error
    if done.returncode != 0:
        raise SnapshotError(f"{program} failed: {done.stderr.strip() or done.returncode}")
