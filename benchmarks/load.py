"""Load: scorers saving and correcting sheets and viewers polling the live standings, against a real server.

    python benchmarks/load.py [--database sqlite|postgres|both] [--seconds 30] [--scorers 50] [--viewers 100]
                              [--players 256] [--think 10] [--server gunicorn|waitress|granian]

For each database: starts the server (--server: gunicorn, --workers processes of --threads threads each, by
default; waitress, one process of --workers x --threads threads; granian, --workers processes of --threads
blocking threads each) on 127.0.0.1 (a free port) against a fresh database (SQLite: a WAL file in
a temporary folder; PostgreSQL: a throwaway cluster from scripts/with-postgres.sh), creates a VEGEtables event
of --players players at tables of 4 (256: 64 tables; 1024: 256) with four manches a table and its round
published. Every client first opens its connection with one request (a scorer reads its table's sheets, a viewer
the standings), as a phone or a screen loads its page before anything is timed, so the figures are those of a
server that is up rather than of each process's first requests. Then for a bounded time it runs threads over
keep-alive connections:

- scorers, each owning its tables, PUT sheets through the JSON API (first each manche, then corrections)
  with the version they last got, pausing --think seconds on average between saves (10: about 5 saves a second
  from 50 scorers, several times the busiest minute of a real 64-table room; 0.5: about 100 a second); after one
  save in --stale-every, a second phone of the table saves on purpose with an older version and must get 409;
- viewers poll /e/<slug>/standings/live/?v=<version shown> every 3 s as the live page does (204 when unchanged),
  and a second later too when the answer says that newer standings are being rendered;
- a monitor reads the event's standings bookkeeping every 25 ms: which sheets the stored standings count
  (those saved before ``standings_built_from``) and since when (``standings_built_at``).

A table's phone saves a few times a minute at most; these save several times a second, so the server's limit of
saves per link is raised for the run (SAVE_RATE_LIMIT, still counted).

Prints one JSON line per database: requests, saves offered and accepted a second, p50/p99 per kind of request,
statuses, the standings' lag (from a save's answer to the stored standings that count it: p50, p99, max), and a
reconciliation: the last accepted sheet of every manche is what the API gives back, versions count the accepted
saves, every stale save got 409, no 5xx, and the stored standings are what a rebuild from scratch gives. The
server is stopped at the end.
"""

from __future__ import annotations

import argparse
import bisect
import http.client
import json
import os
import random
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE_SIZE, MANCHES = 4, 4
POLL_SECONDS = 3.0
MONITOR_SECONDS = 0.025
#: Saves per table link the server allows during the run (a real table's limit is SAVE_RATE_LIMIT's default).
RUN_SAVE_RATE_LIMIT = "6000/m"
KEEP_ALIVE = 5
REQUEST_TIMEOUT = 30
SAVE_TARGET_MS = 250
POLL_TARGET_MS = 250
LAG_TARGET_SECONDS = 2.0
SERVERS = ["gunicorn", "waitress", "granian"]
#: Connections waitress keeps open at once, as the installed app's server does (its default of 100 is below the
#: 150 that the run's clients keep open).
WAITRESS_CONNECTION_LIMIT = 400
VERSION = re.compile(rb'data-version="([^"]+)"')
#: What the live page does on the ``HX-Trigger: standings-pending`` of a poll's answer: ask again a second later.
PENDING, PENDING_AGAIN_SECONDS = "standings-pending", 1.0

