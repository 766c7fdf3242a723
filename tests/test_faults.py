"""Faults while sheets are being saved: a worker killed mid-save, the database locked, the server restarted.

The first and last run the app under gunicorn on 127.0.0.1 against a database of their own (of this run's
kind) and talk to it through the JSON API as the scorers' phones do, retrying a save whose answer was lost.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from tests.factories import cheese_tallies, seat_by_hand
from tests.subprocesses import (
    PYTHON,
    ROOT,
    environment,
    free_port,
    fresh_database,
    inconsistencies,
    manage,
    setup_event,
    shell,
)
from tournaments.models.rounds import RoundStatus

pytestmark = pytest.mark.postgres

CONNECTION_ERRORS = (OSError, http.client.HTTPException)
RETRY_SECONDS = 25


class Server:
    """gunicorn serving tests/faults_wsgi.py on 127.0.0.1; stopped (and killed if need be) by the fixture."""

    def __init__(self, database_url: str, folder: Path):
        self.port = free_port()
        self.marker = folder / "paused"
        self.log = folder / "gunicorn.log"
        # The phones here save faster than a table's players may, so the server's rate limits are off.
        limits = {"SAVE_RATE_LIMIT": "off", "NOT_FOUND_RATE_LIMIT": "off", "RATELIMIT_CACHE_DIR": str(folder / "rl")}
        self.env = environment(
            database_url, TABLESCORE_PAUSE_MARKER=str(self.marker), TABLESCORE_PAUSE_SECONDS="20", **limits
        )
        self.process: subprocess.Popen | None = None

    def start(self, ready_path: str) -> None:
        command = [
            PYTHON, "-m", "gunicorn", "tests.faults_wsgi:application",
            "--bind", f"127.0.0.1:{self.port}", "--workers", "2", "--worker-class", "gthread", "--threads", "4",
            "--graceful-timeout", "10", "--timeout", "60", "--keep-alive", "5",
        ]  # fmt: skip
        with self.log.open("a") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"gunicorn stopped:\n{self.log.read_text()}"
            with contextlib.suppress(*CONNECTION_ERRORS):
                if request(self.port, "GET", ready_path, timeout=5)[0] == 200:
                    return
            time.sleep(0.1)
        raise AssertionError(f"gunicorn did not answer within 20 s:\n{self.log.read_text()}")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 15) -> int | None:
        if self.process is None or self.process.poll() is not None:
            return self.process and self.process.returncode
        self.process.send_signal(sig)
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            return self.process.wait(timeout=10)


def request(port: int, method: str, path: str, body=None, headers=None, timeout: float = 30):
    """One request on a new connection: the status and the JSON document (or None)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = json.dumps(body).encode() if body is not None else None
        conn.request(method, path, body=data, headers={"Content-Type": "application/json", **(headers or {})})
        response = conn.getresponse()
        text = response.read()
        document = json.loads(text) if response.getheader("Content-Type", "").startswith("application/json") else None
        return response.status, document
    finally:
        conn.close()


def sheet_path(token: str) -> str:
    return f"/api/tables/{token}/sheet"


def sheet_document(table: dict, points: list[int]) -> dict:
    return {"game": "cheese-rescue", "players": table["players"], **cheese_tallies(points)}


def save_until_answered(port: int, table: dict, manche: int, version: int, document: dict, log: list) -> str:
    """Save as a phone does: on a lost answer ask again with the same version. ``saved`` on a 200; ``was saved``
    on a 409 showing this very sheet at the next version (the lost attempt had committed)."""
    body = {"manche": manche, "version": version, "document": document}
    deadline = time.monotonic() + RETRY_SECONDS
    while time.monotonic() < deadline:
        try:
            status, answer = request(port, "PUT", sheet_path(table["token"]), body, timeout=10)
        except CONNECTION_ERRORS as error:
            log.append(type(error).__name__)
            time.sleep(0.05)
            continue
        log.append(status)
        if status == 200:
            return "saved"
        current = (answer or {}).get("current", {})
        if status == 409 and current.get("version") == version + 1 and current.get("document") == document:
            return "was saved"
        return f"refused {status}: {answer}"
    return "no answer"


