"""Printing at scale: the score sheets of one round of a large event, one or two tables a page.

    python benchmarks/printing.py --tables 250 [--game vegetables] [--paper A4] [--repeat 5]

Builds an event of 4 x TABLES players seated at TABLES tables in a throwaway database, then times the
round's score sheets PDF (median of REPEAT builds, fonts registered beforehand as in a running server).
Prints one JSON line: {"benchmark": "printing", "game", "paper", "tables", "pages", "seconds",
"pages_per_second", "sheets_per_second", "cpu_seconds"} (the process's own time, which other work on the
machine does not inflate); fails below REQUIRED_PAGES_PER_SECOND or with pages missing.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import io
import json
import math
import statistics
import time
from pathlib import Path

import _django

REQUIRED_PAGES_PER_SECOND = 300
#: The clubs of a real club night's list, long and accented.
CLUB_NIGHT = Path(__file__).resolve().parent.parent / "tests" / "data" / "players-club-night.csv"


def build_event(tables: int, game: str, paper: str = "A4"):
    from tournaments.models import Event, Manche, Player, Round, Seat, Table

    event = Event.objects.create(
        name=f"Benchmark {tables} tables",
        date=datetime.date(2026, 11, 22),
        venue="Palazzo dei Congressi",
        game=game,
        paper_size=paper,
        table_size=4,
        manches_per_round=4 if game == "vegetables" else 1,
    )
    first = ["Łucja", "José", "Jürgen", "Chiara", "Søren", "Zoë", "Íñigo", "Małgorzata"]
    last = ["Wróbel", "Núñez", "Müller", "Bianchi", "Ærø", "Brzęczyszczykiewicz", "Peña", "Łukasiewicz"]
    with CLUB_NIGHT.open(encoding="utf-8") as rows:
        clubs = sorted({row["club"] for row in csv.DictReader(rows)})
    Player.objects.bulk_create(
        Player(event=event, name=f"{first[i % 8]} {last[(i // 8) % 8]} {i:04d}", club=clubs[i % len(clubs)])
        for i in range(tables * 4)
    )
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    round_ = Round.objects.create(event=event, number=1, published=True)
    table_rows = Table.objects.bulk_create(Table(round=round_, number=n + 1) for n in range(tables))
    Seat.objects.bulk_create(
        (
            Seat(table=table, round=round_, player_id=ids[t * 4 + p], position=p + 1)
            for t, table in enumerate(table_rows)
            for p in range(4)
        ),
        batch_size=1000,
    )
    Manche.objects.bulk_create(
        Manche(table=table, number=m + 1) for table in table_rows for m in range(event.manches_per_round)
    )
    return event


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--game", default="vegetables")
    parser.add_argument("--paper", default="A4", choices=["A4", "letter"])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    _django.setup()

    from pypdf import PdfReader

    from tournaments.printing.fonts import register_fonts
    from tournaments.printouts.sheets import round_with_seats, score_sheets_pdf

    event = build_event(args.tables, args.game, args.paper)
    register_fonts()

    def link(table) -> str:
        return f"https://tablescore.example.org/t/{table.token}/"

    times, cpu, pdf = [], [], b""
    for _ in range(args.repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        pdf = score_sheets_pdf(event, round_with_seats(event, 1), link)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    seconds = statistics.median(times)
    pages = len(PdfReader(io.BytesIO(pdf)).pages)
    print(
        json.dumps(
            {
                "benchmark": "printing",
                "game": args.game,
                "paper": args.paper,
                "tables": args.tables,
                "pages": pages,
                "seconds": round(seconds, 3),
                "pages_per_second": round(pages / seconds, 1),
                "sheets_per_second": round(args.tables / seconds, 1),
                "cpu_seconds": round(statistics.median(cpu), 3),
            }
        )
    )
    if pages not in (args.tables, math.ceil(args.tables / 2)) or pages / seconds < REQUIRED_PAGES_PER_SECOND:
        raise SystemExit(f"expected a page or half a page per table at {REQUIRED_PAGES_PER_SECOND} pages a second")


if __name__ == "__main__":
    main()