#: A valid VEGEtables manche; any reordering of the players' columns is valid too.
MANCHE = {
    "pozzo": [30, 0, 20, 10],
    "sequences": [6, 2, 5, 3],
    "family_bonuses": [1, 0, 0, 0],
    "penalties": [0, 1, 0, 0],
}


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--scorers", type=int, default=50)
    parser.add_argument("--viewers", type=int, default=100)
    parser.add_argument("--players", type=int, default=256, help="Players of the event, at tables of 4.")
    parser.add_argument("--think", type=float, default=10.0, help="A scorer's mean pause between saves (s).")
    parser.add_argument(
        "--stale-every", type=int, default=4, help="After one save in N, another goes with an old version."
    )
    parser.add_argument("--server", choices=SERVERS, default="gunicorn")
    parser.add_argument("--worker-class", choices=["gthread", "sync"], help="gunicorn's (default gthread).")
    parser.add_argument("--workers", type=int, default=2, help="Processes (waitress: one, of workers x threads).")
    parser.add_argument("--threads", type=int, default=4, help="Threads a process (granian: blocking threads).")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker_class and args.server != "gunicorn":
        parser.error("--worker-class is gunicorn's")
    args.worker_class = args.worker_class or "gthread"
    return args


def main() -> None:
    args = arguments()
    if args.child:
        run(args)
        return
    options = ["--seconds", args.seconds, "--scorers", args.scorers, "--viewers", args.viewers, "--think", args.think]
    options += ["--stale-every", args.stale_every, "--server", args.server, "--workers", args.workers]
    options += ["--threads", args.threads, "--seed", args.seed, "--players", args.players]
    if args.server == "gunicorn":
        options += ["--worker-class", args.worker_class]
    for database in ["sqlite", "postgres"] if args.database == "both" else [args.database]:
        command = [sys.executable, __file__, *map(str, options), "--database", database, "--child"]
        if database == "postgres":
            command = [str(ROOT / "scripts" / "with-postgres.sh"), *command]
        env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
        done = subprocess.run(command, env=env, check=False, timeout=args.seconds + 600)
        if done.returncode != 0:
            sys.exit(done.returncode)


# The event ----------------------------------------------------------------------------------------------------


def build_event(seed: int, players: int) -> tuple[str, list[dict]]:
    """A VEGEtables event, its first round seated and published: the slug and tables."""
    import datetime

    from tournaments.models import Event, Manche, Player, Round, Seat, Table
    from tournaments.models.rounds import RoundStatus

    rng = random.Random(seed)
    event = Event.objects.create(
        name="Load test",
        date=datetime.date(2026, 11, 22),
        game="vegetables",
        table_size=TABLE_SIZE,
        manches_per_round=MANCHES,
        rounds_planned=4,
        status="running",
    )
    Player.objects.bulk_create(
        Player(event=event, name=f"Player {i:04d}", club=f"Club {i % 20}") for i in range(players)
    )
    seated = list(event.players.values_list("pk", "name"))
    rng.shuffle(seated)
    round_ = Round.objects.create(event=event, number=1, status=RoundStatus.IN_PLAY, published=True)
    tables = Table.objects.bulk_create(Table(round=round_, number=n + 1) for n in range(players // TABLE_SIZE))
    seats, manches, described = [], [], []
    for n, table in enumerate(tables):
        group = seated[n * TABLE_SIZE : (n + 1) * TABLE_SIZE]
        seats += [Seat(table=table, round=round_, player_id=pk, position=p) for p, (pk, _name) in enumerate(group, 1)]
        manches += [Manche(table=table, number=m) for m in range(1, MANCHES + 1)]
        described.append({"token": table.token, "players": [name for _pk, name in group]})
    Seat.objects.bulk_create(seats)
    Manche.objects.bulk_create(manches)
    return event.slug, described


def sheet(players: list[str], rng: random.Random) -> dict:
    """A valid VEGEtables sheet for one manche: the model manche with the players' columns shuffled."""
    order = rng.sample(range(len(players)), len(players))
    manche = {key: [row[i] for i in order] for key, row in MANCHE.items()}
    return {"game": "vegetables", "players": players, "manches": [manche]}


# HTTP ---------------------------------------------------------------------------------------------------------


class Connection:
    """One keep-alive connection to 127.0.0.1, opened again when the server closed it or it sat idle too long."""

    def __init__(self, port: int):
        self.port = port
        self.conn: http.client.HTTPConnection | None = None
        self.last_used = 0.0
        #: The last answer's ``HX-Trigger`` header (events it raises on the page).
        self.trigger = ""

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, bytes, float]:
        if self.conn is not None and time.monotonic() - self.last_used > KEEP_ALIVE - 1:
            self.close()
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=REQUEST_TIMEOUT)
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"} if data else {}
        start = time.perf_counter()
        try:
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
            content = response.read()
        except (OSError, http.client.HTTPException):
            self.close()
            raise
        elapsed = time.perf_counter() - start
        self.trigger = response.getheader("HX-Trigger") or ""
        self.last_used = time.monotonic()
        if response.will_close:
            self.close()
        return response.status, content, elapsed

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