def manche_on_server(port: int, table: dict, number: int) -> dict:
    status, sheet = request(port, "GET", sheet_path(table["token"]))
    assert status == 200
    return next(m for m in sheet["manches"] if m["number"] == number)


@pytest.fixture
def served_event(tmp_path):
    """A running event with empty sheets in its own database, served by gunicorn; stopped at the end."""
    with fresh_database(tmp_path) as url:
        manage(url, "migrate", "--noinput", "-v", "0")
        event = setup_event(url, players=16, entered=False)
        server = Server(url, tmp_path)
        try:
            server.start(sheet_path(event["tables"][0]["token"]))
            yield url, event, server
        finally:
            server.stop()


@pytest.mark.parametrize("moment", ["in-save", "after-save"])
def test_a_worker_killed_in_the_middle_of_a_save_leaves_no_half_sheet_and_the_retry_is_safe(served_event, moment):
    url, event, server = served_event
    table = event["tables"][0]
    document = sheet_document(table, [7, 5, 3, 1])
    outcome = {}

    def first_attempt():
        try:
            outcome["answer"] = request(
                server.port,
                "PUT",
                sheet_path(table["token"]),
                {"manche": 1, "version": 0, "document": document},
                headers={"X-Test-Pause": moment},
            )
        except CONNECTION_ERRORS as error:
            outcome["error"] = error

    phone = threading.Thread(target=first_attempt)
    phone.start()
    deadline = time.monotonic() + 15
    while not server.marker.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.05)
    worker = int(server.marker.read_text())
    assert worker != server.process.pid
    os.kill(worker, signal.SIGKILL)
    phone.join(timeout=20)
    assert "error" in outcome, f"the killed worker answered: {outcome}"

    assert inconsistencies(url) == [], "every manche's version, sheet, result and revisions agree"
    stored = manche_on_server(server.port, table, 1)
    if moment == "in-save":
        assert stored["version"] == 0 and stored["document"] is None, "the half-done save was rolled back"
    else:
        assert stored["version"] == 1 and stored["document"] == document, "the committed save is kept"

    log = []
    outcome = save_until_answered(server.port, table, 1, 0, document, log)
    assert outcome == ("saved" if moment == "in-save" else "was saved"), log
    stored = manche_on_server(server.port, table, 1)
    assert stored["version"] == 1 and stored["document"] == document and stored["result"]
    assert inconsistencies(url) == []
    assert server.process.poll() is None, "gunicorn replaced the killed worker and kept serving"


REVISIONS = """
import json
from tournaments.models import SheetRevision
rows = SheetRevision.objects.order_by("manche__table__number", "manche__number", "version")
out = {}
for r in rows.values("manche__table__number", "manche__number", "after"):
    out.setdefault(f"{r['manche__table__number']}/{r['manche__number']}", []).append(r["after"])
print(json.dumps(out))
"""


