"""Can an unpublished round's table link be told from an unknown one by its answer's time?

    python benchmarks/token_timing.py [--requests 2000] [--warm-up 200]

Sets up a fresh database (SQLite in a temporary folder unless DATABASE_URL) with an event whose round 1 is published
and round 2 seated but not published, then asks each link URL (a table's page, its clock, the JSON API's sheet; a
player's link to a table) with the unpublished round's token (or table) and with an unknown one, the two
interleaved, through Django's test client (no network, so the view's own time). Prints one JSON line per URL:
each kind's status, median and p90 in microseconds, and their ratios (unpublished / unknown). The "not found"
rate limit is off for the run, so every request reaches the view.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._django import setup  # noqa: E402

UNKNOWN_TOKEN = "Zq3xK9vB2mN7pL4wR8tY1c"


def evening():
    """An event of 8 players: round 1 published at two tables, round 2 seated at two tables, not published."""
    import datetime

    from tournaments.models import Event, Manche, Player, Round, Seat, Table

    event = Event.objects.create(
        name="Timing", date=datetime.date(2026, 11, 21), game="cheese-rescue", table_size=4, manches_per_round=1
    )
    players = Player.objects.bulk_create(Player(event=event, name=f"Player {i:02d}") for i in range(8))
    for number, published, order in [(1, True, range(8)), (2, False, [0, 4, 5, 6, 1, 2, 3, 7])]:
        round_ = Round.objects.create(event=event, number=number, published=published)
        order = list(order)
        for t in range(2):
            table = Table.objects.create(round=round_, number=t + 1)
            Manche.objects.create(table=table, number=1)
            for position, index in enumerate(order[t * 4 : t * 4 + 4], start=1):
                Seat.objects.create(table=table, player=players[index], position=position)
    hidden = Table.objects.get(round__number=2, number=1)
    return hidden, players[0]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def timed(client, url: str) -> tuple[float, int]:
    started = time.perf_counter()
    response = client.get(url)
    return time.perf_counter() - started, response.status_code


def compare(client, name: str, hidden_url: str, unknown_url: str, requests: int, warm_up: int) -> dict:
    """``requests`` of each URL, alternated (which goes first alternates too), after ``warm_up`` of each."""
    times: dict[str, list[float]] = {"unpublished": [], "unknown": []}
    statuses: dict[str, set[int]] = {"unpublished": set(), "unknown": set()}
    urls = {"unpublished": hidden_url, "unknown": unknown_url}
    for i in range(warm_up + requests):
        order = ("unpublished", "unknown") if i % 2 else ("unknown", "unpublished")
        for kind in order:
            took, status = timed(client, urls[kind])
            statuses[kind].add(status)
            if i >= warm_up:
                times[kind].append(took)
    line = {"url": name, "requests": requests}
    for kind, values in times.items():
        line[kind] = {
            "statuses": sorted(statuses[kind]),
            "median_us": round(statistics.median(values) * 1e6, 1),
            "p90_us": round(percentile(values, 0.9) * 1e6, 1),
        }
    line["median_ratio"] = round(line["unpublished"]["median_us"] / line["unknown"]["median_us"], 3)
    line["p90_ratio"] = round(line["unpublished"]["p90_us"] / line["unknown"]["p90_us"], 3)
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--warm-up", type=int, default=200)
    args = parser.parse_args()
    os.environ.setdefault("NOT_FOUND_RATE_LIMIT", "off")
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    os.environ.setdefault("RATELIMIT_CACHE_DIR", tempfile.mkdtemp(prefix="tablescore-bench-limits-"))
    vendor = setup()
    from django.test import Client

    hidden, player = evening()
    client = Client()
    token = hidden.token
    cases = [
        ("table page", f"/t/{token}/", f"/t/{UNKNOWN_TOKEN}/"),
        ("table clock", f"/t/{token}/clock/", f"/t/{UNKNOWN_TOKEN}/clock/"),
        ("API sheet", f"/api/tables/{token}/sheet", f"/api/tables/{UNKNOWN_TOKEN}/sheet"),
        (
            "player link to a table",
            f"/p/{player.token}/tables/{hidden.pk}/",
            f"/p/{player.token}/tables/{hidden.pk + 1000}/",
        ),
    ]
    for name, hidden_url, unknown_url in cases:
        line = compare(client, name, hidden_url, unknown_url, args.requests, args.warm_up)
        print(json.dumps({"database": vendor, **line}), flush=True)


if __name__ == "__main__":
    main()
