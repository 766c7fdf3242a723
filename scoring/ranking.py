"""Competition ranking (1, 1, 3): larger keys rank first, equal keys share a rank."""

from __future__ import annotations

from collections.abc import Sequence


def competition_ranks(keys: Sequence[Sequence[int]]) -> list[int]:
    """The 1-based rank of each key; a key is (score, *tiebreak), larger is better."""
    order = sorted(range(len(keys)), key=lambda i: tuple(keys[i]), reverse=True)
    ranks = [0] * len(keys)
    for position, index in enumerate(order):
        if position and tuple(keys[index]) == tuple(keys[order[position - 1]]):
            ranks[index] = ranks[order[position - 1]]
        else:
            ranks[index] = position + 1
    return ranks
