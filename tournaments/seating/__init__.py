"""Seating for club tournaments: table sizes, the random, swiss and mixer methods, seat rotation and quality.

Pure Python without Django: players are opaque hashable ids, the meeting history is a mapping from
pairs (frozensets or 2-tuples) to counts, and a round is a list of tables, each a list of ids in seat
order (position 1 starts, the others follow clockwise). Nothing is kept between calls.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Literal, TypeVar

from .history import History, Pair, meetings_of_round, meetings_of_rounds, normalise_history, pair
from .mixer import mixer_seating
from .positions import PositionCounts, position_counts_of, rotate_positions
from .quality import SeatingQuality, count_repeats, repeat_lower_bound, seating_quality, total_repeats
from .random_seating import random_seating
from .swiss import swiss_seating
from .tables import plan_table_sizes

__all__ = [
    "METHODS",
    "History",
    "Method",
    "Pair",
    "PositionCounts",
    "SeatingQuality",
    "count_repeats",
    "meetings_of_round",
    "meetings_of_rounds",
    "mixer_seating",
    "normalise_history",
    "pair",
    "plan_table_sizes",
    "position_counts_of",
    "random_seating",
    "repeat_lower_bound",
    "rotate_positions",
    "seat_round",
    "seating_quality",
    "swiss_seating",
    "total_repeats",
]

P = TypeVar("P", bound=Hashable)

Method = Literal["random", "swiss", "mixer"]
METHODS: tuple[Method, ...] = ("random", "swiss", "mixer")


def seat_round(
    method: Method,
    players: Sequence[P],
    *,
    table_size: int,
    min_size: int,
    history: Mapping | None,
    round_number: int,
    rounds_total: int,
    seed: int | str,
    standings: Sequence[P] | None = None,
    position_counts: PositionCounts | None = None,
) -> list[list[P]]:
    """The tables of round ``round_number`` for ``players``, each in seat order.

    ``history`` holds how often pairs already met; ``standings`` (swiss) lists players best first, and
    players missing from it are placed last; with ``position_counts`` the seats are rotated so the
    players who started least start now. Raises ValueError for an unknown method, a player listed
    twice, or a player count that the table sizes cannot seat.
    """
    if len(set(players)) != len(players):
        raise ValueError("A player is listed twice.")
    sizes = plan_table_sizes(len(players), table_size, min_size)
    if method == "random":
        tables = random_seating(players, sizes, random.Random(f"random:{seed}:{round_number}"))
    elif method == "swiss":
        tables = swiss_seating(swiss_order(players, standings), sizes, history)
    elif method == "mixer":
        tables = mixer_seating(players, sizes, history, round_number=round_number, rounds_total=rounds_total, seed=seed)
    else:
        raise ValueError(f"Unknown seating method {method!r}; the methods are {', '.join(METHODS)}.")
    if position_counts is not None:
        tables = rotate_positions(tables, position_counts, random.Random(f"positions:{seed}:{round_number}"))
    return tables


def swiss_order(players: Sequence[P], standings: Sequence[P] | None) -> list[P]:
    """The players in standings order; those not in the standings (late arrivals) follow in the given order."""
    present = set(players)
    ranked = [player for player in dict.fromkeys(standings or ()) if player in present]
    placed = set(ranked)
    return ranked + [player for player in players if player not in placed]
