"""Schedules without a repeated meeting, built from finite geometry.

When there are ``p**n`` players at tables of ``p**k`` (``p`` prime), the players are the vectors of
GF(p)^n. A ``k``-dimensional subspace and its translates split them into tables, and two subspaces
that share only the zero vector never seat the same pair together, so a set of such subspaces (a
partial spread) is a schedule with no repeat: 16 players at tables of 4 get 5 rounds, 32 get 9,
9 at tables of 3 get 4, 27 get 13.
"""

from __future__ import annotations

import random
import time

MAX_PLAYERS = 256
SEARCH_NODES = 20_000

Tables = list[list[int]]


def prime_power(value: int) -> tuple[int, int] | None:
    """``(p, e)`` with ``value == p**e`` and ``p`` prime, or None."""
    if value < 2:
        return None
    p = next(d for d in range(2, value + 1) if value % d == 0)
    exponent = 0
    while value % p == 0:
        value //= p
        exponent += 1
    return (p, exponent) if value == 1 else None


def affine_rounds(
    player_count: int, table_size: int, rounds: int, rng: random.Random, deadline: float = float("inf")
) -> list[Tables]:
    """Up to ``rounds`` rounds of tables of ``table_size`` in which no pair meets twice; [] if no construction fits.

    Fewer rounds, or none, when ``deadline`` (``time.monotonic``) passes first."""
    players, tables = prime_power(player_count), prime_power(table_size)
    if players is None or tables is None or player_count > MAX_PLAYERS or rounds < 1:
        return []
    (p, n), (q, k) = players, tables
    if p != q or k > n:
        return []
    vectors = VectorSpace(p, n)
    spread = partial_spread(vectors.subspaces(k, deadline), rounds, rng, deadline)
    return [vectors.cosets(subspace) for subspace in spread]


class VectorSpace:
    """GF(p)^n with vectors numbered ``0..p**n - 1`` by their base-``p`` digits."""

    def __init__(self, p: int, n: int):
        self.p = p
        self.size = p**n
        self.digits = [[(v // p**i) % p for i in range(n)] for v in range(self.size)]
        self.weights = [p**i for i in range(n)]

    def add(self, u: int, v: int, factor: int = 1) -> int:
        """``u + factor * v``."""
        p = self.p
        pairs = zip(self.digits[u], self.digits[v], self.weights, strict=True)
        return sum(((a + factor * b) % p) * w for a, b, w in pairs)

    def span_with(self, subspace: frozenset[int], v: int) -> frozenset[int]:
        """The subspace spanned by ``subspace`` and ``v``."""
        return frozenset(self.add(s, v, c) for s in subspace for c in range(self.p))

    def subspaces(self, dimension: int, deadline: float = float("inf")) -> list[frozenset[int]]:
        """Every subspace of the given dimension, each as the set of its vectors; none if ``deadline`` passes first."""
        layer = {frozenset([0])}
        for _ in range(dimension):
            spans = set()
            for s in layer:
                if time.monotonic() > deadline:
                    return []
                spans.update(self.span_with(s, v) for v in range(1, self.size) if v not in s)
            layer = spans
        return sorted(layer, key=sorted)

    def cosets(self, subspace: frozenset[int]) -> Tables:
        """The translates of ``subspace``: one round of tables."""
        seen: set[int] = set()
        tables = []
        for v in range(self.size):
            if v not in seen:
                table = sorted(self.add(v, s) for s in subspace)
                seen.update(table)
                tables.append(table)
        return tables


def partial_spread(
    subspaces: list[frozenset[int]], wanted: int, rng: random.Random, deadline: float = float("inf")
) -> list[frozenset[int]]:
    """Up to ``wanted`` subspaces meeting only in zero, found by a depth-first search bounded in nodes and time."""
    candidates = [s - {0} for s in subspaces]
    rng.shuffle(candidates)
    best: list[frozenset[int]] = []
    chosen: list[frozenset[int]] = []
    nodes = 0

    def extend(start: int, used: frozenset[int]) -> bool:
        nonlocal best, nodes
        if len(chosen) > len(best):
            best = list(chosen)
        if len(chosen) == wanted:
            return True
        for i in range(start, len(candidates)):
            nodes += 1
            if nodes > SEARCH_NODES or time.monotonic() > deadline:
                return True
            if used.isdisjoint(candidates[i]):
                chosen.append(candidates[i])
                if extend(i + 1, used | candidates[i]):
                    return True
                chosen.pop()
        return False

    extend(0, frozenset())
    return [s | {0} for s in best]
