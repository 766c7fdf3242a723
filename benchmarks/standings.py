"""Standings at scale: rebuild and page render, next to one raw read of the per-seat results.

    python benchmarks/standings.py --players 1024 --rounds 8 [--repeat 9]

The rebuild is measured whole (``refresh.rebuild_now``: the writers' lock, the bookkeeping, reading, ranking and
writing what changed) in three cases: after one table of the last round changed (what a save does; the
headline figure), with nothing changed, and from scratch (every row written).

The measurements take turns, so a moment of load on a shared machine slows them alike. Prints one JSON line: sizes,
medians in seconds, and each figure as a ratio of the raw read.
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import statistics
import time
from decimal import Decimal

import _django


def build_event(players: int, rounds: int, seed: int):
    from tournaments.models import Event, Player, Round, Seat, Table
    from tournaments.models.rounds import RoundStatus
    from tournaments.services.results import split_points

    rng = random.Random(seed)
    event = Event.objects.create(
        name=f"Benchmark {players}x{rounds}", date=datetime.date(2026, 11, 22), game="cheese-rescue", table_size=4
    )
    Player.objects.bulk_create(
        Player(event=event, name=f"Player {i:05d}", club=f"Club {i % 40}") for i in range(players)
    )
    ids = list(event.players.values_list("pk", flat=True))
    for number in range(1, rounds + 1):
        round_ = Round.objects.create(event=event, number=number, status=RoundStatus.COMPLETE, published=True)
        tables = Table.objects.bulk_create(Table(round=round_, number=n + 1) for n in range(players // 4))
        rng.shuffle(ids)
        seats = []
        for t, table in enumerate(tables):
            group = ids[t * 4 : t * 4 + 4]
            scores = [rng.randint(0, 10) for _ in group]
            ranks = [1 + sum(other > score for other in scores) for score in scores]
            points = split_points(ranks, (4, 2, 1, 0))
            for position, (player, score, rank, earned) in enumerate(zip(group, scores, ranks, points), start=1):
                tiebreak = [min(score, 6)]
                seats.append(
                    Seat(
                        table=table,
                        round=round_,
                        player_id=player,
                        position=position,
                        score=score,
                        tiebreak=tiebreak,
                        rank=rank,
                        placement_points=Decimal(earned),
                    )
                )
        Seat.objects.bulk_create(seats, batch_size=1000)
    return event


def interleaved(steps: dict[str, tuple], repeat: int) -> dict[str, float]:
    """The median seconds of each step's action, each run after its preparation (not timed). The steps take turns,
    ``repeat`` times, so a machine busy for a moment slows them alike and their ratios hold."""
    times: dict[str, list[float]] = {name: [] for name in steps}
    for _ in range(repeat):
        for name, (prepare, action) in steps.items():
            prepare()
            start = time.perf_counter()
            action()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in times.items()}


class OneTable:
    """Swaps the results of the first two seats of one table of the last round, back and forth: one table's
    sheet corrected, as a save would leave the seats before the rebuild."""

    def __init__(self, event, rounds: int):
        from tournaments.models import Seat

        table = Seat.objects.filter(round__event=event, round__number=rounds).order_by("table_id").first().table_id
        self.seats = list(Seat.objects.filter(table_id=table).order_by("position")[:2])

    def change(self) -> None:
        from tournaments.models import Seat
        from tournaments.services.results import RESULT_FIELDS
        from tournaments.sql import update_rows

        first, second = self.seats
        for name in RESULT_FIELDS:
            one, other = getattr(first, name), getattr(second, name)
            setattr(first, name, other)
            setattr(second, name, one)
        update_rows(
            Seat, RESULT_FIELDS, [(seat.pk, *(getattr(seat, name) for name in RESULT_FIELDS)) for seat in self.seats]
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    vendor = _django.setup()

    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from tournaments.models import Seat, Standing
    from tournaments.standings.refresh import rebuild_now

    start = time.perf_counter()
    event = build_event(args.players, args.rounds, args.seed)
    build_seconds = time.perf_counter() - start

    def raw_read():
        list(Seat.objects.filter(round__event=event).values_list("player_id", "table_id", "placement_points", "score"))

    def rebuild():
        rebuild_now(event.pk)

    client = Client()
    url = reverse("tournaments:standings", args=[event.slug])
    rebuild()
    one_table = OneTable(event, args.rounds)

    def render():
        response = client.get(url)
        assert response.status_code == 200

    def render_cold():
        cache.clear()
        render()

    def no_standings():
        Standing.objects.filter(event=event).delete()

    def nothing():
        pass

    median = interleaved(
        {
            "raw": (nothing, raw_read),
            "after_change": (one_table.change, rebuild),
            "unchanged": (nothing, rebuild),
            "scratch": (no_standings, rebuild),
            "cold": (nothing, render_cold),
            "page": (nothing, render),
        },
        args.repeat,
    )
    raw, after_change, unchanged, scratch = (
        median["raw"],
        median["after_change"],
        median["unchanged"],
        median["scratch"],
    )
    cold, page = median["cold"], median["page"]
    with CaptureQueriesContext(connection) as queries:
        render()
    one_table.change()
    with CaptureQueriesContext(connection) as rebuild_queries:
        rebuild()
    print(
        json.dumps(
            {
                "benchmark": "standings",
                "database": vendor,
                "players": args.players,
                "rounds": args.rounds,
                "seats": args.players * args.rounds,
                "build_event_seconds": round(build_seconds, 3),
                "raw_read_seconds": round(raw, 4),
                "rebuild_seconds": round(after_change, 4),
                "rebuild_unchanged_seconds": round(unchanged, 4),
                "rebuild_from_scratch_seconds": round(scratch, 4),
                "render_page_cold_seconds": round(cold, 4),
                "render_page_seconds": round(page, 4),
                "rebuild_to_raw_read": round(after_change / raw, 2),
                "rebuild_unchanged_to_raw_read": round(unchanged / raw, 2),
                "rebuild_from_scratch_to_raw_read": round(scratch / raw, 2),
                "render_cold_to_raw_read": round(cold / raw, 1),
                "render_to_raw_read": round(page / raw, 2),
                "rebuild_queries": len(rebuild_queries),
                "page_queries": len(queries),
            }
        )
    )


if __name__ == "__main__":
    main()