def test_a_server_restarted_while_tables_save_loses_no_accepted_sheet(served_event):
    url, event, server = served_event
    saves_each = 30
    phones = [(t, table, manche) for t, table in enumerate(event["tables"], start=1) for manche in (1, 2)]
    accepted = {f"{t}/{m}": [] for t, _table, m in phones}
    logs = {key: [] for key in accepted}
    outcomes = {key: [] for key in accepted}
    stop_at = time.monotonic() + 60

    def phone(t: int, table: dict, manche: int) -> None:
        key = f"{t}/{manche}"
        for n in range(saves_each):
            if time.monotonic() > stop_at:
                return
            document = sheet_document(table, [n % 11, (n + t) % 11, manche, 0])
            outcome = save_until_answered(server.port, table, manche, len(accepted[key]), document, logs[key])
            outcomes[key].append(outcome)
            if outcome not in ("saved", "was saved"):
                return
            accepted[key].append(document)
            time.sleep(0.02)

    threads = [threading.Thread(target=phone, args=phone_args) for phone_args in phones]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 20
    while sum(map(len, accepted.values())) < 3 * len(phones) and time.monotonic() < deadline:
        time.sleep(0.02)
    before_restart = sum(map(len, accepted.values()))
    assert server.stop(signal.SIGTERM) == 0, "gunicorn stopped gracefully"
    time.sleep(0.5)
    server.start(sheet_path(event["tables"][0]["token"]))
    for thread in threads:
        thread.join(timeout=90)
    assert not any(thread.is_alive() for thread in threads)

    every_status = [entry for log in logs.values() for entry in log]
    assert all(o in ("saved", "was saved") for done in outcomes.values() for o in done), outcomes
    assert all(len(done) == saves_each for done in accepted.values()), "every phone finished its saves"
    assert before_restart < sum(map(len, accepted.values())), "saves went on after the restart"
    assert any(not isinstance(entry, int) for entry in every_status), "some saves met the server down"
    assert not [s for s in every_status if isinstance(s, int) and s >= 500], "no 5xx"

    history = shell(url, REVISIONS)
    for t, table, manche in phones:
        key = f"{t}/{manche}"
        assert history[key] == accepted[key], f"manche {key}: every accepted sheet is in its history, in order"
        stored = manche_on_server(server.port, table, manche)
        assert stored["version"] == saves_each and stored["document"] == accepted[key][-1]
    assert inconsistencies(url) == []


@pytest.fixture
def locked_table(make_event):
    event = make_event("cheese-rescue", players=4, manches_per_round=1)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    table = seat_by_hand(event, 1, [ids], status=RoundStatus.IN_PLAY).tables.get()
    names = list(event.players.order_by("pk").values_list("name", flat=True))
    return table, {
        "manche": 1,
        "version": 0,
        "document": {"game": "cheese-rescue", "players": names, **cheese_tallies([6, 4, 2, 0])},
    }


@contextlib.contextmanager
def database_locked_by_another_connection():
    """Another connection holds the write lock while this test's connection gives up waiting after 0.2 s."""
    settings = connection.settings_dict
    connection.ensure_connection()
    if connection.vendor == "sqlite":
        connection.connection.execute("PRAGMA busy_timeout = 200")
        other = sqlite3.connect(settings["NAME"], isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            other.execute("ROLLBACK")
            other.close()
            connection.connection.execute(f"PRAGMA busy_timeout = {int(settings['OPTIONS']['timeout'] * 1000)}")
        return
    import psycopg

    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '200ms'")
    other = psycopg.connect(
        host=settings["HOST"] or None,
        port=settings["PORT"] or None,
        user=settings["USER"] or None,
        password=settings["PASSWORD"] or None,
        dbname=settings["NAME"],
    )
    try:
        other.execute("LOCK TABLE tournaments_manche IN EXCLUSIVE MODE")
        yield
    finally:
        other.rollback()
        other.close()
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")


@pytest.mark.django_db(transaction=True)
def test_a_locked_database_answers_503_with_retry_after_and_the_retry_saves(locked_table):
    table, body = locked_table
    client = Client(raise_request_exception=False)
    url = reverse("tournaments:api_table_sheet", args=[table.token])

    with database_locked_by_another_connection():
        started = time.monotonic()
        response = client.put(url, json.dumps(body), content_type="application/json")
        waited = time.monotonic() - started
        assert client.get(url).status_code == 200, "reading goes on while a writer holds the lock"
    assert response.status_code == 503, f"a clear 503 to retry, not {response.status_code}"
    assert response.has_header("Retry-After") and int(response["Retry-After"]) >= 1
    assert waited < 10, "the lock timeout, not a hang"

    saved = client.get(url).json()["manches"][0]
    assert saved["version"] == 0 and saved["document"] is None, "nothing half-saved"
    retry = client.put(url, json.dumps(body), content_type="application/json")
    assert retry.status_code == 200
    assert client.get(url).json()["manches"][0]["document"] == body["document"]
