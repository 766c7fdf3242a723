"""The score sheets of a round, or of one of its tables to reprint: each table's header (round, table, seats, the
scorer link's QR code) over the game's part of the sheet; two tables a page, a dashed cut line between them, where
the game asks for it and every table's sheet fits half a page. Four solid corner marks frame each table's slot, so
a picture of the sheet can be set straight and its boxes read back where ``sheet_layouts`` says they are."""

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
from ..printing.boxes import Square, TableLayout
from ..printing.common import (
    GREY,
    INK,
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
#: A corner mark's side, and the room between it and its slot's side (its outer edge 6 mm from the paper's).
CORNER_MARK, MARK_GAP = 10, 6


def seats_in_order():
    return Seat.objects.select_related("player__team").order_by("position")


def round_with_seats(event: Event, number: int) -> Round:
    """The round ``number`` of the event with its tables in order and their seats with players (404 if none)."""
    tables = Table.objects.order_by("number").prefetch_related(Prefetch("seats", queryset=seats_in_order()))
    round_ = get_object_or_404(
        Round.objects.prefetch_related(Prefetch("tables", queryset=tables)), event=event, number=number
    )
    round_.event = event
    return round_


def table_with_seats(event: Event, table_id: int) -> Table:
    """The event's table ``table_id`` with its round and its seats with players (404 for another event's)."""
    table = get_object_or_404(
        Table.objects.select_related("round").prefetch_related(Prefetch("seats", queryset=seats_in_order())),
        round__event=event,
        pk=table_id,
    )
    table.round.event = event
    return table


def round_tables(table: Table) -> list[Table]:
    """Every table of ``table``'s round with its seats: their sheets decide how many go on a page."""
    tables = Table.objects.filter(round_id=table.round_id).order_by("number")
    return list(tables.prefetch_related(Prefetch("seats", queryset=seats_in_order())))


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

    @property
    def frame(self) -> tuple[float, float, float, float]:
        """(left, bottom, right, top)."""
        return (self.x, self.top - self.height, self.x + self.width, self.top)


def page_slots(page: tuple[float, float], per_page: int) -> list[Slot]:
    """The whole page inside the margins, or its top and bottom halves, each kept clear of the cut line."""
    width, height = page
    inner = width - 2 * MARGIN
    if per_page == 1:
        return [Slot(MARGIN, height - MARGIN, inner, height - 2 * MARGIN)]
    half = height / 2
    room = half - MARGIN - CUT_MARGIN
    return [Slot(MARGIN, height - MARGIN, inner, room), Slot(MARGIN, half - CUT_MARGIN, inner, room)]


def page_and_slot(index: int, per_page: int, page: tuple[float, float]) -> tuple[int, Slot]:
    """The page (0-based) and the slot of the ``index``-th table's sheet."""
    return index // per_page, page_slots(page, per_page)[index % per_page]


def corner_marks(slot: Slot) -> tuple[Square, Square, Square, Square]:
    """The solid squares framing ``slot``: top left, top right, bottom right, bottom left. They stand in the page's
    side margins beside its corners, level with its top and its bottom, so clear of the cut line and the footer."""
    left, right = slot.x - MARK_GAP - CORNER_MARK, slot.x + slot.width + MARK_GAP
    top, bottom = slot.top - CORNER_MARK, slot.top - slot.height
    return (
        Square(left, top, CORNER_MARK),
        Square(right, top, CORNER_MARK),
        Square(right, bottom, CORNER_MARK),
        Square(left, bottom, CORNER_MARK),
    )


def draw_marks(canvas: Canvas, marks: Sequence[Square]) -> None:
    canvas.saveState()
    canvas.setFillColor(INK)
    for mark in marks:
        canvas.rect(mark.x, mark.y, mark.side, mark.side, stroke=0, fill=1)
    canvas.restoreState()


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


@dataclass(frozen=True)
class Placement:
    """Where a table's header and game part go in their slot: their bottom left corners on the page, and the scale
    the game part is drawn at (below 1 when it is taller than its room)."""

    header: tuple[float, float]
    sheet: tuple[float, float]
    scale: float = 1.0


def placement(slot: Slot, header: SheetHeader, sheet: Flowable) -> Placement:
    """The header at the top of ``slot``, the game part under it; a part taller than its room is drawn smaller."""
    header.wrap(slot.width, slot.height)
    room = slot.room_below(header.height)
    top = slot.top - header.height - HEADER_GAP
    _width, height = sheet.wrap(slot.width, room)
    at = (slot.x, slot.top - header.height)
    if height <= room + 0.01:
        return Placement(at, (slot.x, top - height))
    return Placement(at, (slot.x, top - room), room / height)


def place(canvas: Canvas, slot: Slot, header: SheetHeader, sheet: Flowable) -> None:
    """One table's header and game part in ``slot`` (see ``placement``), and the slot's corner marks."""
    where = placement(slot, header, sheet)
    header.drawOn(canvas, *where.header)
    if where.scale == 1.0:
        sheet.drawOn(canvas, *where.sheet)
    else:
        canvas.saveState()
        canvas.translate(*where.sheet)
        canvas.scale(where.scale, where.scale)
        sheet.drawOn(canvas, 0, 0)
        canvas.restoreState()
    draw_marks(canvas, corner_marks(slot))


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
    for first in range(0, len(parts), per_page):
        for index in range(first, min(first + per_page, len(parts))):
            place(canvas, page_and_slot(index, per_page, page)[1], *parts[index])
        if per_page > 1:
            draw_cut_line(canvas, page)
        draw_footer(canvas, page[0], foot)
        canvas.showPage()


def table_parts(
    event: Event, number: int, tables: Sequence[Table], table_link: Callable[[Table], str]
) -> list[tuple[SheetHeader, Flowable]]:
    """Each table's header and game part, in the active language."""
    titles = SheetTitles.of(event, number)
    parts = []
    for table in tables:
        seats = seat_lines(table)
        parts.append(
            (SheetHeader(titles, table.number, seats, table_link(table)), event.game_bundle.sheet(event, seats))
        )
    return parts


def per_page_of(event: Event, parts: Sequence[tuple[SheetHeader, Flowable]], deciding: Sequence[Table] | None) -> int:
    """How many tables a page: decided by the sheets of ``deciding`` (a reprinted table's round) or of ``parts``."""
    sheets = [sheet for _header, sheet in parts]
    if deciding is not None:
        sheets = [event.game_bundle.sheet(event, seat_lines(table)) for table in deciding]
    return sheets_per_page(sheets, page_size(event))


def score_sheets_pdf(event: Event, round_: Round, table_link: Callable[[Table], str]) -> bytes:
    """Every table's score sheet for ``round_``, in the event's language; ``table_link`` gives each scorer link."""
    with translation.override(event.language):
        title = _("Round %(number)d · score sheets") % {"number": round_.number}
    return sheets_pdf(event, round_.number, list(round_.tables.all()), table_link, title)


def table_sheet_pdf(event: Event, table: Table, table_link: Callable[[Table], str]) -> bytes:
    """One table's score sheet, laid out as on its round's sheets (one or two a page as they are, so its boxes sit
    where they do there), for a table whose link was renewed."""
    with translation.override(event.language):
        title = _("Round %(number)d · table %(table)d · score sheet") % {
            "number": table.round.number,
            "table": table.number,
        }
    return sheets_pdf(event, table.round.number, [table], table_link, title, deciding=round_tables(table))


def sheets_pdf(
    event: Event,
    number: int,
    tables: Sequence[Table],
    table_link: Callable[[Table], str],
    title: str,
    deciding: Sequence[Table] | None = None,
) -> bytes:
    """The score sheets of ``tables`` of round ``number``, titled ``title``, in the event's language; the sheets of
    ``deciding`` (else of ``tables``) decide how many go on a page."""
    prepare()
    with translation.override(event.language):
        parts = table_parts(event, number, tables, table_link)
        if not parts:
            empty = _("Round %(number)d has no tables.") % {"number": number}
            return build_pdf(event, title, heading(event, empty))
        page = page_size(event)
        buffer = io.BytesIO()
        canvas = Canvas(buffer, pagesize=page)
        canvas.setTitle(title)
        canvas.setAuthor("Tablescore")
        canvas.setCreator("Tablescore")
        draw_pages(canvas, page, parts, per_page_of(event, parts, deciding), f"{event.name} · {title}")
        canvas.save()
        return buffer.getvalue()


def sheet_layouts(
    event: Event, round_: Round, table_link: Callable[[Table], str], language: str | None = None
) -> list[TableLayout]:
    """Where each table's sheet of ``round_`` is as ``score_sheets_pdf`` prints it: its page, slot, QR code,
    corner marks and boxes, in page points; the boxes' labels in ``language`` (the event's by default)."""
    return layouts(event, round_.number, list(round_.tables.all()), table_link, language=language)


def table_sheet_layout(event: Event, table: Table, table_link: Callable[[Table], str]) -> TableLayout:
    """Where one table's reprinted sheet is, as ``table_sheet_pdf`` prints it."""
    return layouts(event, table.round.number, [table], table_link, deciding=round_tables(table))[0]


def layouts(
    event: Event,
    number: int,
    tables: Sequence[Table],
    table_link: Callable[[Table], str],
    deciding: Sequence[Table] | None = None,
    language: str | None = None,
) -> list[TableLayout]:
    """Each table's layout as ``sheets_pdf`` prints the same arguments, without drawing anything."""
    prepare()
    with translation.override(language or event.language):
        parts = table_parts(event, number, tables, table_link)
        if not parts:
            return []
        page, per_page = page_size(event), per_page_of(event, parts, deciding)
        found = []
        for index, (table, (header, sheet)) in enumerate(zip(tables, parts)):
            page_index, slot = page_and_slot(index, per_page, page)
            where = placement(slot, header, sheet)
            qr = header.qr_square()
            found.append(
                TableLayout(
                    table=table.number,
                    link=header.link,
                    page=page_index,
                    frame=slot.frame,
                    qr=Square(where.header[0] + qr.x, where.header[1] + qr.y, qr.side),
                    marks=corner_marks(slot),
                    boxes=[box.moved(*where.sheet, where.scale) for box in sheet.boxes()],
                )
            )
        return found
