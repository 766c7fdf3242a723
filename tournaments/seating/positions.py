"""Seat positions: who starts (position 1) and who follows clockwise, rotated over the rounds."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import TypeVar

P = TypeVar("P", bound=Hashable)

PositionCounts = Mapping[Hashable, Mapping[int, int]]
"""Player -> position (1 starts) -> how many rounds they sat there."""

EXACT_UP_TO = 12
"""Tables up to this size get the best order by exact search; larger ones a greedy one."""


def rotate_positions(
    tables: Sequence[Sequence[P]], position_counts: PositionCounts | None, rng: random.Random | None = None
) -> list[list[P]]:
    """Each table reordered so position 1 goes to a player who has started least so far, and the other
    positions to players who sat there least; ``rng`` (if given) breaks ties, otherwise the given order does."""
    counts = position_counts or {}
    ordered = []
    for table in tables:
        players = list(table)
        if rng is not None:
            rng.shuffle(players)
        ordered.append(best_order(players, counts))
    return ordered


def best_order(players: list[P], counts: PositionCounts) -> list[P]:
    """The order that first minimises the starter's starts, then how often the players already sat in their seats."""
    size = len(players)
    cost = [[counts.get(p, {}).get(seat + 1, 0) for seat in range(size)] for p in players]
    weight = sum(map(sum, cost)) + 1
    for row in cost:
        row[0] *= weight
    if size > EXACT_UP_TO:
        return greedy_order(players, cost)
    best: dict[int, tuple[int, list[int]]] = {0: (0, [])}
    for seat in range(size):
        layer: dict[int, tuple[int, list[int]]] = {}
        for used, (total, chosen) in best.items():
            for i in range(size):
                if not used >> i & 1:
                    key = used | 1 << i
                    candidate = (total + cost[i][seat], [*chosen, i])
                    if key not in layer or candidate[0] < layer[key][0]:
                        layer[key] = candidate
        best = layer
    (_, chosen), *_ = best.values()
    return [players[i] for i in chosen]


def greedy_order(players: list[P], cost: list[list[int]]) -> list[P]:
    """Seat by seat, the free player who sat there least."""
    free = list(range(len(players)))
    order = []
    for seat in range(len(players)):
        i = min(free, key=lambda i: cost[i][seat])
        free.remove(i)
        order.append(players[i])
    return order


def position_counts_of(rounds: Iterable[Sequence[Sequence[P]]]) -> dict[P, Counter[int]]:
    """How often each player sat in each position over the given rounds (tables in seat order)."""
    counts: dict[P, Counter[int]] = {}
    for tables in rounds:
        for table in tables:
            for seat, player in enumerate(table, start=1):
                counts.setdefault(player, Counter())[seat] += 1
    return counts
