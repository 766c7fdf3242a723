"""The round so far at a table, as the last lines of a paper sheet of several manches: each player's total over
the sheets scored so far and their place at the table."""

from __future__ import annotations

from dataclasses import dataclass

from ..models import Manche
from ..services.results import rank_seats
from ..services.tables import TableAtHand


@dataclass
class RoundLine:
    name: str
    total: int
    place: int


@dataclass
class RoundTotals:
    """Each seat's line (none before a sheet is scored), and how many of the round's sheets count so far."""

    lines: list[RoundLine]
    counted: int
    planned: int


def round_totals(at: TableAtHand, manches: list[Manche] | None = None) -> RoundTotals | None:
    """The table's round so far, from its manches (``manches`` when read already); None when its game shows none."""
    if not at.event.game_bundle.shows_round_totals:
        return None
    manches = at.read_manches() if manches is None else manches
    scored = [manche for manche in manches if manche.result]
    ranked = rank_seats(len(at.seats), scored)
    if ranked is None:
        return RoundTotals([], 0, len(manches))
    lines = [RoundLine(name, seat.score, seat.rank) for name, seat in zip(at.names, ranked, strict=True)]
    return RoundTotals(lines, len(scored), len(manches))