class Tally:
    """Latencies and statuses per kind of request, shared by the client threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.latencies: dict[str, list[float]] = {"save": [], "stale_save": [], "standings_poll": []}
        self.statuses: dict[str, Counter] = {kind: Counter() for kind in self.latencies}

    def add(self, kind: str, status: int | str, seconds: float | None) -> None:
        with self.lock:
            self.statuses[kind][str(status)] += 1
            if seconds is not None:
                self.latencies[kind].append(seconds)


class Scorer(threading.Thread):
    """Saves the sheets of its own tables, then corrects them; now and then on purpose with an old version."""

    def __init__(self, number: int, port: int, tables: list[dict], tally: Tally, args, end: float):
        super().__init__(daemon=True)
        self.rng = random.Random(args.seed * 1000 + number)
        self.connection = Connection(port)
        self.tables, self.tally, self.args, self.end = tables, tally, args, end
        self.version = {(t["token"], m): 0 for t in tables for m in range(1, MANCHES + 1)}
        self.accepted: dict[tuple[str, int], dict] = {}
        self.accepted_count = Counter()
        #: When each accepted save was answered (seconds since the epoch, as the server's clock counts).
        self.answered: list[float] = []
        self.stale_sent = self.stale_refused = 0
        self.unexpected: list[str] = []

    def open(self) -> None:
        """Before the clock starts, as a phone opens its table's page: read the first table's sheets."""
        self.connection.request("GET", f"/api/tables/{self.tables[0]['token']}/sheet")

    def run(self) -> None:
        unsaved = list(self.version)
        time.sleep(self.rng.uniform(0, self.args.think))
        for _step in range(int(self.args.seconds * 1000)):
            if time.monotonic() >= self.end:
                break
            saved = [key for key, version in self.version.items() if version >= 1]
            self.save(unsaved.pop(0) if unsaved else self.rng.choice(saved), stale=False)
            if saved and self.rng.randrange(self.args.stale_every) == 0:
                self.save(self.rng.choice(saved), stale=True)
            pause = self.args.think * self.rng.uniform(0.5, 1.5)
            time.sleep(max(0.0, min(pause, self.end - time.monotonic())))
        self.connection.close()

    def save(self, key: tuple[str, int], stale: bool) -> None:
        token, number = key
        players = next(t["players"] for t in self.tables if t["token"] == token)
        document = sheet(players, self.rng)
        based_on = self.version[key] - 1 if stale else self.version[key]
        body = {"manche": number, "version": based_on, "document": document}
        kind = "stale_save" if stale else "save"
        for _attempt in range(5):
            try:
                status, content, seconds = self.connection.request("PUT", f"/api/tables/{token}/sheet", body)
            except (OSError, http.client.HTTPException) as error:
                self.tally.add(kind, type(error).__name__, None)
                time.sleep(0.2)
                continue
            self.tally.add(kind, status, seconds)
            answer = json.loads(content) if content else {}
            if stale:
                self.stale_sent += 1
                if status == 409 and answer["current"]["version"] == self.version[key]:
                    self.stale_refused += 1
                else:
                    self.unexpected.append(f"stale save of {key} got {status}")
                    self.note(key, status, answer, document)
                return
            if self.note(key, status, answer, document):
                return
            if status == 409:
                current = answer["current"]
                if current["version"] == based_on + 1 and current["document"] == document:
                    self.accept(key, document, current["version"])
                    return
                self.unexpected.append(f"save of {key} on version {based_on} got 409 at {current['version']}")
                self.version[key] = current["version"]
                return
            if status < 500:
                self.unexpected.append(f"save of {key} got {status}: {content[:200]!r}")
                return
            time.sleep(0.2)

    def note(self, key, status: int, answer: dict, document: dict) -> bool:
        if status == 200:
            self.accept(key, document, answer["version"])
            return True
        return False

    def accept(self, key, document: dict, version: int) -> None:
        self.answered.append(time.time())
        self.version[key] = version
        self.accepted[key] = document
        self.accepted_count[key] += 1


class Viewer(threading.Thread):
    """The live standings page: ask every 3 s whether the standings changed since the version it shows, and once
    more a second later when told that newer ones are being rendered (the ``standings-pending`` event)."""

    def __init__(self, number: int, port: int, slug: str, tally: Tally, args, end: float):
        super().__init__(daemon=True)
        self.rng = random.Random(args.seed * 7919 + number)
        self.connection = Connection(port)
        self.slug, self.version, self.tally, self.end = slug, "", tally, end

    def open(self) -> None:
        """Before the clock starts, as the page loads: the standings as they are."""
        self.poll()

    def poll(self) -> tuple[int, float, bool]:
        """One poll: its status, seconds, and whether the answer asks for another soon."""
        status, content, seconds = self.connection.request("GET", f"/e/{self.slug}/standings/live/?v={self.version}")
        found = VERSION.search(content) if status == 200 else None
        if found:
            self.version = found.group(1).decode()
        return status, seconds, PENDING in self.connection.trigger

    def run(self) -> None:
        next_at = time.monotonic() + self.rng.uniform(0, POLL_SECONDS)
        again_at = None
        while True:
            due = min(next_at, again_at or next_at)
            time.sleep(max(0.0, min(due, self.end) - time.monotonic()))
            if time.monotonic() >= self.end:
                break
            if due == again_at:
                again_at = None
            else:
                next_at += POLL_SECONDS
            try:
                status, seconds, pending = self.poll()
            except (OSError, http.client.HTTPException) as error:
                self.tally.add("standings_poll", type(error).__name__, None)
                continue
            self.tally.add("standings_poll", status, seconds)
            if pending:
                again_at = time.monotonic() + PENDING_AGAIN_SECONDS
        self.connection.close()


class Monitor(threading.Thread):
    """Reads the event's standings bookkeeping every 25 ms: each rebuild stored, as (counts sheets saved before,
    stored at), in seconds since the epoch."""

    def __init__(self, slug: str, end: float):
        super().__init__(daemon=True)
        self.slug, self.end = slug, end
        self.rebuilds: set[tuple[float, float]] = set()

    def run(self) -> None:
        from django.db import connection

        try:
            while time.monotonic() < self.end:
                self.look()
                time.sleep(MONITOR_SECONDS)
        finally:
            connection.close()

    def look(self) -> tuple[bool, bool]:
        """Notes the last rebuild; whether the standings are out of date, and whether one is being rebuilt."""
        from tournaments.models import Event

        stale, lease, counted, stored = (
            Event.objects.filter(slug=self.slug)
            .values_list("standings_stale", "standings_lease", "standings_built_from", "standings_built_at")
            .get()
        )
        if counted is not None:
            self.rebuilds.add((counted.timestamp(), stored.timestamp()))
        return stale, lease is not None

    def settle(self, seconds: float = 5.0) -> bool:
        """After the run: wait until the standings count every sheet; whether they did within ``seconds``."""
        from django.db import connection

        deadline = time.monotonic() + seconds
        try:
            while time.monotonic() < deadline:
                stale, leased = self.look()
                if not stale and not leased:
                    return True
                time.sleep(MONITOR_SECONDS)
            return False
        finally:
            connection.close()


def lags(answered: list[float], rebuilds: set[tuple[float, float]]) -> dict:
    """Seconds from each accepted save's answer to the first stored standings that count it (a rebuild that counts
    sheets saved before a moment after the answer): p50, p99, max, and how many no rebuild counted."""
    ordered = sorted(rebuilds)
    counted_from = [counted for counted, _stored in ordered]
    seconds, missed = [], 0
    for moment in answered:
        index = bisect.bisect_left(counted_from, moment)
        if index == len(ordered):
            missed += 1
            continue
        seconds.append(min(stored for _counted, stored in ordered[index:]) - moment)
    if not seconds:
        return {"count": 0, "not_counted": missed}
    seconds.sort()
    return {
        "count": len(seconds),
        "p50_s": round(statistics.median(seconds), 3),
        "p99_s": round(seconds[min(len(seconds) - 1, int(len(seconds) * 0.99))], 3),
        "max_s": round(seconds[-1], 3),
        "not_counted": missed,
        "rebuilds": len(ordered),
    }


# The server ---------------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def server_command(args, port: int) -> tuple[list[str], str]:
    """The command that serves the app on ``port`` with ``--server``, and how it serves (processes, threads)."""
    if args.server == "waitress":
        threads = args.workers * args.threads
        command = [
            sys.executable, "-m", "waitress", f"--listen=127.0.0.1:{port}", f"--threads={threads}",
            f"--connection-limit={WAITRESS_CONNECTION_LIMIT}", "config.wsgi:application",
        ]  # fmt: skip
        return command, f"waitress 1 process x{threads} threads"
    if args.server == "granian":
        command = [
            sys.executable, "-m", "granian", "--interface", "wsgi", "--host", "127.0.0.1", "--port", str(port),
            "--workers", str(args.workers), "--blocking-threads", str(args.threads), "config.wsgi:application",
        ]  # fmt: skip
        return command, f"granian {args.workers} workers x{args.threads} blocking threads"
    command = [
        sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind", f"127.0.0.1:{port}",
        "--workers", str(args.workers), "--worker-class", args.worker_class, "--threads", str(args.threads),
        "--keep-alive", str(KEEP_ALIVE), "--timeout", "60", "--graceful-timeout", "10",
    ]  # fmt: skip
    threads = f" x{args.threads} threads" if args.worker_class == "gthread" else ""
    return command, f"gunicorn {args.workers} workers {args.worker_class}{threads}"


def start_server(args, port: int, folder: Path) -> subprocess.Popen:
    log = folder / f"{args.server}.log"
    command, _described = server_command(args, port)
    with log.open("w") as out:
        server = subprocess.Popen(
            command,
            cwd=ROOT,
            env=dict(os.environ),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"{args.server} stopped:\n{log.read_text()}")
        try:
            status, _content, _seconds = Connection(port).request("GET", "/")
            if status == 200:
                return server
        except (OSError, http.client.HTTPException):
            time.sleep(0.1)
    stop_server(server)
    raise SystemExit(f"{args.server} did not answer within 30 s:\n{log.read_text()}")


def process_tree(pid: int) -> list[int]:
    """A process and its descendants (the server's main process and its workers), from /proc."""
    found, pending = [], [pid]
    while pending:
        current = pending.pop()
        found.append(current)
        for task in Path(f"/proc/{current}/task").glob("*"):
            try:
                pending += [int(child) for child in (task / "children").read_text().split()]
            except OSError:
                continue
    return found


def process_tree_cpu(pid: int) -> float:
    """CPU seconds used so far by a process and its descendants, from /proc."""
    total = 0.0
    for current in process_tree(pid):
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def process_tree_memory(pid: int) -> dict:
    """MiB of memory held now by a process and its descendants: their resident sets added up (pages that forked
    workers share counted in each), and their proportional sets (each shared page split among its holders)."""
    kib = Counter()
    for current in process_tree(pid):
        try:
            lines = Path(f"/proc/{current}/smaps_rollup").read_text().splitlines()
        except OSError:
            continue
        for line in lines:
            name, _colon, value = line.partition(":")
            if name in ("Rss", "Pss"):
                kib[name.lower()] += int(value.split()[0])
    return {name: round(kib[name] / 1024, 1) for name in ("rss", "pss")}


def stop_server(server: subprocess.Popen) -> None:
    """SIGTERM to the server, SIGKILL to its process group if it is not gone within 20 s, and to what is left of
    the group (a worker its main process did not take down) when it is."""
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=10)
    deadline = time.monotonic() + 5
    while True:
        try:
            os.killpg(server.pid, 0)
        except ProcessLookupError:
            return
        if time.monotonic() >= deadline:
            os.killpg(server.pid, signal.SIGKILL)
            return
        time.sleep(0.1)


