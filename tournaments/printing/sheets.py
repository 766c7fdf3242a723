"""The score sheets of a round, or of one of its tables to reprint: each table's header (round, table, seats, the
scorer link's QR code) over the game's part of the sheet; two tables a page, a dashed cut line between them, where
the game asks for it and every table's sheet fits half a page."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from django.utils import translation
from django.utils.translation import gettext as _
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from ..models import Event, Round, Seat, Table
from .common import (
    GREY,
    MARGIN,
    SeatLine,
    SheetHeader,
    SheetTitles,
    build_pdf,
    draw_footer,
    draw_text,
    heading,
    page_size,
    prepare,
)

#: Between a table's header and its game part.
HEADER_GAP = 6
#: Left blank on each side of the cut line between the two sheets of a page.
CUT_MARGIN = 10
SCISSORS = "✂"


def round_with_seats(event: Event, number: int) -> Round:
    """The round ``number`` of the event with its tables in order and their seats with players (404 if none)."""
    seats = Seat.objects.select_related("player__team").order_by("position")
    tables = Table.objects.order_by("number").prefetch_related(Prefetch("seats", queryset=seats))
    round_ = get_object_or_404(
        Round.objects.prefetch_related(Prefetch("tables", queryset=tables)), event=event, number=number
    )
    round_.event = event
    return round_


def table_with_seats(event: Event, table_id: int) -> Table:
    """The event's table ``table_id`` with its round and its seats with players (404 for another event's)."""
    seats = Seat.objects.select_related("player__team").order_by("position")
    table = get_object_or_404(
        Table.objects.select_related("round").prefetch_related(Prefetch("seats", queryset=seats)),
        round__event=event,
        pk=table_id,
    )
    table.round.event = event
    return table


def seat_lines(table: Table) -> list[SeatLine]:
    return [
        SeatLine(seat.position, seat.player.name, seat.player.club, seat.player.team.name if seat.player.team else "")
        for seat in table.seats.all()
    ]


@dataclass(frozen=True)
class Slot:
    """Where one table's sheet goes on a page: its left edge, its top, and the room it has."""

    x: float
    top: float
    width: float
    height: float

    def room_below(self, header: float) -> float:
        """The height left for the game's part under a header ``header`` high."""
        return self.height - header - HEADER_GAP


def page_slots(page: tuple[float, float], per_page: int) -> list[Slot]:
    """The whole page inside the margins, or its top and bottom halves, each kept clear of the cut line."""
    width, height = page
    inner = width - 2 * MARGIN
    if per_page == 1:
        return [Slot(MARGIN, height - MARGIN, inner, height - 2 * MARGIN)]
    half = height / 2
    room = half - MARGIN - CUT_MARGIN
    return [Slot(MARGIN, height - MARGIN, inner, room), Slot(MARGIN, half - CUT_MARGIN, inner, room)]


def fits(sheet: Flowable, slot: Slot) -> bool:
    """Whether the game's part fits under a header in ``slot`` (a sheet asks for more height than it is given
    when its rows would have to shrink below what a hand can write in)."""
    room = slot.room_below(SheetHeader.HEIGHT)
    return sheet.wrap(slot.width, room)[1] <= room + 0.01


def sheets_per_page(sheets: Sequence[Flowable], page: tuple[float, float]) -> int:
    """Two when the game's sheets ask for two a page and every table's fits half of it; else one."""
    if min(getattr(sheet, "sheets_per_page", 1) for sheet in sheets) < 2:
        return 1
    half = page_slots(page, 2)[0]
    return 2 if all(fits(sheet, half) for sheet in sheets) else 1


def place(canvas: Canvas, slot: Slot, header: SheetHeader, sheet: Flowable) -> None:
    """One table's header and game part in ``slot``; a part taller than its room is drawn smaller to fit."""
    header.wrapOn(canvas, slot.width, slot.height)
    header.drawOn(canvas, slot.x, slot.top - header.height)
    room = slot.room_below(header.height)
    top = slot.top - header.height - HEADER_GAP
    _width, height = sheet.wrapOn(canvas, slot.width, room)
    if height <= room + 0.01:
        sheet.drawOn(canvas, slot.x, top - height)
        return
    canvas.saveState()
    canvas.translate(slot.x, top - room)
    canvas.scale(room / height, room / height)
    sheet.drawOn(canvas, 0, 0)
    canvas.restoreState()


def draw_cut_line(canvas: Canvas, page: tuple[float, float]) -> None:
    """A dashed line across the middle of the page, scissors at its start."""
    width, height = page
    canvas.saveState()
    canvas.setStrokeColor(GREY)
    canvas.setLineWidth(0.5)
    canvas.setDash(4, 3)
    canvas.line(MARGIN + 14, height / 2, width - MARGIN, height / 2)
    canvas.restoreState()
    draw_text(canvas, SCISSORS, MARGIN, height / 2 - 6, 12, 12, size=10, colour=GREY, pad=0)


def draw_pages(
    canvas: Canvas, page: tuple[float, float], parts: Sequence[tuple[SheetHeader, Flowable]], per_page: int, foot: str
) -> None:
    """Each table's header and game part, ``per_page`` a page, the cut line between two, each page footed."""
    slots = page_slots(page, per_page)
    for first in range(0, len(parts), per_page):
        for slot, (header, sheet) in zip(slots, parts[first : first + per_page]):
            place(canvas, slot, header, sheet)
        if per_page > 1:
            draw_cut_line(canvas, page)
        draw_footer(canvas, page[0], foot)
        canvas.showPage()


def score_sheets_pdf(event: Event, round_: Round, table_link: Callable[[Table], str]) -> bytes:
    """Every table's score sheet for ``round_``, in the event's language; ``table_link`` gives each scorer link."""
    with translation.override(event.language):
        title = _("Round %(number)d · score sheets") % {"number": round_.number}
    return sheets_pdf(event, round_.number, list(round_.tables.all()), table_link, title)


def table_sheet_pdf(event: Event, table: Table, table_link: Callable[[Table], str]) -> bytes:
    """One table's score sheet, laid out as on its round's sheets, for a table whose link was renewed."""
    with translation.override(event.language):
        title = _("Round %(number)d · table %(table)d · score sheet") % {
            "number": table.round.number,
            "table": table.number,
        }
    return sheets_pdf(event, table.round.number, [table], table_link, title)


def sheets_pdf(
    event: Event, number: int, tables: Sequence[Table], table_link: Callable[[Table], str], title: str
) -> bytes:
    """The score sheets of ``tables`` of round ``number``, titled ``title``, in the event's language."""
    prepare()
    game = event.game_bundle
    with translation.override(event.language):
        titles = SheetTitles.of(event, number)
        parts = []
        for table in tables:
            seats = seat_lines(table)
            header = SheetHeader(titles, table.number, seats, table_link(table))
            parts.append((header, game.sheet(event, seats)))
        if not parts:
            empty = _("Round %(number)d has no tables.") % {"number": number}
            return build_pdf(event, title, heading(event, empty))
        page = page_size(event)
        buffer = io.BytesIO()
        canvas = Canvas(buffer, pagesize=page)
        canvas.setTitle(title)
        canvas.setAuthor("Tablescore")
        canvas.setCreator("Tablescore")
        per_page = sheets_per_page([sheet for _header, sheet in parts], page)
        draw_pages(canvas, page, parts, per_page, f"{event.name} · {title}")
        canvas.save()
        return buffer.getvalue()
