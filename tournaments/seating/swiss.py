"""Swiss seating: players of similar standing play each other, avoiding repeat opponents where possible."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

from .history import normalise_history, pair
from .tables import split_into_tables

P = TypeVar("P", bound=Hashable)

TABU_ITERATIONS_PER_TABLE = 40
"""Length of the search for fewer repeats once no single swap removes one, per table."""

TABU_TENURE = 7


def swiss_seating(standings: Sequence[P], sizes: Sequence[int], history: Mapping | None) -> list[list[P]]:
    """Tables filled in standings order (best first), then changed by swaps to the fewest repeat opponents.

    First each step makes the swap that removes repeats between the nearest tables, and among those the
    one that moves the two players least in the standings. When no single swap removes a repeat, a
    short tabu search looks for fewer repeats, then for players nearer their own table.
    """
    if len(set(standings)) != len(standings):
        raise ValueError("A player appears twice in the standings.")
    met = normalise_history(history)
    rank = {player: i for i, player in enumerate(standings)}
    tables = split_into_tables(list(standings), sizes)
    while (swap := best_swap(tables, met, rank)) is not None:
        apply_swap(tables, swap)
    if any(table_repeats(table, met) for table in tables):
        tables = tabu_search(tables, met, sizes)
    return [sorted(table, key=rank.__getitem__) for table in tables]


def best_swap(tables: list[list[P]], met: Mapping, rank: Mapping[P, int]) -> tuple[int, P, int, P] | None:
    """``(table, player, other table, other player)`` of the best repeat-removing swap, or None."""
    for distance in range(1, len(tables)):
        best, best_key = None, None
        for i in range(len(tables) - distance):
            j = i + distance
            for a in tables[i]:
                for b in tables[j]:
                    gain = swap_gain(tables[i], a, tables[j], b, met)
                    if gain > 0:
                        key = (abs(rank[a] - rank[b]), -gain, rank[a], rank[b])
                        if best_key is None or key < best_key:
                            best, best_key = (i, a, j, b), key
        if best is not None:
            return best
    return None


def tabu_search(tables: list[list[P]], met: Mapping, sizes: Sequence[int]) -> list[list[P]]:
    """Swaps that may pass through worse seatings, minimising (repeats, how far players sit from their own table)."""
    home = {player: t for t, table in enumerate(tables) for player in table}
    tables = [list(table) for table in tables]

    def cost(seating: list[list[P]]) -> tuple[int, int]:
        repeats = sum(table_repeats(table, met) for table in seating)
        return repeats, sum(abs(t - home[p]) for t, table in enumerate(seating) for p in table)

    current = best_cost = cost(tables)
    best = [list(table) for table in tables]
    tabu: dict[frozenset, int] = {}
    for iteration in range(TABU_ITERATIONS_PER_TABLE * len(sizes)):
        move, move_cost = None, None
        for i, table in enumerate(tables):
            conflicted = [a for a in table if any(b != a and met.get(pair(a, b)) for b in table)]
            for a in conflicted:
                for j, other in enumerate(tables):
                    if j == i:
                        continue
                    for b in other:
                        gain = swap_gain(table, a, other, b, met)
                        shift = abs(j - home[a]) + abs(i - home[b]) - abs(i - home[a]) - abs(j - home[b])
                        candidate = (current[0] - gain, current[1] + shift)
                        if tabu.get(frozenset((a, b)), -1) >= iteration and candidate >= best_cost:
                            continue
                        if move_cost is None or candidate < move_cost:
                            move, move_cost = (i, a, j, b), candidate
        if move is None or move_cost is None:
            break
        apply_swap(tables, move)
        tabu[frozenset((move[1], move[3]))] = iteration + TABU_TENURE
        current = move_cost
        if current < best_cost:
            best_cost, best = current, [list(table) for table in tables]
            if best_cost[0] == 0:
                break
    return best


def apply_swap(tables: list[list[P]], swap: tuple[int, P, int, P]) -> None:
    """Exchange two players of different tables."""
    i, a, j, b = swap
    tables[i][tables[i].index(a)] = b
    tables[j][tables[j].index(b)] = a


def table_repeats(table: list[P], met: Mapping) -> int:
    """Pairs at ``table`` who met before."""
    return sum(1 for k, a in enumerate(table) for b in table[k + 1 :] if met.get(pair(a, b)))


def swap_gain(table_a: list[P], a: P, table_b: list[P], b: P, met: Mapping) -> int:
    """How many fewer repeat pairs there are after ``a`` and ``b`` change tables."""

    def repeats(player: P, others: list[P], leaving: P) -> int:
        return sum(1 for other in others if other != leaving and met.get(pair(player, other)))

    before = repeats(a, table_a, a) + repeats(b, table_b, b)
    after = repeats(b, table_a, a) + repeats(a, table_b, b)
    return before - after
