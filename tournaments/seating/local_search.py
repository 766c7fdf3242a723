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
        self.base = base
        self.rounds = [[list(table) for table in tables] for tables in rounds]
        self.seat_table = [[0] * player_count for _ in rounds]
        most = max(base.values(), default=0) + len(rounds) + 2
        self.pen = penalties(most)
        self.join_cost = [self.pen[m + 1] - self.pen[m] for m in range(most)] + [0]
        self.leave_cost = [0] + [self.pen[m - 1] - self.pen[m] for m in range(1, most + 1)]
        self.tenure = (2, 6)
        self.stall_limit = 300
        self.shake = 4
        self.load(self.rounds)

    def load(self, rounds: list[Tables]) -> None:
        """Make ``rounds`` the current rounds and recount everything that depends on them."""
        self.rounds = [[list(table) for table in tables] for tables in rounds]
        for w, tables in enumerate(self.rounds):
            for t, table in enumerate(tables):
                for p in table:
                    self.seat_table[w][p] = t
        self.meet = meeting_matrix(self.n, self.base, self.rounds)
        self.repeated = {(a, b) for a in range(self.n) for b in range(a + 1, self.n) if self.meet[a][b] > 1}
        pen = self.pen
        self.cost = sum(pen[self.meet[a][b]] for a in range(self.n) for b in range(a + 1, self.n))

    def snapshot(self) -> list[Tables]:
        """A copy of the current rounds."""
        return [[list(table) for table in tables] for tables in self.rounds]

    def conflicts(self) -> list[tuple[int, int]]:
        """Seats (round, player) where the player sits with someone they meet more than once."""
        found = set()
        for a, b in self.repeated:
            for w, seat in enumerate(self.seat_table):
                if seat[a] == seat[b]:
                    found.add((w, a))
                    found.add((w, b))
        return sorted(found)

    def swap(self, w: int, a: int, b: int, delta: int) -> None:
        """Swap players ``a`` and ``b`` (at different tables) in round ``w``; ``delta`` is its change of cost."""
        meet, seat, repeated = self.meet, self.seat_table[w], self.repeated
        ta, tb = seat[a], seat[b]
        table_a, table_b = self.rounds[w][ta], self.rounds[w][tb]
        for leaving, joining, table in ((a, b, table_a), (b, a, table_b)):
            for x in table:
                if x == leaving:
                    continue
                meet[leaving][x] -= 1
                meet[x][leaving] -= 1
                if meet[x][leaving] == 1:
                    repeated.discard((x, leaving) if x < leaving else (leaving, x))
                meet[joining][x] += 1
                meet[x][joining] += 1
                if meet[x][joining] == 2:
                    repeated.add((x, joining) if x < joining else (joining, x))
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        seat[a], seat[b] = tb, ta
        self.cost += delta

    def run(self, max_iterations: int, deadline: float) -> list[Tables]:
        """Improve the rounds until no repeat is left, the iterations run out or the deadline passes; the best seen."""
        rng = self.rng
        best_cost, best = self.cost, self.snapshot()
        tabu = [[[0] * self.n for _ in range(self.n)] for _ in self.rounds]
        stall = 0
        for iteration in range(1, max_iterations + 1):
            conflicted = self.conflicts()
            if not conflicted:
                return self.snapshot()
            if iteration % 64 == 0 and time.monotonic() > deadline:
                break
            if len(conflicted) > MAX_CANDIDATES:
                conflicted = rng.sample(conflicted, MAX_CANDIDATES)
            move, delta = self.best_move(conflicted, tabu, iteration, best_cost)
            if move is None:
                continue
            w, a, b = move
            self.swap(w, a, b, delta)
            tabu[w][a][b] = tabu[w][b][a] = iteration + rng.randint(*self.tenure)
            if self.cost < best_cost:
                best_cost, best = self.cost, self.snapshot()
                stall = 0
            else:
                stall += 1
            if stall > self.stall_limit:
                self.restart_near(best)
                stall = 0
        return best

    def best_move(
        self, conflicted: list[tuple[int, int]], tabu: list[list[list[int]]], iteration: int, best_cost: int
    ) -> tuple[tuple[int, int, int] | None, int]:
        """The best allowed swap from a conflicted seat, ties broken at random, and its change of cost."""
        rng, meet, join_cost, leave_cost = self.rng, self.meet, self.join_cost, self.leave_cost
        aspiration = best_cost - self.cost
        leave_by_round: dict[int, list[int]] = {}
        best_move, best_delta, ties = None, 0, 0
        for w, a in conflicted:
            tables, seat, tabu_a = self.rounds[w], self.seat_table[w], tabu[w][a]
            leave = leave_by_round.get(w)
            if leave is None:
                leave = leave_by_round[w] = self.leave_costs(w)
            ta = seat[a]
            row_a = meet[a]
            others_a = [x for x in tables[ta] if x != a]
            base_a = leave[a]
            for tb, table_b in enumerate(tables):
                if tb == ta:
                    continue
                join_a = base_a
                for y in table_b:
                    join_a += join_cost[row_a[y]]
                for b in table_b:
                    row_b = meet[b]
                    delta = join_a + leave[b] - join_cost[row_a[b]]
                    for x in others_a:
                        delta += join_cost[row_b[x]]
                    if tabu_a[b] > iteration and delta >= aspiration:
                        continue
                    if best_move is None or delta < best_delta:
                        best_move, best_delta, ties = (w, a, b), delta, 1
                    elif delta == best_delta:
                        ties += 1
                        if rng.randrange(ties) == 0:
                            best_move = (w, a, b)
        return best_move, best_delta

    def leave_costs(self, w: int) -> list[int]:
        """Change of cost when each player leaves their table in round ``w``."""
        meet, leave_cost = self.meet, self.leave_cost
        leave = [0] * self.n
        for table in self.rounds[w]:
            for p in table:
                row = meet[p]
                leave[p] = sum(leave_cost[row[x]] for x in table if x != p)
        return leave

    def restart_near(self, best: list[Tables]) -> None:
        """Go back to the best rounds and shake them with a few random swaps."""
        rng = self.rng
        self.load(best)
        for _ in range(self.shake):
            w = rng.randrange(len(self.rounds))
            tables = self.rounds[w]
            if len(tables) < 2:
                continue
            ta, tb = rng.sample(range(len(tables)), 2)
            self.swap(w, rng.choice(tables[ta]), rng.choice(tables[tb]), 0)
        self.load(self.rounds)
