"""Regenerate the mixer's stored schedules: tournaments/seating/known_schedules.txt.

For every player count up to 64 at tables of 3 and of 4 with more than one round known without a repeated
meeting (``BEST_KNOWN``), a schedule of that many rounds is built the way design theory builds resolvable
designs: the players are ``h`` copies of the cyclic group Z_M plus ``f`` fixed players, and each base round
is turned into ``M / q`` rounds by adding 1, 2... to every player's number (the fixed players stay), where
the base round is itself unchanged by adding multiples of ``M / q``. No pair meets twice if, for every orbit
of pairs under Z_M, the rounds cover each of its pairs at most once. OR-Tools' CP-SAT solver (a development
dependency, see requirements-dev.txt; the app never imports it) finds the base rounds as which pairs sit
together, an equivalence relation with classes of the table size; where the construction also names the pairs
that never meet, Knuth's Algorithm X finds them as an exact cover. Two cases are built otherwise: 45 players at
tables of 3 as a product of smaller Kirkman systems (``Product``), 32 at tables of 4 from the affine space AG(4, 2)
(``Lifted``).

Run from the project root: ``.venv/bin/python scripts/seating_schedules.py`` (some minutes, the largest cases a few
each; ``--only 40x4`` redoes one case and keeps the others). One worker, a fixed seed and a limit in deterministic
time (for the exact cover, a fixed order of choices) make the answers the same on every run.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Hashable
from dataclasses import astuple, dataclass
from itertools import combinations
from pathlib import Path

from ortools.sat.python import cp_model

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tournaments.seating.known_schedules import BEST_KNOWN, DATA, encode_round, known_schedule  # noqa: E402

Tables = list[list[int]]


@dataclass(frozen=True)
class Cyclic:
    """Players ``(x, level)`` for x in Z_``order`` and ``levels`` levels, then ``fixed`` players no shift moves, then
    ``rotating`` players that each shift by 1 moves on to the next, cyclically.

    ``stabilisers`` has one entry per base round: the order ``q`` of the subgroup (multiples of ``order / q``)
    that leaves the base round unchanged; the base round then gives ``order / q`` rounds. With ``multiplier``,
    the base rounds are also unchanged by multiplying every group element by it (a smaller search), every player
    moving to the next level if ``multiplier_rotates_levels`` and the fixed players moving on to the next,
    cyclically, if ``multiplier_cycles_fixed``.

    With ``partners``, pairs whose orbits are the pairs that never meet (a player's partner: at N = 2 (mod 6) at
    tables of 3 or N = 8 (mod 12) at tables of 4 everyone misses one other), the base rounds are found as an exact
    cover instead of by CP-SAT (``covered_rounds``): the search is the same, but stated exactly it is far smaller.
    """

    order: int
    levels: int
    fixed: int
    stabilisers: tuple[int, ...] = (1,)
    rotating: int = 0
    multiplier: int = 1
    multiplier_rotates_levels: bool = False
    multiplier_cycles_fixed: bool = False
    partners: tuple[tuple[int, int], ...] = ()

    @property
    def symmetric(self) -> bool:
        """Whether the base rounds have a symmetry besides the shifts."""
        return self.multiplier != 1 or self.multiplier_rotates_levels or self.multiplier_cycles_fixed

    @property
    def players(self) -> int:
        return self.order * self.levels + self.fixed + self.rotating

    @property
    def rounds(self) -> int:
        return sum(self.order // q for q in self.stabilisers)

    def shift(self, player: int, by: int) -> int:
        """``player`` with ``by`` added to its group element; fixed players stay."""
        finite = self.order * self.levels
        if player >= finite + self.fixed:
            start = finite + self.fixed
            return start + (player - start + by) % self.rotating
        if player >= finite:
            return player
        level, x = divmod(player, self.order)
        return level * self.order + (x + by) % self.order


@dataclass(frozen=True)
class Product:
    """A Kirkman triple system of ``outer * inner`` players from those of ``outer`` and of ``inner`` (odd) players.

    Each player of the outer system becomes a group of ``inner`` players ``(a, x)``, x in Z_inner. Each outer round
    gives ``inner`` rounds: a triple ``a, b, c`` becomes the tables ``(a, x), (b, x + j), (c, x + 2j)`` in round ``j``,
    so the players of two groups meet once. The inner system's rounds, played in every group at once, follow.
    """

    outer: int
    inner: int


@dataclass(frozen=True)
class Lifted:
    """32 players at tables of 4, each missing one partner (a resolvable 4-GDD of type 2^16), lifted from the affine
    space AG(4, 2): the 16 vectors x of GF(2)^4 each give the partners ``2x`` and ``2x + 1``, written (x, 0), (x, 1).

    Each of the ``directions`` is a plane through 0, given by two of its vectors; they cover every nonzero vector
    twice (two spreads). Round r splits the vectors into the 4 cosets of its plane W_r, and each coset C into two
    tables: (x, f_r(x)) and (x, 1 + f_r(x)) for x in C. Vectors x and y share a coset in exactly the two rounds r
    and s whose planes hold x + y; their four pairs of players meet once each if f_r(x) + f_r(y) differs from
    f_s(x) + f_s(y): 120 equations over GF(2) in the 160 bits f_r(x), solved by elimination (``lift_labels``).
    With every f_r linear they have no solution (a parity argument); f_r is free on each coset.
    """

    directions: tuple[tuple[int, int], ...]

    @property
    def players(self) -> int:
        return 32

    @property
    def rounds(self) -> int:
        return len(self.directions)

    def planes(self) -> list[set[int]]:
        """The planes through 0 of ``directions``, each as its four vectors."""
        return [{0, u, v, u ^ v} for u, v in self.directions]


CONSTRUCTIONS: dict[tuple[int, int], Cyclic | Product | Lifted] = {
    # tables of 3
    (9, 3): Cyclic(3, 3, 0, (1, 3)),
    (12, 3): Cyclic(4, 3, 0),
    (15, 3): Cyclic(7, 2, 1),
    (18, 3): Cyclic(4, 4, 2, (1, 1)),
    (21, 3): Cyclic(7, 3, 0, (1, 7, 7, 7)),
    (24, 3): Cyclic(11, 2, 2),
    (27, 3): Cyclic(13, 2, 1),
    (30, 3): Cyclic(14, 2, 2),
    (33, 3): Cyclic(11, 3, 0, (1, 11, 11, 11, 11, 11)),
    (36, 3): Cyclic(17, 2, 2),
    (39, 3): Cyclic(19, 2, 1, multiplier=7),
    (42, 3): Cyclic(20, 2, 2),
    (45, 3): Product(15, 3),
    (48, 3): Cyclic(23, 2, 2),
    (51, 3): Cyclic(25, 2, 1, multiplier_rotates_levels=True),
    (54, 3): Cyclic(26, 2, 2),
    (57, 3): Cyclic(7, 8, 1, (1, 1, 1, 1), multiplier=2),
    (60, 3): Cyclic(29, 2, 2, partners=((0, 29), (58, 59))),
    (63, 3): Cyclic(31, 2, 1, multiplier=5),
    # tables of 4
    (16, 4): Cyclic(5, 3, 1),
    (20, 4): Cyclic(5, 4, 0),
    (24, 4): Cyclic(7, 3, 3),
    (28, 4): Cyclic(9, 3, 1),
    (32, 4): Lifted(((1, 6), (2, 8), (3, 12), (4, 9), (5, 11), (1, 8), (2, 4), (3, 13), (5, 10), (7, 11))),
    (36, 4): Cyclic(33, 1, 0, (3,), rotating=3),
    (40, 4): Cyclic(39, 1, 1, (3,)),
    (44, 4): Cyclic(14, 3, 2, multiplier=9, multiplier_rotates_levels=True),
    (48, 4): Cyclic(15, 3, 3, multiplier_rotates_levels=True, multiplier_cycles_fixed=True),
    (52, 4): Cyclic(51, 1, 1, (3,), multiplier=4),
    (56, 4): Cyclic(18, 3, 2, multiplier=7, multiplier_rotates_levels=True),
    (60, 4): Cyclic(19, 3, 3, multiplier=7, multiplier_cycles_fixed=True),
    (64, 4): Cyclic(63, 1, 1, (3,), multiplier=4),
}
"""How each stored schedule is built; the players and rounds match ``BEST_KNOWN``.

