"""Simulate an event's seating and print one JSON line with its repeats and timings.

Run from the project root: ``python benchmarks/seating.py --players 32 --rounds 8 --table-size 4 --method mixer``.
Each round is seated the way the app does it, from the meeting history alone; swiss standings come
from random scores. ``--sweep`` seats the mixer's reference cases (round 1 at random, as the app seats
it, then the mixer) and prints one line per case and seed, with the fewest repeats known for it.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.seating import (  # noqa: E402
    METHODS,
    meetings_of_rounds,
    plan_table_sizes,
    position_counts_of,
    repeat_lower_bound,
    seat_round,
    total_repeats,
)
from tournaments.seating.known_schedules import best_known_rounds  # noqa: E402

SWEEP = [
    *[(16, 4, 5), (20, 4, 5), (24, 4, 6), (24, 4, 7), (28, 4, 9), (32, 4, 10), (36, 4, 11), (40, 4, 13)],
    *[(44, 4, 14), (48, 4, 15), (52, 4, 17), (56, 4, 18), (60, 4, 19), (64, 4, 21), (30, 4, 6), (47, 4, 5)],
    *[(48, 4, 8), (47, 4, 15), (63, 4, 21)],
    *[(9, 3, 4), (12, 3, 4), (15, 3, 7), (18, 3, 8), (21, 3, 10), (24, 3, 11), (27, 3, 13), (30, 3, 14)],
    *[(33, 3, 16), (36, 3, 17), (39, 3, 19), (42, 3, 20), (45, 3, 22), (48, 3, 23), (51, 3, 25), (54, 3, 26)],
    *[(57, 3, 28), (60, 3, 29), (63, 3, 31), (20, 3, 6), (31, 3, 8), (62, 3, 30)],
]
"""(players, table size, rounds) the sweep seats: full tables for as many rounds as are known without a repeat,
and a few cases with short tables."""


def simulate(
    players: int, rounds: int, table_size: int, min_size: int, method: str, seed: int, first_round: str | None = None
) -> dict:
    """Seat ``rounds`` rounds one at a time and measure them; round 1 by ``first_round`` if given."""
    ids = list(range(1, players + 1))
    scores_rng = random.Random(f"scores:{seed}")
    scores = dict.fromkeys(ids, 0.0)
    schedule: list[list[list[int]]] = []
    seconds = []
    for round_number in range(1, rounds + 1):
        standings = sorted(ids, key=lambda p: (-scores[p], p))
        start = time.perf_counter()
        tables = seat_round(
            first_round if round_number == 1 and first_round else method,
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
        "median_seconds_round": round(statistics.median(seconds), 3),
    }


def sweep_case(players: int, table_size: int, rounds: int, seed: int) -> dict:
    """One line of the sweep: the mixer after a random first round, against the lower bound (meetings beyond the
    pairs there are, which short tables make smaller than the app's figure) and the best known."""
    measured = simulate(players, rounds, table_size, table_size - 1, "mixer", seed, first_round="random")
    known_rounds = best_known_rounds(players, table_size)
    sizes = plan_table_sizes(players, table_size, table_size - 1)
    meetings = rounds * sum(size * (size - 1) // 2 for size in sizes)
    return {
        "players": players,
        "table_size": table_size,
        "rounds": rounds,
        "seed": seed,
        "repeats": measured["repeats"],
        "lower_bound": max(0, meetings - players * (players - 1) // 2),
        "best_known": 0 if known_rounds is not None and rounds <= known_rounds else None,
        "best_known_rounds": known_rounds,
        "seconds_per_round_max": measured["max_seconds_round"],
        "seconds_per_round_median": measured["median_seconds_round"],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int)
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--table-size", type=int, default=4)
    parser.add_argument("--min-size", type=int, help="smallest table allowed (default: table size - 1)")
    parser.add_argument("--method", choices=METHODS, default="mixer")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sweep", action="store_true", help="the mixer's reference cases instead of one event")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0], help="with --sweep: the seeds of each case")
    parser.add_argument("--only", help="with --sweep: the cases of one table size (3 or 4) or one case (e.g. 28x4)")
    args = parser.parse_args(argv)
    if args.sweep:
        for players, table_size, rounds in SWEEP:
            if args.only and args.only not in (str(table_size), f"{players}x{table_size}"):
                continue
            for seed in args.seeds:
                print(json.dumps(sweep_case(players, table_size, rounds, seed)), flush=True)
        return
    if args.players is None or args.rounds is None:
        parser.error("--players and --rounds are required without --sweep")
    min_size = args.min_size if args.min_size is not None else max(1, args.table_size - 1)
    print(json.dumps(simulate(args.players, args.rounds, args.table_size, min_size, args.method, args.seed)))


if __name__ == "__main__":
    main()
