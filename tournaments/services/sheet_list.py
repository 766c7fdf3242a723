"""Every score sheet of an event in one table for the organiser: who entered it, who confirmed it, and how."""

from __future__ import annotations

from collections.abc import Iterator

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from ..models import Manche, Seat
from ..models.event import Event
from .audit import confirmed_through, entered_through


def confirmation_words(manche: Manche, event: Event) -> str:
    """Where the sheet's confirmation stands, in words the organiser reads."""
    if manche.confirmed_on_phone:
        return _("confirmed on a second phone, not verified")
    if manche.confirmed_at:
        return _("confirmed")
    if not manche.document:
        return _("not entered")
    return _("waiting for confirmation") if event.confirmation_required else _("entered")


def sheet_rows(event: Event) -> Iterator[list[object]]:
    """A header, then one row per manche of every round: round, table, manche, players and their scores (both in
    seat order), status, entered through, confirmed through."""
    yield [
        _("Round"),
        _("Table"),
        _("Manche"),
        _("Players"),
        _("Scores"),
        _("Status"),
        _("Entered through"),
        _("Confirmed through"),
    ]
    seats = Seat.objects.select_related("player").order_by("position")
    manches = (
        Manche.objects.filter(table__round__event=event)
        .select_related("table__round", "entered_by", "entered_player", "confirmed_by", "confirmed_player")
        .prefetch_related(Prefetch("table__seats", queryset=seats))
        .order_by("table__round__number", "table__number", "number")
    )
    for manche in manches:
        table = manche.table
        players = [seat.player.name for seat in table.seats.all()]
        by_name = {player["name"]: player["score"] for player in (manche.result or {}).get("players", [])}
        scores = [str(by_name[name]) for name in players if name in by_name]
        yield [
            table.round.number,
            table.number,
            manche.number,
            " · ".join(players),
            " · ".join(scores),
            confirmation_words(manche, event),
            entered_through(manche) if manche.document else "",
            confirmed_through(manche) if manche.confirmed_at else "",
        ]
