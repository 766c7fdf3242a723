"""A table as its players reach it: by its secret link, its players in seat order, whether it takes changes."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from ..models import Table
from ..models.rounds import RoundStatus
from ..security import table_by_token

#: Why a table's players may not change its sheets (message ids: the pages translate them, the API sends them).
NOT_STARTED = gettext_noop("The round has not started yet: wait for the organiser.")
CLOSED = gettext_noop("This table is closed for changes.")


def published_table(token: str) -> Table | None:
    """The table whose link this is, once its round's seating is published; None otherwise."""
    table = table_by_token(token)
    if table is None or not table.round.published:
        return None
    return table


def seat_names(table: Table) -> list[str]:
    """The names of the table's players, in seat order."""
    return [seat.player.name for seat in table.seats.select_related("player").order_by("position")]


def closed_reason(table: Table) -> str | None:
    """Why the table's players may not change its sheets now (an untranslated message id), or None when they may."""
    if table.locked or table.round.status == RoundStatus.COMPLETE:
        return CLOSED
    if table.round.status != RoundStatus.IN_PLAY:
        return NOT_STARTED
    return None


def can_edit(table: Table) -> bool:
    """Players change a table's sheets once its round is started, until the organiser locks the table or
    completes the round. The organiser's desk is not bound by this."""
    return closed_reason(table) is None
