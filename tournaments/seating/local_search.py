"""Tabu search for several rounds at once that repeat as few earlier meetings as possible.

Players are indices ``0..n-1``. A move swaps two players of different tables in one round, chosen
among the players who sit with someone they meet more than once (as in Dotú and Van Hentenryck's
search for the social golfer problem). Table sizes never change.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

Tables = list[list[int]]

REPEAT_PENALTY = 16
"""Cost of one repeated meeting; meeting the same player a third time costs a little more than twice a second."""

REPACK_NODES = 2_000
"""Tables tried by one exact attempt to reseat a whole round."""

MAX_CANDIDATES = 48
"""At most this many conflicted seats are tried as the first half of a swap in one iteration."""

ATTEMPT_WORK = 3_000_000
"""Swaps evaluated by one attempt from a fresh start at most (about a second)."""

URGENCY = 2
"""A repeat in the first searched round costs this many repeats more than one in a later round: the first
round is the one returned now, later ones are searched again when their turn comes."""

MAX_ATTEMPTS = 8
"""Fresh starts at most (small events make cheap iterations, so work alone would allow very many)."""

PATIENCE = 2_000
"""An attempt ends after this many iterations without improvement."""

TABU_TENURE = (2, 6)
"""A swap may not be undone for a random number of iterations in this range."""

STALL_LIMIT = 300
"""After this many iterations without a new best, go back to the best and reseat or shake it."""

SHAKE_SWAPS = 4
"""Random swaps that shake the best rounds when the search stalls."""


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
        add_meetings(meet, tables)
    return meet


def add_meetings(meet: list[list[int]], tables: Tables) -> None:
    """Count the meetings of one round in ``meet``."""
    for table in tables:
        for a, b in combinations(table, 2):
            meet[a][b] += 1
            meet[b][a] += 1


def greedy_round(player_count: int, sizes: list[int], meet: list[list[int]], rng: random.Random) -> Tables:
    """One round built player by player (in random order), each at the open table of players they met least,
    the fullest such table first."""
    order = list(range(player_count))
    rng.shuffle(order)
    tables: Tables = [[] for _ in sizes]
    for p in order:
        row = meet[p]
        best_cost, best = None, 0
        for t, table in enumerate(tables):
            if len(table) < sizes[t]:
                cost = (sum(row[x] for x in table), -len(table), rng.random())
                if best_cost is None or cost < best_cost:
                    best_cost, best = cost, t
        tables[best].append(p)
    return tables


def search_rounds(
    player_count: int,
    sizes: list[int],
    base: dict[tuple[int, int], int],
    rounds: int,
    rng: random.Random,
    deadline: float,
    *,
    effort: int,
    start: Sequence[Tables] = (),
) -> list[Tables]:
    """``rounds`` rounds after the meetings ``base`` with as few repeats as the search finds.

    Each attempt starts from the ``start`` rounds plus greedy ones and runs a tabu search; attempts
    repeat until one reaches the fewest repeats possible, ``effort`` swaps have been evaluated,
    ``MAX_ATTEMPTS`` attempts were made or ``deadline`` passed. If it passes before the first attempt's rounds are
    built, the rounds built so far (at least one) are returned as they are.
    """
    floor = repeat_floor(player_count, sizes, base, rounds)
    best: list[Tables] = []
    best_cost = None
    for attempt in range(MAX_ATTEMPTS):
        if attempt and (effort <= 0 or time.monotonic() > deadline):
            break
        schedule = greedy_schedule(player_count, sizes, base, rounds, start, rng, deadline)
        if len(schedule) < rounds:
            return best or schedule
        search = ScheduleSearch(player_count, base, schedule, rng)
        found = search.run(min(effort, ATTEMPT_WORK), PATIENCE, deadline, floor)
        effort -= max(1, search.work)
        if best_cost is None or search.best_cost < best_cost:
            best, best_cost = found, search.best_cost
        if search.best_repeats <= floor:
            break
    return best


def greedy_schedule(
    player_count: int,
    sizes: list[int],
    base: dict[tuple[int, int], int],
    rounds: int,
    start: Sequence[Tables],
    rng: random.Random,
    deadline: float,
) -> list[Tables]:
    """The ``start`` rounds followed by greedy ones, ``rounds`` in all; fewer (but one at least) past ``deadline``."""
    schedule = [[list(table) for table in tables] for tables in start]
    meet = meeting_matrix(player_count, base, schedule)
    while len(schedule) < rounds and not (schedule and time.monotonic() > deadline):
        tables = greedy_round(player_count, sizes, meet, rng)
        add_meetings(meet, tables)
        schedule.append(tables)
    return schedule


def repeat_floor(player_count: int, sizes: list[int], base: dict[tuple[int, int], int], rounds: int) -> int:
    """Repeats that ``rounds`` rounds of these table sizes must add after ``base``: meetings beyond the unmet pairs."""
    meetings = rounds * sum(size * (size - 1) // 2 for size in sizes)
    unmet = player_count * (player_count - 1) // 2 - sum(1 for count in base.values() if count)
    return max(0, meetings - unmet)


class ScheduleSearch:
    """Tabu search state: the rounds being improved on top of fixed earlier meetings."""

    def __init__(self, player_count: int, base: dict[tuple[int, int], int], rounds: list[Tables], rng: random.Random):
        self.n = player_count
        self.rng = rng
        self.base = base
        self.base_repeats = sum(count - 1 for count in base.values() if count > 1)
        self.rounds = [[list(table) for table in tables] for tables in rounds]
        self.seat_table = [[0] * player_count for _ in rounds]
        most = max(base.values(), default=0) + len(rounds) + 2
        self.pen = penalties(most)
        self.join_cost = [self.pen[m + 1] - self.pen[m] for m in range(most)] + [0]
        self.leave_cost = [0] + [self.pen[m - 1] - self.pen[m] for m in range(1, most + 1)]
        self.urgent = [[0] * player_count for _ in range(player_count)]
        for (a, b), count in base.items():
            if count:
                self.urgent[a][b] = self.urgent[b][a] = URGENCY * REPEAT_PENALTY
        self.load(self.rounds)

    def load(self, rounds: list[Tables]) -> None:
        """Make ``rounds`` the current rounds and recount everything that depends on them."""
        self.rounds = [[list(table) for table in tables] for tables in rounds]
        for w, tables in enumerate(self.rounds):
            for t, table in enumerate(tables):
                for p in table:
                    self.seat_table[w][p] = t
        self.meet = meeting_matrix(self.n, self.base, self.rounds)
        self.leave = [self.leave_costs(w) for w in range(len(self.rounds))]
        self.repeated = {(a, b) for a in range(self.n) for b in range(a + 1, self.n) if self.meet[a][b] > 1}
        self.repeats = sum(self.meet[a][b] - 1 for a, b in self.repeated) - self.base_repeats
        pen = self.pen
        self.cost = sum(pen[self.meet[a][b]] for a in range(self.n) for b in range(a + 1, self.n))
        if self.rounds:
            self.cost += sum(self.urgent[a][b] for table in self.rounds[0] for a, b in combinations(table, 2))

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
        seat = self.seat_table[w]
        ta, tb = seat[a], seat[b]
        table_a, table_b = self.rounds[w][ta], self.rounds[w][tb]
        for leaving, joining, table in ((a, b, table_a), (b, a, table_b)):
            for x in table:
                if x != leaving:
                    self.add_meeting(leaving, x, -1)
                    self.add_meeting(joining, x, 1)
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        seat[a], seat[b] = tb, ta
        self.leave[w] = self.leave_costs(w)
        self.cost += delta

    def add_meeting(self, u: int, v: int, change: int) -> None:
        """Change the meeting count of ``u`` and ``v`` by ``change`` (+1 or -1) and what depends on it."""
        meet, leave_cost = self.meet, self.leave_cost
        old = meet[u][v]
        new = meet[u][v] = meet[v][u] = old + change
        if old > 1 >= new:
            self.repeated.discard((u, v) if u < v else (v, u))
        elif new > 1 >= old:
            self.repeated.add((u, v) if u < v else (v, u))
        self.repeats += max(0, new - 1) - max(0, old - 1)
        step = leave_cost[new] - leave_cost[old]
        for seat, leave in zip(self.seat_table, self.leave, strict=True):
            if seat[u] == seat[v]:
                leave[u] += step
                leave[v] += step

    def run(self, max_work: int, patience: int, deadline: float, floor: int = 0) -> list[Tables]:
        """The best rounds seen, searching until they repeat only ``floor`` meetings, ``max_work`` swaps have
        been evaluated, ``patience`` iterations passed without improvement, or ``deadline`` (monotonic) is reached."""
        rng = self.rng
        best, self.best_cost, self.best_repeats, self.iterations = self.snapshot(), self.cost, self.repeats, 0
        self.work = 0
        if all(len(tables) < 2 for tables in self.rounds):
            return best
        tabu = [[[0] * self.n for _ in range(self.n)] for _ in self.rounds]
        stall = improved = 0
        iteration = 0
        while self.work < max_work:
            iteration += 1
            self.iterations = iteration
            if self.best_repeats <= floor or iteration - improved > patience or time.monotonic() > deadline:
                break
            conflicted = self.conflicts()
            if len(conflicted) > MAX_CANDIDATES:
                conflicted = rng.sample(conflicted, MAX_CANDIDATES)
            move, delta = self.best_move(conflicted, tabu, iteration, self.best_cost)
            if move is not None:
                w, a, b = move
                self.swap(w, a, b, delta)
                tabu[w][a][b] = tabu[w][b][a] = iteration + rng.randint(*TABU_TENURE)
            stall += 1
            if stall > STALL_LIMIT:
                self.load(best)
                if not self.repack_conflicted_round(deadline):
                    self.shake_up()
                stall = 0
            if self.cost < self.best_cost or (self.cost == self.best_cost and self.repeats < self.best_repeats):
                best, self.best_cost, self.best_repeats = self.snapshot(), self.cost, self.repeats
                stall, improved = 0, iteration
        return best

    def best_move(
        self, conflicted: list[tuple[int, int]], tabu: list[list[list[int]]], iteration: int, best_cost: int
    ) -> tuple[tuple[int, int, int] | None, int]:
        """The best allowed swap from a conflicted seat, ties broken at random, and its change of cost."""
        rng, meet, join_cost = self.rng, self.meet, self.join_cost
        aspiration = best_cost - self.cost
        best_move, best_delta, ties = None, 0, 0
        for w, a in conflicted:
            tables, seat, tabu_a = self.rounds[w], self.seat_table[w], tabu[w][a]
            leave = self.leave[w]
            ta = seat[a]
            row_a = meet[a]
            others_a = [x for x in tables[ta] if x != a]
            urgent_a = self.urgent[a]
            base_a = leave[a]
            self.work += self.n - len(others_a) - 1
            for tb, table_b in enumerate(tables):
                if tb == ta:
                    continue
                join_a = base_a
                for y in table_b:
                    join_a += join_cost[row_a[y]]
                if w == 0:
                    join_a += sum(urgent_a[y] for y in table_b)
                for b in table_b:
                    row_b = meet[b]
                    delta = join_a + leave[b] - join_cost[row_a[b]]
                    for x in others_a:
                        delta += join_cost[row_b[x]]
                    if w == 0:
                        urgent_b = self.urgent[b]
                        delta += sum(urgent_b[x] for x in others_a) - urgent_a[b]
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
                if w == 0:
                    leave[p] -= sum(self.urgent[p][x] for x in table)
        return leave

    def repack_conflicted_round(self, deadline: float) -> bool:
        """Reseat one round that has a repeat so that it has none, if a short exact search finds a way before
        ``deadline``."""
        rounds = sorted({w for w, _ in self.conflicts()})
        self.rng.shuffle(rounds)
        for w in rounds:
            if time.monotonic() > deadline:
                return False
            tables = repack_round(self.allowed_partners(w), [len(t) for t in self.rounds[w]], REPACK_NODES)
            if tables is not None:
                self.rounds[w] = tables
                self.load(self.rounds)
                return True
        return False

    def allowed_partners(self, w: int) -> list[int]:
        """For each player, the bit set of players they never meet outside round ``w``."""
        meet, seat = self.meet, self.seat_table[w]
        allowed = []
        for p in range(self.n):
            row = meet[p]
            mask = 0
            for q in range(self.n):
                if q != p and row[q] == (1 if seat[q] == seat[p] else 0):
                    mask |= 1 << q
            allowed.append(mask)
        return allowed

    def shake_up(self) -> None:
        """Shake the current rounds with a few random swaps."""
        rng = self.rng
        for _ in range(SHAKE_SWAPS):
            w = rng.randrange(len(self.rounds))
            tables = self.rounds[w]
            if len(tables) < 2:
                continue
            ta, tb = rng.sample(range(len(tables)), 2)
            self.swap(w, rng.choice(tables[ta]), rng.choice(tables[tb]), 0)
        self.load(self.rounds)


def repack_round(allowed: list[int], sizes: list[int], node_limit: int) -> Tables | None:
    """Tables of the given sizes in which every two players are allowed partners (bit sets), or None.

    Depth-first: the unseated player with the fewest allowed partners left is seated first.
    """
    nodes = 0
    size_left = Counter(sizes)

    def seat_all(unseated: int) -> Tables | None:
        nonlocal nodes
        if not unseated:
            return []
        p = min(bits(unseated), key=lambda q: (allowed[q] & unseated).bit_count())
        for size in sorted(size_left, reverse=True):
            if not size_left[size]:
                continue
            size_left[size] -= 1
            for table in cliques(p, allowed[p] & unseated, size - 1):
                nodes += 1
                if nodes > node_limit:
                    break
                rest = seat_all(unseated & ~sum(1 << q for q in table))
                if rest is not None:
                    size_left[size] += 1
                    return [table, *rest]
            size_left[size] += 1
            if nodes > node_limit:
                return None
        return None

    def cliques(p: int, candidates: int, more: int) -> Iterator[list[int]]:
        if more == 0:
            yield [p]
            return
        for q in bits(candidates):
            for rest in cliques(p, candidates & allowed[q] & ~((2 << q) - 1), more - 1):
                yield [*rest, q]

    return seat_all((1 << len(allowed)) - 1)


def bits(mask: int) -> Iterator[int]:
    """The positions of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
