"""Table sizes for a round and the helpers that cut a player list into tables."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import TypeVar

P = TypeVar("P", bound=Hashable)


def plan_table_sizes(player_count: int, table_size: int, min_size: int) -> list[int]:
    """Tables of ``table_size`` and, when the count does not divide, of ``table_size - 1``; largest first.

    Uses as few short tables as possible. Raises ValueError when the players cannot be seated that way
    without a table below ``min_size``.
    """
    if table_size < 1 or min_size < 1:
        raise ValueError(f"Table size and minimum table size must be at least 1 (got {table_size} and {min_size}).")
    if min_size > table_size:
        raise ValueError(f"The minimum table size {min_size} is larger than the table size {table_size}.")
    if player_count < 0:
        raise ValueError(f"The player count cannot be negative (got {player_count}).")
    if player_count == 0:
        return []
    short_tables = -player_count % table_size
    short_size = table_size - 1
    if short_tables and (short_size < min_size or short_tables * short_size > player_count):
        raise ValueError(
            f"{player_count} players cannot be seated at tables of {table_size}"
            + (f" or {short_size}" if short_size >= min_size else "")
            + f" with at least {min_size} players a table."
        )
    full_tables = (player_count - short_tables * short_size) // table_size
    return [table_size] * full_tables + [short_size] * short_tables


def split_into_tables(players: Sequence[P], sizes: Sequence[int]) -> list[list[P]]:
    """Consecutive slices of ``players`` with the given sizes."""
    if sum(sizes) != len(players):
        raise ValueError(f"Table sizes {list(sizes)} do not add up to {len(players)} players.")
    tables: list[list[P]] = []
    start = 0
    for size in sizes:
        tables.append(list(players[start : start + size]))
        start += size
    return tables


def canonical_order(players: Iterable[P]) -> list[P]:
    """The players sorted (by ``repr`` when their ids cannot be compared), so results do not depend on input order."""
    players = list(players)
    try:
        return sorted(players)  # type: ignore[type-var]
    except TypeError:
        return sorted(players, key=repr)