# The run ------------------------------------------------------------------------------------------------------


def summary(latencies: list[float], seconds: float) -> dict:
    if not latencies:
        return {"count": 0}
    ordered = sorted(latencies)
    return {
        "count": len(ordered),
        "per_second": round(len(ordered) / seconds, 1),
        "p50_ms": round(statistics.median(ordered) * 1000, 1),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 1),
        "max_ms": round(ordered[-1] * 1000, 1),
    }


def reconcile(port: int, scorers: list[Scorer]) -> dict:
    """What the clients saw accepted against what the server gives back, and the database's own agreement."""
    from tournaments.models import Manche

    lost = mismatched = 0
    connection = Connection(port)
    for scorer in scorers:
        for token in {t["token"] for t in scorer.tables}:
            status, content, _seconds = connection.request("GET", f"/api/tables/{token}/sheet")
            stored = {m["number"]: m for m in json.loads(content)["manches"]} if status == 200 else {}
            for number in range(1, MANCHES + 1):
                key = (token, number)
                manche = stored.get(number, {})
                if manche.get("document") != scorer.accepted.get(key):
                    lost += 1
                if manche.get("version") != scorer.accepted_count[key]:
                    mismatched += 1
    connection.close()
    inconsistent = 0
    for manche in Manche.objects.prefetch_related("revisions"):
        revisions = sorted(manche.revisions.all(), key=lambda r: r.version)
        if [r.version for r in revisions] != list(range(1, manche.version + 1)) or manche.document != (
            revisions[-1].after if revisions else None
        ):
            inconsistent += 1
    return {
        "manches_with_sheet": sum(len(s.accepted) for s in scorers),
        "accepted_saves": sum(sum(s.accepted_count.values()) for s in scorers),
        "lost_or_overwritten": lost,
        "version_mismatches": mismatched,
        "inconsistent_manches": inconsistent,
        "stale_sent": sum(s.stale_sent for s in scorers),
        "stale_refused_409": sum(s.stale_refused for s in scorers),
        "unexpected": [u for s in scorers for u in s.unexpected][:10],
    }


