"""Database snapshots: taken while an event runs, pruned to the newest N, restored with every sheet as it was.

Each test works on a database of its own, of the kind this run uses (a SQLite file, or a new database on the
run's PostgreSQL server), driven through manage.py in other processes as an organiser would.
"""

from __future__ import annotations

import datetime
import re
import subprocess
from pathlib import Path

import pytest

from tests.subprocesses import (
    PYTHON,
    ROOT,
    current_engine,
    environment,
    fresh_database,
    inconsistencies,
    manage,
    setup_event,
    shell,
)
from tournaments.management.commands.snapshot_database import until_next_time
from tournaments.snapshots import (
    SnapshotError,
    database_kind,
    prune_snapshots,
    snapshot_name,
    snapshots_in,
)

pytestmark = pytest.mark.postgres

SUFFIX = {"sqlite": ".sqlite3", "postgresql": ".dump"}[current_engine()]

STATE = """
import json
from tournaments.models import Event, Manche, Seat, SheetRevision, Standing
print(json.dumps({
    "events": list(Event.objects.order_by("pk").values("pk", "slug", "standings_version")),
    "manches": list(Manche.objects.order_by("pk").values("pk", "table_id", "number", "version", "document", "result")),
    "revisions": list(SheetRevision.objects.order_by("pk").values("pk", "manche_id", "version", "before", "after")),
    "seats": list(Seat.objects.order_by("pk").values("pk", "score", "rank", "placement_points")),
    "standings": list(Standing.objects.order_by("pk").values("event_id", "player_id", "rank", "points")),
}, default=str))
"""

CHANGE = """
import json
from tests.factories import cheese_tallies
from tournaments.models import Event, Manche
from tournaments.services.sheets import Author, record_sheet
manches = list(Manche.objects.filter(table__round__event__slug=SLUG).exclude(document=None).order_by("pk"))
for manche in manches[:3]:
    record_sheet(manche, {**manche.document, **cheese_tallies([10, 9, 8, 7])}, based_on=manche.version,
                 author=Author(via="api"))
Manche.objects.filter(pk__in=[m.pk for m in manches[3:5]]).delete()
Event.objects.exclude(slug=SLUG).first().delete()
print(json.dumps(len(manches)))
"""

WRITER = """
import json, random, time
from pathlib import Path
from tests.factories import cheese_tallies
from tournaments.models import Manche
from tournaments.services.sheets import Author, record_sheet
rng = random.Random(7)
manches = list(Manche.objects.filter(table__round__event__game="cheese-rescue").exclude(document=None))
stop, deadline, saved = Path(STOP), time.monotonic() + 30, 0
while saved < 3000 and time.monotonic() < deadline and not stop.exists():
    manche = rng.choice(manches)
    manche.refresh_from_db()
    document = {**manche.document, **cheese_tallies([rng.randint(0, 10) for _ in manche.document["players"]])}
    record_sheet(manche, document, based_on=manche.version, author=Author(via="api"))
    saved += 1
    if saved == 5:
        print("writing", flush=True)
print(json.dumps(saved))
"""


def taken(output: str) -> list[Path]:
    return [Path(p) for p in re.findall(r"^Snapshot taken: (.+)$", output, re.MULTILINE)]


@pytest.fixture
def event_database(tmp_path):
    """A migrated database of this run's kind with the demo events and a running Cheese Rescue event."""
    with fresh_database(tmp_path) as url:
        manage(url, "migrate", "--noinput", "-v", "0")
        manage(url, "load_demo")
        event = setup_event(url)
        yield url, event


def test_restore_brings_back_every_sheet_as_it_was_when_the_snapshot_was_taken(event_database, tmp_path):
    url, event = event_database
    before = shell(url, STATE)
    assert len([m for m in before["manches"] if m["document"]]) >= 6

    done = manage(url, "snapshot_database", "--folder", str(tmp_path / "snaps"))
    [snapshot] = taken(done.stdout)
    assert snapshot.parent == tmp_path / "snaps" and snapshot.name.endswith(SUFFIX)

    shell(url, f"SLUG = {event['slug']!r}\n{CHANGE}")
    changed = shell(url, STATE)
    assert changed["manches"] != before["manches"] and len(changed["events"]) == len(before["events"]) - 1

    done = manage(url, "restore_snapshot", str(snapshot), "--noinput")
    assert "Restored" in done.stdout
    assert shell(url, STATE) == before
    assert inconsistencies(url) == []

    [safety] = (tmp_path / "snaps").glob(f"before-restore-*{SUFFIX}")
    manage(url, "restore_snapshot", str(safety), "--noinput", "--no-safety-snapshot")
    assert shell(url, STATE) == changed, "the safety snapshot holds the database as it was before the restore"


