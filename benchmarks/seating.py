"""Simulate an event's seating and print one JSON line with its repeats and timings.

Run from the project root: ``python benchmarks/seating.py --players 32 --rounds 8 --table-size 4 --method mixer``.
Each round is seated the way the app does it, from the meeting history alone; swiss standings come
from random scores.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.seating import (  # noqa: E402
    METHODS,
    meetings_of_rounds,
    position_counts_of,
    repeat_lower_bound,
    seat_round,
    total_repeats,
)


def simulate(players: int, rounds: int, table_size: int, min_size: int, method: str, seed: int) -> dict:
    """Seat ``rounds`` rounds one at a time and measure them."""
    ids = list(range(1, players + 1))
    scores_rng = random.Random(f"scores:{seed}")
    scores = dict.fromkeys(ids, 0.0)
    schedule: list[list[list[int]]] = []
    seconds = []
    for round_number in range(1, rounds + 1):
        standings = sorted(ids, key=lambda p: (-scores[p], p))
        start = time.perf_counter()
        tables = seat_round(
            method,
            ids,
            table_size=table_size,
            min_size=min_size,
            history=meetings_of_rounds(schedule),
            round_number=round_number,
            rounds_total=rounds,
            seed=seed,
            standings=standings,
            position_counts=position_counts_of(schedule),
        )
        seconds.append(time.perf_counter() - start)
        schedule.append(tables)
        for player in ids:
            scores[player] += scores_rng.random()
    return {
        "players": players,
        "rounds": rounds,
        "table_size": table_size,
        "method": method,
        "repeats": total_repeats(schedule),
        "lower_bound": repeat_lower_bound(players, [table_size] * rounds),
        "seconds_per_round": round(sum(seconds) / len(seconds), 3),
        "max_seconds_round": round(max(seconds), 3),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--rounds", type=int, required=True)
    parser.add_argument("--table-size", type=int, default=4)
    parser.add_argument("--min-size", type=int, help="smallest table allowed (default: table size - 1)")
    parser.add_argument("--method", choices=METHODS, default="mixer")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    min_size = args.min_size if args.min_size is not None else max(1, args.table_size - 1)
    print(json.dumps(simulate(args.players, args.rounds, args.table_size, min_size, args.method, args.seed)))


if __name__ == "__main__":
    main()
