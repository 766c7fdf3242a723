"""The seating of a round for the wall: by table, then every player alphabetically with table and seat."""

from __future__ import annotations

from collections.abc import Callable
from xml.sax.saxutils import escape

from django.utils import translation
from django.utils.translation import gettext as _
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import NextPageTemplate, PageBreak, Paragraph, Spacer, Table

from ..collation import sort_key
from ..models import Event, Player, Round
from ..printing.common import COLUMN_GAP, GREY, FitText, QRCode, body_size, build_pdf, heading, page_template, styles
from ..printing.fonts import REGULAR, clip, text_width

#: Large enough for a phone held at arm's length over the sheet, quiet zone included: a player's link takes 33
#: modules, each about half a millimetre (three dots of a page scanned or printed at 150 dpi).
QR_SIZE = 20 * mm


#: A cell's padding on each side (the ``styles()["table"]`` of every printout).
CELL_PADDING = 4
#: The smallest a name is printed; a word still too long for its cell is cut short with an ellipsis.
NAME_MINIMUM = 6


def name_cell(name: str, size: float, width: float) -> Paragraph:
    """A player's name at its full size, wrapped between words within its ``width`` cell (a long one on two lines)
    rather than shrunk: only a word longer than the cell makes the name smaller, as no word is split."""
    room = width - 2 * CELL_PADDING
    longest = max((text_width(word, size) for word in name.split()), default=0)
    if longest > room:
        size = max(NAME_MINIMUM, size * room / longest)
        name = " ".join(clip(word, size, room) for word in name.split())
    style = ParagraphStyle(f"name-{size}", fontName=REGULAR, fontSize=size, leading=size * 1.2)
    return Paragraph(escape(name), style)


def by_table(event: Event, round_: Round, width: float) -> Table:
    """One row per table: its number, then each seat's player (club under the name when known)."""
    tables = list(round_.tables.all())
    seats = max((len(table.seats.all()) for table in tables), default=event.table_size)
    number_width = 44
    seat_width = (width - number_width) / max(1, seats)
    header = [FitText(_("Table"), size=9, bold=True)] + [
        FitText(_("Seat %(number)d") % {"number": n}, size=9, bold=True) for n in range(1, seats + 1)
    ]
    rows = [header]
    for table in tables:
        row = [FitText(str(table.number), size=14, bold=True, lines=1)]
        for seat in table.seats.all():
            cell = [name_cell(seat.player.name, 10, seat_width)]
            if seat.player.club:
                cell.append(FitText(seat.player.club, size=7.5, minimum=5, lines=1, colour=GREY))
            row.append(cell)
        row += [""] * (seats + 1 - len(row))
        rows.append(row)
    return Table(
        rows, colWidths=[number_width] + [seat_width] * seats, repeatRows=1, style=styles()["table"], hAlign="LEFT"
    )


def by_player(round_: Round, width: float, link: Callable[[Player], str]) -> Table:
    """Every seated player, alphabetically, with their table and seat, and the QR code of their own link."""
    seated = [(seat.player, table.number, seat.position) for table in round_.tables.all() for seat in table.seats.all()]
    seated.sort(key=lambda row: sort_key(row[0].name))
    number_width = 28
    name_width = width - 2 * number_width - QR_SIZE - 8
    header = [FitText(_("Player"), size=9, bold=True), FitText(_("Table"), size=9, bold=True)]
    header += [FitText(_("Seat"), size=9, bold=True), FitText(_("Own link"), size=7, bold=True, lines=1)]
    rows = [header] + [
        [
            name_cell(player.name, 11, name_width),
            FitText(str(table), size=12, bold=True, lines=1),
            str(seat),
            QRCode(link(player), QR_SIZE),
        ]
        for player, table, seat in seated
    ]
    return Table(
        rows,
        colWidths=[name_width, number_width, number_width, QR_SIZE + 8],
        repeatRows=1,
        style=styles()["table"],
        hAlign="LEFT",
    )


def seating_pdf(event: Event, round_: Round, link: Callable[[Player], str]) -> bytes:
    """The round's seating: the tables in order, then the players from A to Z in two columns.

    ``link`` gives the address of a player's own link, printed as a QR code beside their name.
    """
    with translation.override(event.language):
        width, _height = body_size(event)
        column_width = (width - COLUMN_GAP) / 2
        story = [
            *heading(event, _("%(event)s · round %(number)d · seating by table") % names(event, round_)),
            by_table(event, round_, width),
            NextPageTemplate("columns"),
            PageBreak(),
            *heading(event, _("Round %(number)d · seating by player") % names(event, round_)),
            Spacer(1, 2),
            by_player(round_, column_width, link),
        ]
        title = _("Round %(number)d · seating") % {"number": round_.number}
        templates = [page_template(event), page_template(event, "columns", columns=2)]
        return build_pdf(event, title, story, templates)


def names(event: Event, round_: Round) -> dict[str, object]:
    return {"event": event.name, "number": round_.number}