def test_snapshot_taken_while_sheets_are_being_saved_is_whole(event_database, tmp_path):
    url, _event = event_database
    initial = len(shell(url, STATE)["revisions"])
    stop = tmp_path / "stop-writing"
    writer = subprocess.Popen(
        [PYTHON, "manage.py", "shell", "--no-imports", "-c", f"STOP = {str(stop)!r}\n{WRITER}"],
        cwd=ROOT,
        env=environment(url),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert writer.stdout.readline().strip() == "writing", writer.stderr.read()
        done = manage(url, "snapshot_database", "--folder", str(tmp_path / "snaps"), "--every", "0.005", "--count", "3")
    finally:
        stop.touch()
        out, err = writer.communicate(timeout=60)
    assert writer.returncode == 0, err
    snapshots = taken(done.stdout)
    assert len(snapshots) == 3
    final = len(shell(url, STATE)["revisions"])

    manage(url, "restore_snapshot", str(snapshots[1]), "--noinput", "--no-safety-snapshot")
    restored = len(shell(url, STATE)["revisions"])
    assert initial < restored < final, "the snapshot was taken while sheets were being saved"
    assert inconsistencies(url) == []


def test_keeping_n_removes_the_oldest_snapshots_and_nothing_else(event_database, tmp_path):
    url, _event = event_database
    folder = tmp_path / "snaps"
    folder.mkdir()
    (folder / "notes.txt").write_text("not a snapshot")
    (folder / f"before-restore-20260101-000000-000000{SUFFIX}").write_text("kept by hand")

    done = manage(url, "snapshot_database", "--folder", str(folder), "--every", "0.002", "--count", "4", "--keep", "2")

    made = taken(done.stdout)
    assert len(made) == 4 and made == sorted(made)
    times = [datetime.datetime.strptime(p.name[len("tablescore-") : -len(SUFFIX)], "%Y%m%d-%H%M%S-%f") for p in made]
    # Each at its own moment; when they fall due is ``until_next_time``'s test, not a race with the machine's load.
    assert all(a < b for a, b in zip(times, times[1:]))
    assert snapshots_in(folder) == made[-2:]
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        ["notes.txt", f"before-restore-20260101-000000-000000{SUFFIX}", made[2].name, made[3].name]
    )
    assert done.stdout.count("Old snapshot removed:") == 2


@pytest.mark.parametrize(
    ("now", "wait"),
    [(0.0, 60.0), (59.0, 1.0), (60.0, 60.0), (61.0, 59.0), (150.0, 30.0)],
)
def test_a_snapshot_that_overran_its_interval_waits_for_the_next_time_rather_than_going_at_once(now, wait):
    assert until_next_time(0.0, 60.0, now) == pytest.approx(wait)


def test_restore_refuses_a_file_that_is_not_a_snapshot_and_changes_nothing(event_database, tmp_path):
    url, _event = event_database
    before = shell(url, STATE)
    bogus = tmp_path / f"tablescore-20260101-000000-000000{SUFFIX}"
    bogus.write_bytes(b"PGDMP" if current_engine() == "sqlite" else b"SQLite format 3\x00")

    done = manage(url, "restore_snapshot", str(bogus), "--noinput", check=False)
    assert done.returncode != 0 and "is not a" in done.stderr
    done = manage(url, "restore_snapshot", str(tmp_path / "missing.dump"), "--noinput", check=False)
    assert done.returncode != 0 and "There is no file" in done.stderr
    assert shell(url, STATE) == before
    assert not list(tmp_path.glob("before-restore-*"))


def test_options_are_checked():
    done = subprocess.run(
        [PYTHON, "manage.py", "snapshot_database", "--count", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode != 0 and "--count goes with --every" in done.stderr
    done = subprocess.run(
        [PYTHON, "manage.py", "snapshot_database", "--every", "0", "--keep", "-1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode != 0 and "--every" in done.stderr


def test_snapshot_names_sort_by_time_and_pruning_keeps_the_newest(tmp_path):
    times = [
        datetime.datetime(2026, 11, 22, 9, 59, 59, 999999, tzinfo=datetime.UTC) + datetime.timedelta(seconds=s)
        for s in (0, 0.000001, 3600, 86400 * 40)
    ]
    names = [snapshot_name("sqlite", t) for t in times]
    assert names == sorted(names) and names[0] == "tablescore-20261122-095959-999999.sqlite3"
    for name in reversed(names):
        (tmp_path / name).write_text("x")
    (tmp_path / "tablescore-latest.sqlite3").write_text("not ours")
    assert [p.name for p in prune_snapshots(tmp_path, 3)] == names[:1]
    assert [p.name for p in snapshots_in(tmp_path)] == names[1:]
    assert (tmp_path / "tablescore-latest.sqlite3").exists()
    with pytest.raises(SnapshotError):
        prune_snapshots(tmp_path, 0)


@pytest.mark.parametrize(
    ("settings_dict", "problem"),
    [
        ({"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}, "in-memory"),
        ({"ENGINE": "django.db.backends.mysql", "NAME": "x"}, "SQLite and PostgreSQL"),
    ],
)
def test_databases_without_snapshots_are_named(settings_dict, problem):
    with pytest.raises(SnapshotError, match=problem):
        database_kind(settings_dict)
