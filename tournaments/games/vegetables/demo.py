"""A plausible VEGEtables manche for the demo: the pozzo order shuffled, 16 crosses shared out."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from scoring.vegetables import SEQUENCES_PER_MANCHE, pozzo_values


def demo_sheet(rng: random.Random, players: Sequence[str]) -> dict[str, Any]:
    n = len(players)
    pozzo = list(pozzo_values(n))
    rng.shuffle(pozzo)
    cuts = sorted(rng.sample(range(1, SEQUENCES_PER_MANCHE), n - 1))
    sequences = [b - a for a, b in zip([0, *cuts], [*cuts, SEQUENCES_PER_MANCHE])]
    bonuses = [min(s, rng.choice([0, 0, 1])) for s in sequences]
    penalties = [rng.choice([0, 0, 0, 1]) for _ in range(n)]
    return {"manches": [{"pozzo": pozzo, "sequences": sequences, "family_bonuses": bonuses, "penalties": penalties}]}
