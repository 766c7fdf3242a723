"""A table as a request works on it: read once with its round, event, seats and players, then handed on.

Every door to a table's sheets (its link, a player's link, the JSON API, the desk) reads the table here with one
statement (``sql.table_seats``) and passes the ``TableAtHand`` down to the services and the templates; nothing
below reads the table, its round, its event or its seats again.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass

from django.utils.translation import gettext_noop

from .. import sql
from ..models import Event, Manche, Round, Seat, Table
from ..models.rounds import RoundStatus
from ..models.tokens import verified, well_formed

#: Why a table's players may not change its sheets (message ids: the pages translate them, the API sends them).
NOT_STARTED = gettext_noop("The round has not started yet: wait for the organiser.")
CLOSED = gettext_noop("This table is closed for changes.")

#: What the desk shows of each manche: who entered and confirmed it.
MANCHE_PEOPLE = ("entered_by", "entered_player", "confirmed_by", "confirmed_player")


@dataclass
class TableAtHand:
    """A table with its round and event, its seats in seat order (each with its player) and, once read, its
    manches in order."""

    table: Table
    seats: list[Seat]
    manches: list[Manche] | None = None

    @property
    def round(self) -> Round:
        return self.table.round

    @property
    def event(self) -> Event:
        return self.table.round.event

    @property
    def names(self) -> list[str]:
        """The players' names in seat order: a sheet's ``players``."""
        return [seat.player.name for seat in self.seats]

    def seat_at(self, position: int | None) -> Seat | None:
        return next((seat for seat in self.seats if seat.position == position), None)

    def read_manches(self, *, people: bool = False) -> list[Manche]:
        """The table's manches in order (with who entered and confirmed them for the desk), read once."""
        if self.manches is None:
            query = self.table.manches.order_by("number")
            manches = list(query.select_related(*MANCHE_PEOPLE) if people else query)
            for manche in manches:
                manche.table = self.table
            self.manches = manches
        return self.manches

    def manche(self, number: int) -> Manche | None:
        return next((m for m in self.read_manches() if m.number == number), None)

    def closed_reason(self) -> str | None:
        """Why the table's players may not change its sheets now (an untranslated message id), or None."""
        return closed_reason(self.table, self.round)


def closed_reason(table: Table, round_: Round) -> str | None:
    """Why the table's players may not change its sheets (an untranslated message id), or None when they may:
    they may once the round is started, until the organiser locks the table or completes the round."""
    if table.locked or round_.status == RoundStatus.COMPLETE:
        return CLOSED
    if round_.status != RoundStatus.IN_PLAY:
        return NOT_STARTED
    return None


def at_hand(rows: list[list]) -> TableAtHand | None:
    """The table of ``sql.table_seats`` rows, every instance linked to the others as the ORM would link them."""
    if not rows:
        return None
    table, round_, event = rows[0][:3]
    round_.event, table.round = event, round_
    seats = []
    for _t, _r, _e, seat, player in rows:
        if seat is None:
            continue
        player.event = event
        seat.player, seat.table, seat.round = player, table, round_
        seats.append(seat)
    return TableAtHand(table, seats)


def table_by_token(token: object, published: bool = False) -> TableAtHand | None:
    """The table whose link this is (only once its round's seating is published, with ``published``), or None.
    Anything not shaped like a token never reaches the database; the unique index finds the row and the token is
    then compared in constant time."""
    if not well_formed(token):
        return None
    found = at_hand(sql.table_seats(token=token, published=published))
    return found if found is not None and verified(found.table, token) else None


def published_table(token: object) -> TableAtHand | None:
    """The table whose link this is, once its round's seating is published; None otherwise."""
    return table_by_token(token, published=True)


def table_by_id(table_id: int, published: bool = False) -> TableAtHand | None:
    return at_hand(sql.table_seats(table_id=table_id, published=published))


def player_at_table(token: object, table_id: int) -> tuple[TableAtHand, Seat] | None:
    """The table and the seat of the player whose link this is, if they sit there in a published round."""
    if not well_formed(token):
        return None
    found = table_by_id(table_id, published=True)
    if found is None:
        return None
    seat = next((s for s in found.seats if hmac.compare_digest(s.player.token.encode(), token.encode())), None)
    return (found, seat) if seat is not None else None
