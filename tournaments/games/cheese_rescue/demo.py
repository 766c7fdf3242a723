"""Plausible Cheese Rescue tallies for the demo: cheese points and cards left that six cheeses can make."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from scoring.cheese_rescue import POSSIBLE_POINTS


def demo_sheet(rng: random.Random, players: Sequence[str]) -> dict[str, Any]:
    tallies = []
    for _player in players:
        cards = rng.choice([0, 1, 2, 2, 3, 3, 4, 5])
        points = rng.choice(sorted(POSSIBLE_POINTS[cards]))
        tallies.append({"cheese_points": points, "cheese_cards": cards})
    return {"tallies": tallies}
