"""The mixer: seat each round so that players meet as many new opponents as possible.

Nothing is remembered between calls. Each call plans the whole event again from the player count,
table sizes, rounds (at most ``MAX_PLANNED_ROUNDS``) and seed: a stored schedule without repeats when one is
known for the player count (``known_schedules``), else a finite-geometry design when one fits (with some tables
one short, either for one more player per short table, without players who never meet in it), completed or
replaced by a tabu search with a fixed number of steps, so every call gets the same plan (and a stored schedule
whatever the seed). If the meetings so far are the plan's earlier rounds under some naming of the
players, the plan's next round is returned under that naming. Otherwise (dropped or late players,
seats changed by hand, a round beyond the plan) the next round is searched against the actual history: first
alone, for the fewest repeats, then together with the remaining rounds, to prefer among equally good next rounds
one that does not force repeats later. Every step watches the call's deadline, however many rounds are planned.
"""

from __future__ import annotations

import random
import time
from collections.abc import Hashable, Mapping, Sequence
from itertools import combinations
from typing import TypeVar

from .designs import affine_rounds
from .history import normalise_history, restrict_history
from .known_schedules import known_schedule
from .local_search import Tables, meeting_matrix, search_rounds
from .relabelling import find_relabelling
from .tables import canonical_order

P = TypeVar("P", bound=Hashable)

TIME_LIMIT = 7.0
"""Seconds one call may take at most (the app allows 10; the rest is margin for a busy machine)."""

PLAN_SHARE = 0.5
"""Part of the time limit the plan may use; its search normally stops well before, after a fixed amount of work."""

PLAN_EFFORT = 5_000_000
"""Swaps the search for a plan evaluates at most (1.5 to 2 s here); fixed, so every call gets the same plan."""

ROUND_EFFORT = 2_000_000
"""Swaps evaluated at most when searching the next round alone because the plan no longer applies."""

SEARCH_EFFORT = 8_000_000
"""Swaps evaluated at most when then searching the remaining rounds together."""

RELABEL_SECONDS = 2.0
"""Time allowed to match the history to the plan's earlier rounds."""

MAX_LOOKAHEAD = 12
"""At most this many remaining rounds are searched together when the plan no longer applies."""

MAX_PLANNED_ROUNDS = 30
"""The plan covers at most this many rounds, as many as the set-up form lets an event plan; a later round is searched
against the meetings so far, as when the plan no longer applies."""


def mixer_seating(
    players: Sequence[P],
    sizes: Sequence[int],
    history: Mapping | None,
    *,
    round_number: int,
    rounds_total: int,
    seed: object = 0,
    time_limit: float | None = None,
) -> list[list[P]]:
    """Tables for round ``round_number`` (from 1) of ``rounds_total`` that repeat as few meetings of ``history`` as
    possible, within ``time_limit`` seconds (``TIME_LIMIT`` by default). The result depends only on the arguments
    (and, when the search is cut short, on the time limit)."""
    time_limit = TIME_LIMIT if time_limit is None else time_limit
    deadline = time.monotonic() + time_limit
    order = canonical_order(players)
    if sum(sizes) != len(order):
        raise ValueError(f"Table sizes {list(sizes)} do not add up to {len(order)} players.")
    if len(sizes) < 2:
        return [list(order)] if order else []
    index = {player: i for i, player in enumerate(order)}
    met = restrict_history(normalise_history(history), order)
    base = {}
    for key, count in met.items():
        a, b = sorted(index[p] for p in key)
        base[a, b] = count
    done = max(0, round_number - 1)
    rounds_planned = max(rounds_total, round_number, 1)
    plan_rounds = min(rounds_planned, MAX_PLANNED_ROUNDS)
    planned = planned_round(len(order), list(sizes), base, done, plan_rounds, seed, deadline, time_limit)
    if planned is None:
        rng = random.Random(f"mixer-search:{seed}:{round_number}")
        lookahead = min(MAX_LOOKAHEAD, max(1, rounds_planned - done))
        planned = next_round(len(order), list(sizes), base, lookahead, rng, deadline)
    return [[order[i] for i in table] for table in planned]


def next_round(
    player_count: int,
    sizes: list[int],
    base: dict[tuple[int, int], int],
    lookahead: int,
    rng: random.Random,
    deadline: float,
) -> Tables:
    """The next round with the fewest repeats of ``base`` found, and among such rounds one that leaves the
    following ``lookahead - 1`` rounds room for few repeats too."""
    alone = search_rounds(player_count, sizes, base, 1, rng, deadline, effort=ROUND_EFFORT)[0]
    if lookahead == 1:
        return alone
    ahead = search_rounds(player_count, sizes, base, lookahead, rng, deadline, effort=SEARCH_EFFORT, start=[alone])[0]
    return ahead if repeats_of(ahead, base) <= repeats_of(alone, base) else alone


