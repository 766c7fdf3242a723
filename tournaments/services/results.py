"""A table's round result: each seat's total over the table's manches, place and tournament points."""

from __future__ import annotations

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


def seat_totals(
    table: Table, seats: list[Seat], manches: list[Manche] | None = None
) -> tuple[list[int], list[list[int]]] | None:
    """Each seat's score and tiebreak summed over the table's scored manches (``manches`` when read already);
    None before any."""
    results = [m.result for m in (table.manches.all() if manches is None else manches) if m.result]
    if not results:
        return None
    scores = [0] * len(seats)
    tiebreaks: list[list[int]] = [[] for _ in seats]
    for result in results:
        for i, player in enumerate(result["players"][: len(seats)]):
            scores[i] += player["score"]
            values = player.get("tiebreak", [])
            tiebreaks[i] = [a + b for a, b in zip(tiebreaks[i], values)] if tiebreaks[i] else list(values)
    return scores, tiebreaks


def update_table_results(
    table: Table, seats: list[Seat] | None = None, manches: list[Manche] | None = None
) -> list[Seat]:
    """Store each seat's round result from the table's manches (no re-scoring of sheets).

    ``seats`` (in seat order) and ``manches`` are the table's when the caller read them already.
    """
    seats = list(table.seats.order_by("position")) if seats is None else seats
    totals = seat_totals(table, seats, manches)
    if totals is None:
        for seat in seats:
            seat.score, seat.tiebreak, seat.rank, seat.placement_points = None, [], None, None
    else:
        scores, tiebreaks = totals
        ranks = competition_ranks([(s, *t) for s, t in zip(scores, tiebreaks)])
        event = table.round.event
        points = split_points(ranks, event.placement_points_for(len(seats)))
        for seat, score, tiebreak, rank, earned in zip(seats, scores, tiebreaks, ranks, points):
            seat.score, seat.tiebreak, seat.rank, seat.placement_points = score, tiebreak, rank, earned
    update_rows(Seat, RESULT_FIELDS, [(seat.pk, *(getattr(seat, name) for name in RESULT_FIELDS)) for seat in seats])
    return seats
