"""Plausible Snack Match zones for the demo, as the sizes of their groups."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any


def demo_sheet(rng: random.Random, players: Sequence[str]) -> dict[str, Any]:
    return {
        "zones": [
            {
                "groups": {
                    "snacks": {"sandwich": [rng.randint(1, 6)], "donut": [rng.randint(1, 4), 2]},
                    "cloths": {"green": [rng.randint(3, 8)], "orange": [rng.randint(1, 5), 1]},
                }
            }
            for _player in players
        ]
    }
