"""Plausible Veggies stands for the demo: each declares its biggest good, a smaller one beside it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from scoring.veggies import DECLARED_COUNT, GOODS


def demo_sheet(rng: random.Random, players: Sequence[str], variant: str) -> dict[str, Any]:
    declared = DECLARED_COUNT.get(variant, 1)
    stands = []
    for _player in players:
        chosen = rng.sample(GOODS, declared + 1)
        size = rng.randint(4, 7)
        goods = {good: {"largest": size - k, "groups": rng.randint(1, 3)} for k, good in enumerate(chosen[:declared])}
        goods[chosen[-1]] = {"largest": rng.randint(1, size - declared), "groups": rng.randint(1, 3)}
        stands.append({"declared": chosen[:declared], "goods": goods, "mice": rng.randint(0, 4)})
    return {"stands": stands}
