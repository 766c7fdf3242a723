"""How good a seating is: repeated meetings, and how many of them no seating at the same tables could avoid."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from .history import History, meetings_of_rounds, normalise_history, pair
from .tables import plan_table_sizes


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


def repeat_lower_bound(player_count: int, table_sizes_per_round: Sequence[int | Sequence[int]]) -> int:
    """The fewest repeated meetings any seating of ``player_count`` players at these tables can have, at least.

    Each round gives its table sizes, or one table size ``K`` for the app's tables: of ``K``, and of ``K - 1`` where
    the count does not divide. The same players play every round; see ``unavoidable_repeats``.
    """
    players = list(range(player_count))
    rounds = []
    for sizes in table_sizes_per_round:
        if isinstance(sizes, int):
            sizes = plan_table_sizes(player_count, sizes, 1)
        if sum(sizes) != player_count:
            raise ValueError(f"Table sizes {list(sizes)} do not add up to {player_count} players.")
        starts = [sum(sizes[:i]) for i in range(len(sizes))]
        rounds.append([players[start : start + size] for start, size in zip(starts, sizes)])
    return unavoidable_repeats(rounds)


def unavoidable_repeats(rounds: Sequence[Sequence[Sequence[Hashable]]]) -> int:
    """A lower bound on the repeated meetings of every schedule that seats each round's players at tables of that
    round's sizes (who sits where is free; who plays which round is not). The larger of two counts:

    - per player: in the rounds they play they meet at least ``low`` and at most ``high`` opponents (their round's
      smallest and largest tables), but only the players present in one of their rounds are new to them; each
      meeting beyond that is a repeat, shared by two players. The meetings of all players add up to a fixed total,
      so the count spends them first where they repeat nothing;
    - per pair of rounds in a row with the same players: however the later round is seated, some of its tables
      hold two players who shared a table in the round before, at least as many pairs as ``least_overlap`` says; the
      first rounds can instead be counted per player, and the larger sum is kept.
    """
    shapes = [[len(table) for table in tables if table] for tables in rounds]
    present = [frozenset(p for table in tables for p in table) for tables in rounds]
    best = 0
    forced_later = 0
    for end in range(len(rounds), 0, -1):
        best = max(best, per_player_bound(shapes[:end], present[:end]) + forced_later)
        if end > 1 and present[end - 1] == present[end - 2]:
            forced_later += least_overlap(tuple(sorted(shapes[end - 2])), tuple(sorted(shapes[end - 1])))
    return max(best, forced_later)


def per_player_bound(shapes: Sequence[Sequence[int]], present: Sequence[frozenset]) -> int:
    """``ceil(least excess / 2)``: meetings beyond each player's possible opponents, spread as thinly as possible."""
    if not shapes:
        return 0
    low: dict[Hashable, int] = {}
    high: dict[Hashable, int] = {}
    others: dict[Hashable, set] = {}
    for sizes, players in zip(shapes, present):
        for player in players:
            low[player] = low.get(player, 0) + min(sizes) - 1
            high[player] = high.get(player, 0) + max(sizes) - 1
            others.setdefault(player, set()).update(players)
    meetings = sum(size * (size - 1) for sizes in shapes for size in sizes)
    excess = sum(max(0, low[p] - (len(others[p]) - 1)) for p in low)
    spare = meetings - sum(low.values())
    room = sum(max(0, min(high[p], len(others[p]) - 1) - low[p]) for p in low)
    excess += max(0, spare - room)
    return -(-excess // 2)


@lru_cache(maxsize=256)
def least_overlap(before: tuple[int, ...], after: tuple[int, ...]) -> int:
    """The fewest pairs that share a table in both of two rounds of the same players at tables of these sizes.

    The smallest sum of ``x * (x - 1) / 2`` over the numbers ``x`` of players going from each table of ``before`` to
    each table of ``after``: players are sent one at a time along the cheapest way, moving earlier ones if that is
    cheaper (a minimum-cost flow; sending one more player the same way costs one more pair each time).
    """
    if sum(before) != sum(after):
        raise ValueError(f"Table sizes {list(before)} and {list(after)} seat different numbers of players.")
    if fits_apart(before, after):
        return 0
    rows, cols = len(before), len(after)
    moved = [[0] * cols for _ in range(rows)]
    left_rows, left_cols = list(before), list(after)
    total = 0
    for _ in range(sum(before)):
        # Bellman-Ford over the residual network: tables of ``before`` are ("r", i), of ``after`` ("c", j).
        cost: dict[tuple[str, int], int] = {("r", i): 0 for i in range(rows) if left_rows[i]}
        came: dict[tuple[str, int], tuple[str, int] | None] = dict.fromkeys(cost)
        for _ in range(rows + cols + 1):
            changed = False
            for i in range(rows):
                if ("r", i) not in cost:
                    continue
                for j in range(cols):
                    through = cost[("r", i)] + moved[i][j]
                    if through < cost.get(("c", j), through + 1):
                        cost[("c", j)], came[("c", j)], changed = through, ("r", i), True
            for j in range(cols):
                if ("c", j) not in cost:
                    continue
                for i in range(rows):
                    if moved[i][j]:
                        through = cost[("c", j)] - (moved[i][j] - 1)
                        if through < cost.get(("r", i), through + 1):
                            cost[("r", i)], came[("r", i)], changed = through, ("c", j), True
            if not changed:
                break
        end = min((j for j in range(cols) if left_cols[j] and ("c", j) in cost), key=lambda j: cost[("c", j)])
        total += cost[("c", end)]
        left_cols[end] -= 1
        node: tuple[str, int] | None = ("c", end)
        while node is not None:
            previous = came[node]
            if previous is None:
                left_rows[node[1]] -= 1
            elif node[0] == "c":
                moved[previous[1]][node[1]] += 1
            else:
                moved[node[1]][previous[1]] -= 1
            node = previous
    return total


def fits_apart(before: Sequence[int], after: Sequence[int]) -> bool:
    """Whether no two players of a table of ``before`` need share a table of ``after`` (the Gale-Ryser test)."""
    rows = sorted(before, reverse=True)
    return all(sum(rows[:k]) <= sum(min(size, k) for size in after) for k in range(1, len(rows) + 1))


@dataclass(frozen=True)
class SeatingQuality:
    """Repeats of a new round and of the event so far, and how many of those no seating could avoid."""

    repeats_this_round: int
    repeats_total: int
    lower_bound: int


def seating_quality(
    tables: Sequence[Sequence[Hashable]], earlier_rounds: Sequence[Sequence[Sequence[Hashable]]]
) -> SeatingQuality:
    """The quality of a round seated as ``tables`` after ``earlier_rounds``, with the bound over all these rounds."""
    met = meetings_of_rounds(earlier_rounds)
    this_round = count_repeats(tables, met)
    return SeatingQuality(
        repeats_this_round=this_round,
        repeats_total=history_repeats(met) + this_round,
        lower_bound=unavoidable_repeats([*earlier_rounds, tables]),
    )
