"""Bring back a snapshot taken by snapshot_database: everything in the database becomes as it was then."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connections

from tournaments.snapshots import (
    SAFETY_PREFIX,
    SnapshotError,
    check_snapshot,
    database_kind,
    restore_snapshot,
    take_snapshot,
)


class Command(BaseCommand):
    help = (
        "Replace everything in the database with a snapshot (SQLite: backup API; PostgreSQL: pg_restore --clean). "
        "The database as it is now is kept first as a before-restore snapshot beside the file."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="A snapshot file written by snapshot_database.")
        parser.add_argument("--noinput", "--no-input", action="store_false", dest="interactive", help="Do not ask.")
        parser.add_argument(
            "--no-safety-snapshot", action="store_false", dest="safety", help="Do not keep the database as it is now."
        )

    def handle(self, *args, file: Path, interactive=True, safety=True, **options):
        database = connections["default"].settings_dict
        try:
            check_snapshot(database_kind(database), file)
        except SnapshotError as error:
            raise CommandError(str(error)) from error
        if interactive:
            answer = input(f"Everything in the database {database['NAME']} will be replaced by {file}. Type 'yes': ")
            if answer.strip().lower() != "yes":
                raise CommandError("Restore cancelled; nothing changed.")
        connections.close_all()
        try:
            if safety:
                kept = take_snapshot(database, file.resolve().parent, prefix=SAFETY_PREFIX)
                self.stdout.write(f"The database as it was is kept in {kept}")
            restore_snapshot(database, file)
        except SnapshotError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(
            f"Restored {file}. Restart the app's server so no process shows pages it kept from before the restore."
        )
