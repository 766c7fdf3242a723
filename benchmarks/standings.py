"""Standings at scale: rebuild and page render, next to one raw read of the per-seat results.

    python benchmarks/standings.py --players 1024 --rounds 8 [--repeat 5]

Prints one JSON line: sizes, medians in seconds, and each figure as a ratio of the raw read.
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


def median_time(action, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    vendor = _django.setup()

    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from tournaments.models import Seat
    from tournaments.standings.build import rebuild_standings

    start = time.perf_counter()
    event = build_event(args.players, args.rounds, args.seed)
    build_seconds = time.perf_counter() - start

    def raw_read():
        list(Seat.objects.filter(round__event=event).values_list("player_id", "table_id", "placement_points", "score"))

    client = Client()
    url = reverse("tournaments:standings", args=[event.slug])
    rebuild_standings(event)

    def render():
        response = client.get(url)
        assert response.status_code == 200

    def render_cold():
        cache.clear()
        render()

    raw = median_time(raw_read, args.repeat)
    rebuild = median_time(lambda: rebuild_standings(event), args.repeat)
    cold = median_time(render_cold, args.repeat)
    page = median_time(render, args.repeat)
    with CaptureQueriesContext(connection) as queries:
        render()
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
                "rebuild_seconds": round(rebuild, 4),
                "render_page_cold_seconds": round(cold, 4),
                "render_page_seconds": round(page, 4),
                "rebuild_to_raw_read": round(rebuild / raw, 1),
                "render_cold_to_raw_read": round(cold / raw, 1),
                "render_to_raw_read": round(page / raw, 2),
                "page_queries": len(queries),
            }
        )
    )


if __name__ == "__main__":
    main()