32 at tables of 4 for 10 rounds (the social golfer problem) did not come as a ``Cyclic`` construction within the
effort spent (tried: Cyclic(10, 3, 2), Cyclic(10, 3, 0, rotating=2), Cyclic(5, 6, 2, (1, 1)), Cyclic(3, 10, 2,
(1, 1, 1, 3)), Cyclic(16, 2, 0, (2, 8)), Cyclic(8, 4, 0, (1, 4)), Cyclic(32, 1, 0, (4, 16)) and multipliers, by
CP-SAT and as exact covers); ``Lifted`` gives it at once. 60 at tables of 3 for 29 rounds, which CP-SAT did not find
as Cyclic(29, 2, 2) (nor Cyclic(58, 1, 0, (2,), rotating=2) or with multipliers), is the same construction with the
partners fixed: the exact cover takes a few hundred choices.
"""


class CyclicModel:
    """The CP-SAT model of a ``Cyclic`` construction at tables of ``table_size``."""

    def __init__(self, construction: Cyclic, table_size: int):
        self.c = construction
        self.k = table_size
        self.n = construction.players
        self.finite = construction.order * construction.levels
        self.model = cp_model.CpModel()
        self.orbit_of, self.orbit_sizes = self.pair_orbits()
        self.together: list[dict[tuple[int, int], cp_model.IntVar]] = []
        loads: dict[int, dict[int, tuple[int, cp_model.IntVar]]] = {}
        for stabiliser in construction.stabilisers:
            self.add_base_round(construction.order // stabiliser, loads)
        for orbit, terms in loads.items():
            self.model.Add(sum(weight * var for weight, var in terms.values()) <= self.orbit_sizes[orbit])

    def shifted_pair(self, a: int, b: int, by: int) -> tuple[int, int]:
        a, b = self.c.shift(a, by), self.c.shift(b, by)
        return (a, b) if a < b else (b, a)

    def multiplied(self, player: int, power: int) -> int:
        """``player`` with its group element multiplied by ``multiplier ** power`` (and its level moved on ``power``
        places if ``multiplier_rotates_levels``); fixed players move on ``power`` places if ``multiplier_cycles_fixed``;
        rotating players stay."""
        if self.finite <= player < self.finite + self.c.fixed and self.c.multiplier_cycles_fixed:
            return self.finite + (player - self.finite + power) % self.c.fixed
        if player >= self.finite:
            return player
        level, x = divmod(player, self.c.order)
        if self.c.multiplier_rotates_levels:
            level = (level + power) % self.c.levels
        return level * self.c.order + x * pow(self.c.multiplier, power, self.c.order) % self.c.order

    def images(self, a: int, b: int, shifts: int) -> set[tuple[int, int]]:
        """The pairs a base round unchanged by adding multiples of ``shifts`` (and by the multiplier) holds with
        ``(a, b)``."""
        found, todo = set(), [(a, b) if a < b else (b, a)]
        while todo:
            pair = todo.pop()
            if pair in found:
                continue
            found.add(pair)
            x, y = pair
            todo.append(self.shifted_pair(x, y, shifts))
            mx, my = self.multiplied(x, 1), self.multiplied(y, 1)
            todo.append((mx, my) if mx < my else (my, mx))
        return found

    def pair_orbits(self) -> tuple[dict[tuple[int, int], int], list[int]]:
        """Each pair's orbit under Z_M, and the orbits' sizes."""
        orbit_of: dict[tuple[int, int], int] = {}
        sizes: list[int] = []
        for a, b in combinations(range(self.n), 2):
            if (a, b) not in orbit_of:
                members = {self.shifted_pair(a, b, g) for g in range(self.c.order)}
                orbit_of.update(dict.fromkeys(members, len(sizes)))
                sizes.append(len(members))
        return orbit_of, sizes

    def add_base_round(self, shifts: int, loads: dict) -> None:
        """One base round, unchanged by adding multiples of ``shifts``, used with the shifts ``0..shifts-1``."""
        model, n = self.model, self.n
        together: dict[tuple[int, int], cp_model.IntVar] = {}
        for a, b in combinations(range(n), 2):
            if (a, b) in together:
                continue
            var = model.NewBoolVar(f"r{len(self.together)}_{a}_{b}")
            members = self.images(a, b, shifts)
            together.update(dict.fromkeys(members, var))
            for pair in members:
                orbit = loads.setdefault(self.orbit_of[pair], {})
                weight, _ = orbit.get(var.Index(), (0, var))
                orbit[var.Index()] = (weight + shifts, var)

        def sits_with(a: int, b: int) -> cp_model.IntVar:
            return together[(a, b) if a < b else (b, a)]

        for a in range(n):
            model.Add(sum(sits_with(a, b) for b in range(n) if b != a) == self.k - 1)
        for a in (p for p in range(n) if p >= self.finite or p % self.c.order < shifts):
            for b, c in combinations([p for p in range(n) if p != a], 2):
                ab, ac, bc = sits_with(a, b), sits_with(a, c), sits_with(b, c)
                model.AddBoolOr([ab.Not(), ac.Not(), bc])
                model.AddBoolOr([ab.Not(), bc.Not(), ac])
                model.AddBoolOr([ac.Not(), bc.Not(), ab])
        if not self.together and self.c.fixed and not self.c.symmetric:
            model.Add(sits_with(0, self.finite) == 1)  # a shift of the first base round takes player 0 there
        self.together.append(together)

    def solve(self, effort: float) -> list[Tables] | None:
        """The developed rounds, or None if the solver finds none within ``effort`` (deterministic seconds)."""
        solver = cp_model.CpSolver()
        solver.parameters.max_deterministic_time = effort
        solver.parameters.num_workers = 1
        solver.parameters.random_seed = 1
        if solver.Solve(self.model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None
        rounds = []
        for together, stabiliser in zip(self.together, self.c.stabilisers, strict=True):
            tables, seated = [], set()
            for a in range(self.n):
                if a not in seated:
                    table = [a] + [b for b in range(self.n) if b != a and solver.Value(together[min(a, b), max(a, b)])]
                    seated.update(table)
                    tables.append(table)
            for by in range(self.c.order // stabiliser):
                rounds.append(sorted(sorted(self.c.shift(p, by) for p in table) for table in tables))
        return rounds


def exact_cover(options: dict[Hashable, list[Hashable]], rng: random.Random, limit: int) -> list[Hashable] | None:
    """Options covering every item once (Knuth's Algorithm X): the item with the fewest options left first, its options
    in an order drawn from ``rng``. None if there is no such choice or ``limit`` choices did not find one."""
    holders: dict[Hashable, set[Hashable]] = {}
    for option, items in options.items():
        for item in items:
            holders.setdefault(item, set()).add(option)
    rank = {option: index for index, option in enumerate(rng.sample(list(options), len(options)))}
    chosen: list[Hashable] = []
    tries = 0

    def take(option: Hashable) -> list[set[Hashable]]:
        removed = []
        for item in options[option]:
            for other in holders[item]:
                for other_item in options[other]:
                    if other_item != item:
                        holders[other_item].discard(other)
            removed.append(holders.pop(item))
        return removed

    def give_back(option: Hashable, removed: list[set[Hashable]]) -> None:
        for item in reversed(options[option]):
            holders[item] = removed.pop()
            for other in holders[item]:
                for other_item in options[other]:
                    if other_item != item:
                        holders[other_item].add(other)

    def search() -> bool:
        nonlocal tries
        if not holders:
            return True
        item = min(holders, key=lambda item: len(holders[item]))
        for option in sorted(holders[item], key=rank.__getitem__):
            tries += 1
            if tries > limit:
                return False
            chosen.append(option)
            removed = take(option)
            if search():
                return True
            give_back(option, removed)
            chosen.pop()
        return False

    return chosen if search() else None


def covered_rounds(construction: Cyclic, table_size: int, effort: float) -> list[Tables] | None:
    """The rounds of a ``Cyclic`` construction with ``partners``, its base rounds found as an exact cover: each player
    at one table of each base round, and each orbit of pairs under the shifts but the partners' met, all its pairs
    at once, by one orbit of tables of one base round (a table with its images under the base round's stabiliser).
    A thousand choices per unit of ``effort``, tried in an order fixed by the seed 0."""
    c, players = construction, construction.players

    def developed(table: tuple[int, ...], by: int) -> tuple[int, ...]:
        return tuple(sorted(c.shift(p, by) for p in table))

    orbit_of: dict[tuple[int, ...], int] = {}
    sizes: list[int] = []
    for pair in combinations(range(players), 2):
        if pair not in orbit_of:
            members = {developed(pair, by) for by in range(c.order)}
            orbit_of.update(dict.fromkeys(members, len(sizes)))
            sizes.append(len(members))
    left = {orbit_of[tuple(sorted(pair))] for pair in c.partners}
    options: dict[tuple[int, tuple[tuple[int, ...], ...]], list[Hashable]] = {}
    for base, stabiliser in enumerate(c.stabilisers):
        shifts = c.order // stabiliser
        for table in combinations(range(players), table_size):
            tables = tuple(sorted({developed(table, by) for by in range(0, c.order, shifts)}))
            seats = [p for t in tables for p in t]
            if (base, tables) in options or len(set(seats)) != len(seats):
                continue
            met = [orbit_of[pair] for t in tables for pair in combinations(t, 2)]
            counts = Counter(met)
            if counts.keys() & left or any(count * shifts != sizes[orbit] for orbit, count in counts.items()):
                continue
            pairs = {developed(pair, by) for t in tables for pair in combinations(t, 2) for by in range(shifts)}
            if len(pairs) == len(met) * shifts:
                options[base, tables] = [("seat", base, p) for p in seats] + [("orbit", o) for o in sorted(counts)]
    chosen = exact_cover(options, random.Random(0), int(effort * 1000))
    if chosen is None:
        return None
    rounds = []
    for base, stabiliser in enumerate(c.stabilisers):
        tables = [t for index, orbit in chosen if index == base for t in orbit]
        rounds += [sorted(list(developed(t, by)) for t in tables) for by in range(c.order // stabiliser)]
    return rounds


def lift_labels(construction: Lifted) -> list[dict[int, int]]:
    """For each round of a ``Lifted`` construction, the bit f_r(x) of every vector x (see ``Lifted``): the equations
    solved by Gaussian elimination over GF(2), free bits 0. Each equation is an integer whose bit ``16r + x`` stands
    for f_r(x), with the right-hand side as bit 160."""
    planes = construction.planes()
    assert all(sum(v in plane for plane in planes) == 2 for v in range(1, 16)), "not every vector in two planes"
    right = 1 << 16 * len(planes)
    pivots: dict[int, int] = {}
    for x, y in combinations(range(16), 2):
        r, s = (index for index, plane in enumerate(planes) if x ^ y in plane)
        equation = right | (1 << 16 * r + x) ^ (1 << 16 * r + y) ^ (1 << 16 * s + x) ^ (1 << 16 * s + y)
        while equation not in (0, right):
            pivot = (equation & (right - 1)).bit_length() - 1
            if pivot not in pivots:
                pivots[pivot] = equation
                break
            equation ^= pivots[pivot]
        assert equation != right, "the equations have no solution"
    solution = 0  # bit b set when the bit standing for b is 1
    for pivot in sorted(pivots):  # each pivot's other bits are lower, so already known (or free)
        others = pivots[pivot] & (right - 1) ^ (1 << pivot)
        if (pivots[pivot] >> 16 * len(planes)) ^ (others & solution).bit_count() % 2:
            solution |= 1 << pivot
    return [{x: solution >> 16 * r + x & 1 for x in range(16)} for r in range(len(planes))]


def lifted_rounds(construction: Lifted) -> list[Tables]:
    """The rounds of a ``Lifted`` construction: for each plane, each coset C gives the tables (x, f(x)) and
    (x, 1 + f(x)), x in C, player (x, bit) being number 2x + bit."""
    rounds = []
    for plane, label in zip(construction.planes(), lift_labels(construction), strict=True):
        cosets = sorted({tuple(sorted(x ^ w for w in plane)) for x in range(16)})
        rounds.append(sorted(sorted(2 * x + (label[x] ^ bit) for x in coset) for coset in cosets for bit in (0, 1)))
    return rounds


def check(rounds: list[Tables], players: int, table_size: int) -> None:
    """Raise AssertionError unless every round seats everyone once at full tables and no pair meets twice."""
    met: set[tuple[int, int]] = set()
    for tables in rounds:
        assert sorted(p for table in tables for p in table) == list(range(players)), "not a partition"
        assert all(len(table) == table_size for table in tables), "a table of another size"
        for table in tables:
            for pair in combinations(sorted(table), 2):
                assert pair not in met, f"{pair} meet twice"
                met.add(pair)


def product_rounds(outer: list[Tables], inner: list[Tables], size: int) -> list[Tables]:
    """The rounds of a ``Product`` from the outer and inner systems' rounds; ``size`` is the inner player count."""
    rounds = []
    for tables in outer:
        for j in range(size):
            rounds.append(
                sorted(
                    sorted((a * size + x, b * size + (x + j) % size, c * size + (x + 2 * j) % size))
                    for a, b, c in tables
                    for x in range(size)
                )
            )
    for tables in inner:
        rounds.append(sorted(sorted(a * size + x for x in table) for a in range(len(outer[0]) * 3) for table in tables))
    return rounds


def build(players: int, table_size: int, effort: float) -> list[Tables]:
    construction = CONSTRUCTIONS[players, table_size]
    if isinstance(construction, Product):
        outer, inner = (build(count, 3, effort) if count > 3 else [[[0, 1, 2]]] for count in astuple(construction))
        rounds = product_rounds(outer, inner, construction.inner)
    elif isinstance(construction, Lifted):
        assert table_size == 4 and (players, construction.rounds) == (32, BEST_KNOWN[32, 4])
        rounds = lifted_rounds(construction)
    else:
        assert construction.players == players and construction.rounds == BEST_KNOWN[players, table_size]
        model = covered_rounds if construction.partners else lambda c, k, e: CyclicModel(c, k).solve(e)
        rounds = model(construction, table_size, effort)
    if rounds is None:
        raise SystemExit(f"No schedule found for {players} players at tables of {table_size} within {effort}.")
    check(rounds, players, table_size)
    return rounds


def write(schedules: dict[tuple[int, int], list[Tables]]) -> None:
    lines = [
        "# Schedules without a repeated meeting, written by scripts/seating_schedules.py: under each heading one",
        "# round a line, tables separated by spaces, each player 0..63 one character of known_schedules.ALPHABET.",
    ]
    for (players, table_size), rounds in sorted(schedules.items(), key=lambda item: (item[0][1], item[0][0])):
        lines += ["", f"{players} players at tables of {table_size}", *map(encode_round, rounds)]
    DATA.write_text("\n".join(lines) + "\n", encoding="ascii")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="one case, e.g. 40x4; the others are kept as stored")
    parser.add_argument("--effort", type=float, default=600, help="solver work per case (deterministic s)")
    args = parser.parse_args(argv)
    wanted = sorted(CONSTRUCTIONS)
    schedules = {}
    if args.only:
        players, table_size = map(int, args.only.split("x"))
        wanted = [(players, table_size)]
        schedules = {key: known_schedule(*key) for key in CONSTRUCTIONS if DATA.exists() and known_schedule(*key)}
    for players, table_size in wanted:
        start = time.monotonic()
        schedules[players, table_size] = build(players, table_size, args.effort)
        print(f"{players} players at tables of {table_size}: {time.monotonic() - start:.1f} s", flush=True)
    write(schedules)


if __name__ == "__main__":
    main()
