"""How good a seating is: repeated meetings, and the fewest an event of that shape must have."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from .history import History, normalise_history, pair


def count_repeats(tables: Iterable[Sequence[Hashable]], history: Mapping | None) -> int:
    """Meetings in this round between players who already met: one for each such pair at a table."""
    met = normalise_history(history)
    return sum(1 for table in tables for a, b in combinations(table, 2) if met.get(pair(a, b)))


def history_repeats(history: History) -> int:
    """Repeated meetings already in ``history``: a pair that met ``m`` times counts ``m - 1``."""
    return sum(count - 1 for count in history.values() if count > 1)


def total_repeats(rounds: Iterable[Iterable[Sequence[Hashable]]]) -> int:
    """Repeated meetings over a whole schedule, each round counted against the rounds before it."""
    met: dict = {}
    repeats = 0
    for tables in rounds:
        for table in tables:
            for a, b in combinations(table, 2):
                key = pair(a, b)
                repeats += 1 if met.get(key) else 0
                met[key] = met.get(key, 0) + 1
    return repeats


def repeat_lower_bound(player_count: int, table_sizes_per_round: Sequence[int]) -> int:
    """``ceil(N * max(0, sum(K - 1) - (N - 1)) / 2)``, with K the event's table size in each round.

    Each player meets ``K - 1`` others a round but has only ``N - 1`` to meet; every meeting beyond
    that is a repeat, and each repeat is shared by two players. With short tables in a round this is
    the figure the spec asks for, not a strict bound.
    """
    excess = sum(size - 1 for size in table_sizes_per_round) - (player_count - 1)
    return -(-player_count * max(0, excess) // 2)


@dataclass(frozen=True)
class SeatingQuality:
    """Repeats of a new round and of the event so far, with the lower bound for comparison."""

    repeats_this_round: int
    repeats_total: int
    lower_bound: int

    def summary(self) -> str:
        """One line for the organiser."""
        return (
            f"{self.repeats_this_round} repeated meeting{'s' if self.repeats_this_round != 1 else ''} this round, "
            f"{self.repeats_total} so far (at least {self.lower_bound} unavoidable)"
        )


def seating_quality(
    tables: Sequence[Sequence[Hashable]], history: Mapping | None, *, table_size: int, round_number: int
) -> SeatingQuality:
    """The quality of round ``round_number`` seated as ``tables`` after ``history``."""
    met = normalise_history(history)
    this_round = count_repeats(tables, met)
    player_count = sum(len(table) for table in tables)
    return SeatingQuality(
        repeats_this_round=this_round,
        repeats_total=history_repeats(met) + this_round,
        lower_bound=repeat_lower_bound(player_count, [table_size] * round_number),
    )
