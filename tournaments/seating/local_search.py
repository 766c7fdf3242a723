"""Tabu search for several rounds at once that repeat as few earlier meetings as possible.

Players are indices ``0..n-1``. A move swaps two players of different tables in one round, chosen
among the players who sit with someone they meet more than once (as in Dotú and Van Hentenryck's
search for the social golfer problem). Table sizes never change.
"""

from __future__ import annotations

import random
import time
from itertools import combinations

Tables = list[list[int]]

REPEAT_PENALTY = 16
"""Cost of one repeated meeting; meeting the same player a third time costs a little more than twice a second."""

MAX_CANDIDATES = 48
"""At most this many conflicted seats are tried as the first half of a swap in one iteration."""


def penalties(max_count: int) -> list[int]:
    """Cost of a pair that met ``m`` times, for ``m`` up to ``max_count``."""
    return [REPEAT_PENALTY * max(0, m - 1) + m * (m - 1) // 2 for m in range(max_count + 1)]


def meeting_matrix(player_count: int, base: dict[tuple[int, int], int], rounds: list[Tables]) -> list[list[int]]:
    """Symmetric matrix of meeting counts: ``base`` plus the meetings of ``rounds``."""
    meet = [[0] * player_count for _ in range(player_count)]
    for (a, b), count in base.items():
        meet[a][b] += count
        meet[b][a] += count
    for tables in rounds:
        for table in tables:
            for a, b in combinations(table, 2):
                meet[a][b] += 1
                meet[b][a] += 1
    return meet


def greedy_round(player_count: int, sizes: list[int], meet: list[list[int]], rng: random.Random) -> Tables:
    """One round built player by player, each at the open table where they add the least cost."""
    order = list(range(player_count))
    rng.shuffle(order)
    tables: Tables = [[] for _ in sizes]
    for p in order:
        row = meet[p]
        best_cost, best = None, 0
        for t, table in enumerate(tables):
            if len(table) < sizes[t]:
                cost = (sum(row[x] for x in table) * 8 - len(table), rng.random())
                if best_cost is None or cost < best_cost:
                    best_cost, best = cost, t
        tables[best].append(p)
    return tables


class ScheduleSearch:
    """Tabu search state: the rounds being improved on top of fixed earlier meetings."""

    def __init__(self, player_count: int, base: dict[tuple[int, int], int], rounds: list[Tables], rng: random.Random):
        self.n = player_count
        self.rng = rng
        self.rounds = [[list(table) for table in tables] for tables in rounds]
        self.base = base
        self.meet = meeting_matrix(player_count, base, self.rounds)
        most = max((max(row) for row in self.meet), default=0)
        self.pen = penalties(most + len(rounds) + 2)
        self.seat_table = [[0] * player_count for _ in rounds]
        for w, tables in enumerate(self.rounds):
            for t, table in enumerate(tables):
                for p in table:
                    self.seat_table[w][p] = t
        self.cost = self.total_cost()
        self.tenure = (3, 12)
        self.stall_limit = 40 + 4 * player_count
        self.shake = max(2, player_count // 8)

    def total_cost(self) -> int:
        """Cost of every pair that met, over the fixed and the searched rounds."""
        pen = self.pen
        return sum(pen[self.meet[a][b]] for a in range(self.n) for b in range(a + 1, self.n))

    def conflicts(self) -> list[tuple[int, int]]:
        """Seats (round, player) where the player sits with someone they meet more than once."""
        found = []
        meet = self.meet
        for w, tables in enumerate(self.rounds):
            for table in tables:
                for p in table:
                    row = meet[p]
                    if any(row[x] > 1 for x in table if x != p):
                        found.append((w, p))
        return found

    def swap(self, w: int, a: int, b: int) -> None:
        """Swap players ``a`` and ``b`` (at different tables) in round ``w``."""
        meet, seat = self.meet, self.seat_table[w]
        ta, tb = seat[a], seat[b]
        table_a, table_b = self.rounds[w][ta], self.rounds[w][tb]
        for x in table_a:
            if x != a:
                meet[a][x] -= 1
                meet[x][a] -= 1
                meet[b][x] += 1
                meet[x][b] += 1
        for y in table_b:
            if y != b:
                meet[b][y] -= 1
                meet[y][b] -= 1
                meet[a][y] += 1
                meet[y][a] += 1
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        seat[a], seat[b] = tb, ta

    def swap_delta(self, w: int, a: int, b: int) -> int:
        """Change of cost if ``a`` and ``b`` swapped tables in round ``w``."""
        pen, meet, seat = self.pen, self.meet, self.seat_table[w]
        row_a, row_b = meet[a], meet[b]
        delta = 0
        for x in self.rounds[w][seat[a]]:
            if x != a:
                delta += pen[row_b[x] + 1] - pen[row_b[x]] + pen[row_a[x] - 1] - pen[row_a[x]]
        for y in self.rounds[w][seat[b]]:
            if y != b:
                delta += pen[row_a[y] + 1] - pen[row_a[y]] + pen[row_b[y] - 1] - pen[row_b[y]]
        return delta

    def run(self, max_iterations: int, deadline: float) -> list[Tables]:
        """Improve the rounds until no repeat is left, the iterations run out or the deadline passes; the best seen."""
        rng = self.rng
        best_cost, best = self.cost, [[list(t) for t in tables] for tables in self.rounds]
        tabu = [[[0] * self.n for _ in range(self.n)] for _ in self.rounds]
        stall = 0
        stall_limit = self.stall_limit
        for iteration in range(1, max_iterations + 1):
            conflicted = self.conflicts()
            if not conflicted:
                return [[list(t) for t in tables] for tables in self.rounds]
            if iteration % 64 == 0 and time.monotonic() > deadline:
                break
            if len(conflicted) > MAX_CANDIDATES:
                conflicted = rng.sample(conflicted, MAX_CANDIDATES)
            move, move_delta, ties = self.best_move(conflicted, tabu, iteration, best_cost)
            if move is None:
                continue
            w, a, b = move
            self.swap(w, a, b)
            self.cost += move_delta
            tabu[w][a][b] = tabu[w][b][a] = iteration + rng.randint(*self.tenure)
            if self.cost < best_cost:
                best_cost, best = self.cost, [[list(t) for t in tables] for tables in self.rounds]
                stall = 0
            else:
                stall += 1
            if stall > stall_limit:
                self.restart_near(best)
                stall = 0
        return best

    def best_move(
        self, conflicted: list[tuple[int, int]], tabu: list[list[list[int]]], iteration: int, best_cost: int
    ) -> tuple[tuple[int, int, int] | None, int, int]:
        """The best allowed swap from a conflicted seat (ties broken at random): move, delta, ties."""
        rng, pen, meet = self.rng, self.pen, self.meet
        best_move, best_delta, ties = None, 0, 0
        for w, a in conflicted:
            tables, seat, tabu_a = self.rounds[w], self.seat_table[w], tabu[w][a]
            ta = seat[a]
            table_a = tables[ta]
            row_a = meet[a]
            leave_a = sum(pen[row_a[x] - 1] - pen[row_a[x]] for x in table_a if x != a)
            others_a = [x for x in table_a if x != a]
            for tb, table_b in enumerate(tables):
                if tb == ta:
                    continue
                join_a = sum(pen[row_a[y] + 1] - pen[row_a[y]] for y in table_b)
                for b in table_b:
                    row_b = meet[b]
                    delta = leave_a + join_a - (pen[row_a[b] + 1] - pen[row_a[b]])
                    for x in others_a:
                        m = row_b[x]
                        delta += pen[m + 1] - pen[m]
                    for y in table_b:
                        if y != b:
                            m = row_b[y]
                            delta += pen[m - 1] - pen[m]
                    if tabu_a[b] > iteration and self.cost + delta >= best_cost:
                        continue
                    if best_move is None or delta < best_delta:
                        best_move, best_delta, ties = (w, a, b), delta, 1
                    elif delta == best_delta:
                        ties += 1
                        if rng.randrange(ties) == 0:
                            best_move = (w, a, b)
        return best_move, best_delta, ties

    def restart_near(self, best: list[Tables]) -> None:
        """Go back to the best rounds and shake them with a few random swaps."""
        rng = self.rng
        for w, tables in enumerate(best):
            self.rounds[w] = [list(t) for t in tables]
            for t, table in enumerate(tables):
                for p in table:
                    self.seat_table[w][p] = t
        self.meet = meeting_matrix(self.n, self.base, self.rounds)
        for _ in range(self.shake):
            w = rng.randrange(len(self.rounds))
            tables = self.rounds[w]
            if len(tables) < 2:
                continue
            ta, tb = rng.sample(range(len(tables)), 2)
            self.swap(w, rng.choice(tables[ta]), rng.choice(tables[tb]))
        self.cost = self.total_cost()
