"""Meeting history: how often each pair of players has already sat at the same table."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from itertools import combinations

Pair = frozenset
"""Two player ids that met; the order does not matter."""

History = Mapping[Pair, int]
"""Pair -> number of earlier rounds in which the two sat at the same table."""


def pair(a: Hashable, b: Hashable) -> Pair:
    """The unordered pair of two different players."""
    if a == b:
        raise ValueError(f"A player cannot meet themself ({a!r}).")
    return frozenset((a, b))


def normalise_history(history: Mapping[Iterable[Hashable], int] | None) -> dict[Pair, int]:
    """``history`` keyed by frozenset pairs (tuples are accepted too), without zero counts."""
    normalised: dict[Pair, int] = {}
    for key, count in (history or {}).items():
        if count < 0:
            raise ValueError(f"A meeting count cannot be negative ({key!r}: {count}).")
        if count:
            a, b = tuple(key)
            normalised[pair(a, b)] = normalised.get(pair(a, b), 0) + count
    return normalised


def meetings_of_round(tables: Iterable[Sequence[Hashable]]) -> Counter[Pair]:
    """The pairs that meet in one round."""
    return Counter(pair(a, b) for table in tables for a, b in combinations(table, 2))


def meetings_of_rounds(rounds: Iterable[Iterable[Sequence[Hashable]]]) -> Counter[Pair]:
    """The pair counts of several rounds: the history after playing them."""
    counts: Counter[Pair] = Counter()
    for tables in rounds:
        counts.update(meetings_of_round(tables))
    return counts


def restrict_history(history: History, players: Iterable[Hashable]) -> dict[Pair, int]:
    """The part of ``history`` between the given players (dropped players are left out)."""
    present = set(players)
    return {key: count for key, count in history.items() if count and key <= present}
