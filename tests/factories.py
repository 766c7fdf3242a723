"""Small builders for tests: rounds seated by hand, sheets entered as a table would."""

from __future__ import annotations

from django.test import TestCase

from tournaments.models import Event, Manche, Round, Seat, Table
from tournaments.models.rounds import RoundStatus
from tournaments.services.sheets import Author, record_sheet


def seat_by_hand(event: Event, number: int, tables: list[list[int]], status=RoundStatus.SEATED) -> Round:
    """A round whose tables hold the given player ids, in seat order, with the event's manches."""
    round_ = Round.objects.create(event=event, number=number, status=status, published=True)
    for t, players in enumerate(tables, start=1):
        table = Table.objects.create(round=round_, number=t)
        for position, player in enumerate(players, start=1):
            Seat.objects.create(table=table, player_id=player, position=position)
        for m in range(event.manches_per_round):
            Manche.objects.create(table=table, number=m + 1)
    return round_


def cheese_tallies(points: list[int]) -> dict:
    """A Cheese Rescue sheet part where each player keeps ``points`` with the fewest cheeses that make them."""
    cards_for = {0: 0, 1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 3, 7: 3, 8: 4, 9: 5, 10: 6}
    return {"tallies": [{"cheese_points": p, "cheese_cards": cards_for[p]} for p in points]}


def enter(table: Table, part: dict, manche_number: int = 1, via: str = "organiser") -> Manche:
    """Record ``part`` (the game's own fields) as the sheet of one manche of ``table``, then run what its commit
    runs (the standings' rebuild) even inside a test's transaction, which never commits."""
    manche = table.manches.get(number=manche_number)
    event = table.round.event
    names = [seat.player.name for seat in table.seats.select_related("player").order_by("position")]
    document = {"game": event.game, "players": names, **part}
    with TestCase.captureOnCommitCallbacks(execute=True):
        return record_sheet(manche, document, based_on=manche.version, author=Author(via=via))
