"""The installed ``tablescore`` command run as an organiser runs it: a real server in another process, driven over
HTTP as the phones and the projector drive it."""

from __future__ import annotations

import csv
import http.client
import json
import os
import queue
import signal
import subprocess
import threading
import time
from pathlib import Path

from tests.subprocesses import free_port

#: What the installed command must not find in the environment of the test run that starts it.
DEVELOPER_VARIABLES = ("DATABASE_URL", "DJANGO_SETTINGS_MODULE", "TABLESCORE_DATA", "SECRET_KEY", "PYTHONPATH")
#: The most a start (migrations and the demo of a new database) or a standings update may take.
START_SECONDS = 240
UPDATE_SECONDS = 60
#: A VEGEtables manche the rules accept, its columns in the table's seat order.
MANCHE = {
    "pozzo": [30, 0, 20, 10],
    "sequences": [6, 2, 5, 3],
    "family_bonuses": [1, 0, 0, 0],
    "penalties": [0, 1, 0, 0],
}
#: The demo VEGEtables evening's table that has no sheet yet, read through the command's own ``manage``.
OPEN_TABLE = """
import json
from tournaments.models import Event
event = Event.objects.get(game="vegetables", status="running")
table = event.rounds.order_by("number").last().tables.order_by("number").last()
names = [seat.player.name for seat in table.seats.order_by("position")]
print(json.dumps({"slug": event.slug, "token": table.token, "players": names, "manches": event.manches_per_round}))
"""


def organiser_environment(**extra: str) -> dict[str, str]:
    return {**{k: v for k, v in os.environ.items() if k not in DEVELOPER_VARIABLES}, **extra}


class Laptop:
    """``tablescore serve`` from ``scripts`` on the data folder ``data``, its output read line by line."""

    def __init__(self, scripts: Path, data: Path, cwd: Path, **environment: str):
        self.scripts, self.data, self.cwd = scripts, data, cwd
        self.env = organiser_environment(**environment)
        self.port = free_port()
        self.lines: list[str] = []
        self._arriving: queue.Queue[str | None] = queue.Queue()
        self.process: subprocess.Popen | None = None

    def command(self, *arguments: str, timeout: float = 120) -> subprocess.CompletedProcess:
        """``tablescore --data DATA ARGUMENTS`` run to its end."""
        return subprocess.run(
            [str(self.scripts / "tablescore"), "--data", str(self.data), *arguments],
            cwd=self.cwd,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    def manage_json(self, code: str):
        done = self.command("manage", "shell", "--no-imports", "-c", code)
        assert done.returncode == 0, done.stdout + done.stderr
        return json.loads(done.stdout.strip().splitlines()[-1])

    def __enter__(self) -> Laptop:
        self.process = subprocess.Popen(
            [str(self.scripts / "tablescore"), "--data", str(self.data), "serve", "--port", str(self.port)]
            + ["--no-browser"],
            cwd=self.cwd,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            encoding="utf-8",
        )
        threading.Thread(target=self._read, daemon=True).start()
        self.wait_for_line("Tablescore is ready", START_SECONDS)
        return self

    def _read(self) -> None:
        for line in self.process.stdout:
            self._arriving.put(line.rstrip("\n"))
        self._arriving.put(None)

    def wait_for_line(self, start: str, seconds: float) -> str:
        deadline = time.monotonic() + seconds
        while True:
            for line in self.lines:
                if line.startswith(start):
                    return line
            try:
                line = self._arriving.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                line = None
            if line is None:
                raise AssertionError(f"no line starting {start!r}; the command said:\n" + "\n".join(self.lines))
            self.lines.append(line)

    def stop(self) -> int:
        """Ctrl+C, as the organiser stops it; the command's exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            status = self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise
        self.wait_for_line("Tablescore stopped", 10)
        return status

    def __exit__(self, *exc) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            headers = {"Content-Type": "application/json"} if body is not None else {}
            connection.request(method, path, json.dumps(body) if body is not None else None, headers)
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    def play_open_table(self) -> tuple[str, dict[str, int]]:
        """Every manche of the demo's open VEGEtables table saved through its table link, as a phone does: the
        event's slug and each player's game score the table's sheets add up to."""
        table = self.manage_json(OPEN_TABLE)
        status, page = self.request("GET", f"/t/{table['token']}/")
        assert status == 200 and b"<form" in page
        scores = dict.fromkeys(table["players"], 0)
        for number in range(1, table["manches"] + 1):
            document = {"game": "vegetables", "players": table["players"], "manches": [MANCHE]}
            status, answer = self.request(
                "PUT", f"/api/tables/{table['token']}/sheet", {"manche": number, "version": 0, "document": document}
            )
            assert status == 200, answer[:500]
            for player in json.loads(answer)["players"]:
                scores[player["name"]] += player["score"]
        return table["slug"], scores

    def wait_for_standings(self, slug: str, scores: dict[str, int]) -> None:
        """Until the standings show each of ``scores``' players with their game score after one round."""
        deadline = time.monotonic() + UPDATE_SECONDS
        while True:
            rows = self.standings_rows(slug)
            shown = {name: (rows[name][4], rows[name][6]) for name in scores if name in rows}
            if shown == {name: (str(score), "1") for name, score in scores.items()}:
                return
            assert time.monotonic() < deadline, f"the standings show {shown}, not the scores {scores}"
            time.sleep(0.5)

    def standings_rows(self, slug: str) -> dict[str, list[str]]:
        """The public standings download, by player name."""
        status, content = self.request("GET", f"/e/{slug}/standings.csv")
        assert status == 200, content[:500]
        rows = list(csv.reader(content.decode("utf-8-sig").splitlines()))
        return {row[1]: row for row in rows[1:] if len(row) > 1}