def standings_as_rebuilt(slug: str) -> bool:
    """Whether the stored standings are what a rebuild from scratch gives now."""
    from tournaments.models import Event
    from tournaments.standings.build import compute_standings, stored_rows

    event = Event.objects.get(slug=slug)
    stored = {player: values for player, (_pk, values) in stored_rows(event).items()}
    return stored == compute_standings(event)


def run(args) -> None:
    folder = Path(tempfile.mkdtemp(prefix="tablescore-load-"))
    if args.database == "sqlite":
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/load.sqlite3"
    elif not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit("--database postgres runs inside scripts/with-postgres.sh (DATABASE_URL).")
    os.environ["DEBUG"] = "0"
    os.environ["SAVE_RATE_LIMIT"] = RUN_SAVE_RATE_LIMIT
    os.environ["RATELIMIT_CACHE_DIR"] = str(folder / "ratelimit")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import _django

    vendor = _django.setup()
    from django.db import connections

    slug, tables = build_event(args.seed, args.players)
    connections.close_all()
    port = free_port()
    load_before = os.getloadavg()[0]
    server = start_server(args, port, folder)
    try:
        server_cpu = -process_tree_cpu(server.pid)
        client_cpu = -sum(resource.getrusage(resource.RUSAGE_SELF)[:2])
        tally = Tally()
        scorers = [
            Scorer(i, port, tables[i :: args.scorers], tally, args, 0) for i in range(min(args.scorers, len(tables)))
        ]
        viewers = [Viewer(i, port, slug, tally, args, 0) for i in range(args.viewers)]
        for client in [*scorers, *viewers]:
            client.open()
        start = time.monotonic()
        end = start + args.seconds
        for client in [*scorers, *viewers]:
            client.end = end
        monitor = Monitor(slug, end + REQUEST_TIMEOUT * 5)
        monitor.start()
        for thread in [*scorers, *viewers]:
            thread.start()
        for thread in [*scorers, *viewers]:
            thread.join(timeout=max(1.0, end + REQUEST_TIMEOUT * 5 - time.monotonic()))
        elapsed = time.monotonic() - start
        stuck = sum(thread.is_alive() for thread in [*scorers, *viewers])
        monitor.end = 0
        monitor.join(timeout=10)
        settled = monitor.settle()
        server_cpu += process_tree_cpu(server.pid)
        server_memory = process_tree_memory(server.pid)
        client_cpu += sum(resource.getrusage(resource.RUSAGE_SELF)[:2])
        reconciliation = reconcile(port, scorers)
        reconciliation["standings_as_rebuilt"] = standings_as_rebuilt(slug)
    finally:
        stop_server(server)
    statuses = {kind: dict(sorted(counter.items())) for kind, counter in tally.statuses.items()}
    server_errors = sum(n for counter in tally.statuses.values() for s, n in counter.items() if s[0] == "5")
    requests = sum(sum(counter.values()) for counter in tally.statuses.values())
    save = summary(tally.latencies["save"], elapsed)
    poll = summary(tally.latencies["standings_poll"], elapsed)
    offered = len(tally.latencies["save"]) + len(tally.latencies["stale_save"])
    accepted = tally.statuses["save"]["200"]
    lag = lags([moment for scorer in scorers for moment in scorer.answered], monitor.rebuilds)
    reconciliation["server_errors_5xx"] = server_errors
    result = {
        "benchmark": "load",
        "database": vendor,
        "game": "vegetables",
        "players": args.players,
        "tables": len(tables),
        "manches": len(tables) * MANCHES,
        "server": server_command(args, port)[1],
        "seconds": round(elapsed, 1),
        "scorers": len(scorers),
        "viewers": args.viewers,
        "think_seconds": args.think,
        "requests": requests,
        "throughput_per_second": round(requests / elapsed, 1),
        "saves_offered_per_second": round(offered / elapsed, 1),
        "saves_accepted_per_second": round(accepted / elapsed, 1),
        "save": save,
        "stale_save": summary(tally.latencies["stale_save"], elapsed),
        "standings_poll": poll,
        "standings_lag": lag,
        "statuses": statuses,
        "reconciliation": reconciliation,
        "cpu_seconds": {"server": round(server_cpu, 1), "clients": round(client_cpu, 1), "cores": os.cpu_count()},
        "server_cpu_ms_per_request": round(server_cpu * 1000 / max(1, requests), 1),
        "server_memory_mib": server_memory,
        "load_average": {"before": round(load_before, 1), "after": round(os.getloadavg()[0], 1)},
        "targets": {
            f"p99_save_under_{SAVE_TARGET_MS}ms": save.get("p99_ms", 1e9) < SAVE_TARGET_MS,
            f"p99_poll_under_{POLL_TARGET_MS}ms": poll.get("p99_ms", 1e9) < POLL_TARGET_MS,
            f"standings_lag_under_{LAG_TARGET_SECONDS:g}s": settled
            and lag.get("not_counted", 1) == 0
            and lag.get("max_s", 1e9) < LAG_TARGET_SECONDS,
            "no_lost_or_overwritten_sheet": reconciliation["lost_or_overwritten"] == 0
            and reconciliation["version_mismatches"] == 0
            and reconciliation["inconsistent_manches"] == 0,
            "standings_as_rebuilt": reconciliation["standings_as_rebuilt"],
            "every_stale_save_409": reconciliation["stale_sent"] == reconciliation["stale_refused_409"],
            "no_5xx": server_errors == 0,
            "clients_finished": stuck == 0,
        },
    }
    print(json.dumps(result), flush=True)
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
