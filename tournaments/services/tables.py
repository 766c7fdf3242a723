"""A table as its players reach it: by its secret link, its players in seat order, whether it takes changes."""

from __future__ import annotations

from ..models import Table
from ..models.rounds import RoundStatus
from ..security import table_by_token


def published_table(token: str) -> Table | None:
    """The table whose link this is, once its round's seating is published; None otherwise."""
    table = table_by_token(token, Table.objects.select_related("round__event"))
    if table is None or not table.round.published:
        return None
    return table


def seat_names(table: Table) -> list[str]:
    """The names of the table's players, in seat order."""
    return [seat.player.name for seat in table.seats.select_related("player").order_by("position")]


def can_edit(table: Table) -> bool:
    """A table's sheets change until the organiser locks it or completes its round."""
    return not table.locked and table.round.status != RoundStatus.COMPLETE
