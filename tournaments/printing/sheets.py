"""The score sheets of a round: one page per table, headed with round, table, seats and the scorer link's QR code."""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from django.utils import translation
from django.utils.translation import gettext as _
from reportlab.platypus import Flowable, PageBreak, Spacer

from ..models import Event, Round, Seat, Table
from .common import SeatLine, SheetHeader, build_pdf, heading, prepare


def round_with_seats(event: Event, number: int) -> Round:
    """The round ``number`` of the event with its tables in order and their seats with players (404 if none)."""
    seats = Seat.objects.select_related("player__team").order_by("position")
    tables = Table.objects.order_by("number").prefetch_related(Prefetch("seats", queryset=seats))
    round_ = get_object_or_404(
        Round.objects.prefetch_related(Prefetch("tables", queryset=tables)), event=event, number=number
    )
    round_.event = event
    return round_


def seat_lines(table: Table) -> list[SeatLine]:
    return [
        SeatLine(seat.position, seat.player.name, seat.player.club, seat.player.team.name if seat.player.team else "")
        for seat in table.seats.all()
    ]


def score_sheets_pdf(event: Event, round_: Round, table_link: Callable[[Table], str]) -> bytes:
    """Every table's score sheet for ``round_``, in the event's language; ``table_link`` gives each scorer link."""
    prepare()
    game = event.game_bundle
    with translation.override(event.language):
        story: list[Flowable] = []
        for table in round_.tables.all():
            seats = seat_lines(table)
            if story:
                story.append(PageBreak())
            story += [
                SheetHeader(event, round_.number, table.number, seats, table_link(table)),
                Spacer(1, 8),
                game.sheet(event, seats),
            ]
        if not story:
            story = heading(event, _("Round %(number)d has no tables.") % {"number": round_.number})
        return build_pdf(event, _("Round %(number)d · score sheets") % {"number": round_.number}, story)