def repeats_of(tables: Tables, base: dict[tuple[int, int], int]) -> int:
    """Pairs at ``tables`` that met in ``base``."""
    return sum(1 for table in tables for a, b in combinations(sorted(table), 2) if base.get((a, b)))


def planned_round(
    player_count: int,
    sizes: list[int],
    base: dict[tuple[int, int], int],
    done: int,
    rounds_planned: int,
    seed: object,
    deadline: float,
    time_limit: float,
) -> Tables | None:
    """Round ``done + 1`` of the event plan, renamed to fit the history ``base``; None if the plan has no such round
    (or the deadline cut it short before it) or the history is not the plan's earlier rounds under any renaming."""
    meetings_per_round = sum(size * (size - 1) // 2 for size in sizes)
    if done >= rounds_planned or sum(base.values()) != done * meetings_per_round:
        return None
    plan_deadline = min(deadline, time.monotonic() + PLAN_SHARE * time_limit)
    plan = plan_event(player_count, sizes, rounds_planned, seed, plan_deadline)
    if len(plan) <= done:
        return None
    preferred = list(range(player_count))
    random.Random(f"mixer-names:{seed}").shuffle(preferred)
    pattern = meeting_matrix(player_count, {}, plan[:done])
    target = meeting_matrix(player_count, base, [])
    naming = find_relabelling(pattern, target, preferred, min(deadline, time.monotonic() + RELABEL_SECONDS))
    if naming is None:
        return None
    return [[naming[i] for i in table] for table in plan[done]]


def plan_event(player_count: int, sizes: list[int], rounds: int, seed: object, deadline: float) -> list[Tables]:
    """The whole event on players ``0..n-1``: the same for the same arguments (unless the deadline cuts the search,
    when it may hold fewer rounds)."""
    rng = random.Random(f"mixer-plan:{seed}:{player_count}:{sizes}:{rounds}")
    built = rounds_without_repeats(player_count, sizes, rounds, rng, deadline)
    if len(built) >= rounds:
        return built[:rounds]
    return search_rounds(player_count, sizes, {}, rounds, rng, deadline, effort=PLAN_EFFORT, start=built)


def rounds_without_repeats(
    player_count: int, sizes: list[int], rounds: int, rng: random.Random, deadline: float = float("inf")
) -> list[Tables]:
    """Up to ``rounds`` rounds in which no two players meet twice: the stored schedule for these tables, else finite
    geometry (cut short at ``deadline``); with some tables one short, such a schedule for one more player per short
    table, without players who never meet in it. [] when nothing is known. A stored schedule ignores ``rng``."""
    size = max(sizes, default=0)
    short = sizes.count(size - 1)
    if short + sizes.count(size) != len(sizes) or size < 2:
        return []
    full_count = player_count + short
    full = known_schedule(full_count, size)[:rounds] or affine_rounds(full_count, size, rounds, rng, deadline)
    return without_players_who_never_meet(full, full_count, short)


def without_players_who_never_meet(schedule: list[Tables], player_count: int, missing: int) -> list[Tables]:
    """``schedule`` (players ``0..player_count-1``) without ``missing`` players of whom no two ever meet in it, so each
    of their tables is one short every round and the others meet as before, the rest renumbered in order; [] if no
    such players are found (the highest numbers are tried first)."""
    if not missing:
        return schedule
    partners: list[set[int]] = [set() for _ in range(player_count)]
    for tables in schedule:
        for table in tables:
            for a, b in combinations(table, 2):
                partners[a].add(b)
                partners[b].add(a)
    removed = strangers(partners, missing)
    if removed is None:
        return []
    number = {p: i for i, p in enumerate(p for p in range(player_count) if p not in removed)}
    return [[[number[p] for p in table if p in number] for table in tables] for tables in schedule]


def strangers(partners: list[set[int]], wanted: int) -> set[int] | None:
    """``wanted`` players no two of whom are partners, found depth-first from the highest numbers; None if none."""
    chosen: list[int] = []

    def extend(below: int) -> bool:
        if len(chosen) == wanted:
            return True
        for p in range(below - 1, -1, -1):
            if not any(p in partners[q] for q in chosen):
                chosen.append(p)
                if extend(p):
                    return True
                chosen.pop()
        return False

    return set(chosen) if extend(len(partners)) else None
