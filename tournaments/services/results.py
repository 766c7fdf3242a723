"""A table's round result: each seat's total over the table's manches, place and tournament points."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from scoring.ranking import competition_ranks

from ..models import Manche, Seat, Table
from ..sql import update_rows

#: What a seat stores of its round at its table.
RESULT_FIELDS = ("score", "tiebreak", "rank", "placement_points")


def split_points(ranks: list[int], points: tuple[int, ...]) -> list[Decimal]:
    """Tournament points per seat: tied places share the points of the places they span."""
    result = []
    for rank in ranks:
        tied = ranks.count(rank)
        spanned = points[rank - 1 : rank - 1 + tied]
        share = Decimal(sum(spanned)) / Decimal(tied)
        result.append(share.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
    return result


@dataclass(frozen=True)
class SeatResult:
    """A seat's round at its table: its score and tiebreak summed over the scored manches, and its place."""

    score: int
    tiebreak: list[int]
    rank: int


def rank_seats(seat_count: int, manches: Iterable[Manche]) -> list[SeatResult] | None:
    """Each of ``seat_count`` seats' totals over the scored ``manches`` and its place at the table (by score, then
    tiebreak; ties share a place); None before any manche is scored. The one ranking of a table's seats."""
    results = [manche.result for manche in manches if manche.result]
    if not results:
        return None
    scores = [0] * seat_count
    tiebreaks: list[list[int]] = [[] for _ in range(seat_count)]
    for result in results:
        for i, player in enumerate(result["players"][:seat_count]):
            scores[i] += player["score"]
            values = player.get("tiebreak", [])
            tiebreaks[i] = [a + b for a, b in zip(tiebreaks[i], values)] if tiebreaks[i] else list(values)
    ranks = competition_ranks([(score, *tiebreak) for score, tiebreak in zip(scores, tiebreaks, strict=True)])
    return [SeatResult(*seat) for seat in zip(scores, tiebreaks, ranks, strict=True)]


def update_table_results(
    table: Table, seats: list[Seat] | None = None, manches: list[Manche] | None = None
) -> list[Seat]:
    """Store each seat's round result from the table's manches (no re-scoring of sheets).

    ``seats`` (in seat order) and ``manches`` are the table's when the caller read them already.
    """
    seats = list(table.seats.order_by("position")) if seats is None else seats
    ranked = rank_seats(len(seats), table.manches.all() if manches is None else manches)
    if ranked is None:
        for seat in seats:
            seat.score, seat.tiebreak, seat.rank, seat.placement_points = None, [], None, None
    else:
        ranks = [result.rank for result in ranked]
        points = split_points(ranks, table.round.event.placement_points_for(len(seats)))
        for seat, result, earned in zip(seats, ranked, points, strict=True):
            seat.score, seat.tiebreak, seat.rank, seat.placement_points = (
                result.score,
                result.tiebreak,
                result.rank,
                earned,
            )
    update_rows(Seat, RESULT_FIELDS, [(seat.pk, *(getattr(seat, name) for name in RESULT_FIELDS)) for seat in seats])
    return seats
