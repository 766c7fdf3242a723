"""Random seating, for a first round or a casual event."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import TypeVar

from .tables import canonical_order, split_into_tables

P = TypeVar("P", bound=Hashable)


def random_seating(players: Sequence[P], sizes: Sequence[int], rng: random.Random | int | str) -> list[list[P]]:
    """The players shuffled into tables of the given sizes; the same players and seed give the same tables."""
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    order = canonical_order(players)
    rng.shuffle(order)
    return split_into_tables(order, sizes)
