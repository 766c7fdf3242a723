"""Documents scored per second for each game, through ``scoring.score``, on one core.

    python benchmarks/scoring.py [--seconds 1.0] [--repeat 3]

Prints one JSON line per game: the document's size, the median documents per second over the repeats.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import scoring  # noqa: E402
from scoring.veggies import biggest_goods, tally_from_grid  # noqa: E402

NAMES = ["Ada", "Bea", "Cyd", "Dan", "Eva"]


def vegetables_sheet(rng: random.Random, manches: int = 6) -> dict:
    rows = []
    for _ in range(manches):
        pozzo = [30, 20, 10, 0]
        rng.shuffle(pozzo)
        cuts = sorted(rng.sample(range(1, 16), 3))
        sequences = [b - a for a, b in zip([0, *cuts], [*cuts, 16])]
        bonuses = [min(s, rng.randint(0, 1)) for s in sequences]
        rows.append({"pozzo": pozzo, "sequences": sequences, "family_bonuses": bonuses, "penalties": [0, 1, 0, 0]})
    return {"game": "vegetables", "players": NAMES[:4], "manches": rows}


def veggies_stand(rng: random.Random) -> dict:
    """Eight 2 x 3 cards side by side in a 4 x 12 grid, with a valid declaration."""
    rows = ["".join(rng.choice("SSBBGGCCMMEX") for _ in range(12)) for _ in range(4)]
    choice = biggest_goods(tally_from_grid(rows)["goods"], 1)
    return {"grid": rows, "declared": list(choice.declarations()[0])}


def veggies_sheet(rng: random.Random) -> dict:
    return {"game": "veggies", "players": NAMES[:4], "stands": [veggies_stand(rng) for _ in range(4)]}


def snack_match_sheet(rng: random.Random) -> dict:
    snacks, cloths = ["sandwich", "donut", "sausage", "soda"], ["orange", "green"]

    def zone() -> list:
        return [[f"{rng.choice(snacks)}/{rng.choice(cloths)}" for _ in range(4)] for _ in range(4)]

    diet = [{"component": "donut", "modifier": "corners"}, {"component": "green", "modifier": "most"}]
    return {
        "game": "snack-match",
        "variant": "special-diet",
        "players": NAMES[:5],
        "diet": diet,
        "zones": [{"grid": zone()} for _ in range(5)],
    }


def cheese_rescue_sheet(rng: random.Random) -> dict:
    cards = ["S"] + [f"Q{p}:{v}" for p in range(1, 5) for v in (1, 1, 1, 2, 2, 3)]
    cards += [rng.choice("DCCMMM") for _ in range(49 - len(cards))]
    rng.shuffle(cards)
    board = [cards[r * 7 : r * 7 + 7] for r in range(7)]
    return {"game": "cheese-rescue", "players": NAMES[:4], "board": board}


DOCUMENTS = {
    "vegetables": ("6 manches, 4 players", vegetables_sheet),
    "veggies": ("4 stand grids of 8 cards", veggies_sheet),
    "snack-match": ("5 special-diet 4 x 4 zones", snack_match_sheet),
    "cheese-rescue": ("full 7 x 7 board, 4 players", cheese_rescue_sheet),
}


def rate(document: dict, seconds: float) -> float:
    """Documents scored per second, scoring ``document`` for about ``seconds``."""
    count, start = 0, time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(100):
            scoring.score(document)
        count += 100
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    rng = random.Random(args.seed)
    for game, (size, make) in DOCUMENTS.items():
        document = make(rng)
        scoring.score(document)
        rates = [rate(document, args.seconds) for _ in range(args.repeat)]
        line = {
            "benchmark": "scoring",
            "game": game,
            "document": size,
            "players": len(document["players"]),
            "repeats": args.repeat,
            "documents_per_second": round(statistics.median(rates)),
            "microseconds_per_document": round(1e6 / statistics.median(rates), 1),
        }
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
