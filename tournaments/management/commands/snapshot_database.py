"""Take a snapshot of the whole database now, and with --every keep taking one every few minutes.

The snapshots keep to their times (start, start + every, ...); one that takes longer than the interval lets the
times it overran go, so two are never taken back to back.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connections

from tournaments.snapshots import SnapshotError, prune_snapshots, take_snapshot


def default_folder() -> Path:
    return Path(os.environ.get("SNAPSHOT_FOLDER") or settings.DATA_DIR / "snapshots")


def until_next_time(start: float, period: float, now: float) -> float:
    """Seconds from ``now`` to the first of the times ``start + k * period`` after it."""
    return start + ((now - start) // period + 1) * period - now


def positive(kind):
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = 0
        if not value > 0:
            raise ValueError(text)
        return value

    parse.__name__ = f"positive {kind.__name__}"
    return parse


class Command(BaseCommand):
    help = (
        "Take a snapshot of the whole database (SQLite: online backup; PostgreSQL: pg_dump) into a timestamped "
        "file. With --every, keep taking one every few minutes until stopped with Ctrl-C."
    )

    def add_arguments(self, parser):
        parser.add_argument("--every", type=positive(float), metavar="MINUTES", help="Take one every MINUTES.")
        parser.add_argument("--keep", type=positive(int), metavar="N", help="Keep only the newest N snapshots.")
        parser.add_argument(
            "--folder", type=Path, help="Where snapshots go; default $SNAPSHOT_FOLDER or the data folder's snapshots/."
        )
        parser.add_argument("--count", type=positive(int), metavar="N", help="With --every: stop after N snapshots.")

    def handle(self, *args, every=None, keep=None, folder=None, count=None, **options):
        if count and not every:
            raise CommandError("--count goes with --every.")
        folder = folder or default_folder()
        database = connections["default"].settings_dict
        start = time.monotonic()
        taken = 0
        try:
            while True:
                try:
                    self.take(database, folder, keep)
                except SnapshotError as error:
                    if not every:
                        raise CommandError(str(error)) from error
                    self.stderr.write(f"Snapshot failed, trying again at the next one: {error}")
                taken += 1
                if not every or (count and taken >= count):
                    break
                time.sleep(until_next_time(start, every * 60, time.monotonic()))
        except KeyboardInterrupt:
            self.stdout.write(f"Stopped after {taken} snapshot(s).")

    def take(self, database: dict, folder: Path, keep: int | None) -> None:
        path = take_snapshot(database, folder)
        self.stdout.write(f"Snapshot taken: {path}")
        for old in prune_snapshots(folder, keep) if keep else []:
            self.stdout.write(f"Old snapshot removed: {old}")
