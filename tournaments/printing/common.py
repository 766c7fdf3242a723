"""What every printout shares: the page, the footer, text fitted into cells, the sheet header and its QR code."""

from __future__ import annotations

import functools
import hashlib
import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Protocol

from django.http import HttpResponse
from django.utils import formats
from django.utils.translation import gettext as _
from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.rl_accel import escapePDF
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate, Paragraph, TableStyle

from .boxes import Square
from .fonts import BOLD, LEADING, REGULAR, SHRINK_BEFORE_WRAP, face, fit, register_fonts, text_width
from .qr import QUIET_ZONE, dark_spans, modules


class Event(Protocol):
    """What a printout reads of its event (the model's fields of those names)."""

    name: str
    date: date
    venue: str
    paper_size: str
    game_name: str
    variant_label: str


#: Page sizes by the event's paper size.
PAGE_SIZES = {"A4": A4, "letter": LETTER}
MARGIN = 12 * mm
FOOTER = 7 * mm
COLUMN_GAP = 8 * mm
INK = colors.black
GREY = colors.Color(0.4, 0.4, 0.4)
SHADE = colors.Color(0.9, 0.9, 0.9)
PALE = colors.Color(0.96, 0.96, 0.96)
#: A text's baseline sits this share of its size below the middle of its line.
BASELINE_DROP = 0.36


def page_size(event: Event) -> tuple[float, float]:
    return PAGE_SIZES.get(event.paper_size, A4)


def event_line(event: Event) -> str:
    """The event's date, venue and game, as the second line of every printout."""
    game = f"{event.game_name} · {event.variant_label}"
    parts = [formats.date_format(event.date, "DATE_FORMAT"), event.venue, game]
    return " · ".join(part for part in parts if part)


def draw_text(
    canvas,
    text: str,
    x: float,
    y: float,
    width: float,
    height: float,
    size: float = 9,
    minimum: float = 5,
    bold: bool = False,
    align: str = "left",
    colour=INK,
    pad: float = 2,
) -> None:
    """``text`` inside the box at (x, y), fitted to it (shrunk or wrapped), centred vertically."""
    inner = width - 2 * pad
    if inner <= 0 or not text:
        return
    fitted_size, lines = fit(str(text), inner, max(height - pad, 1), size, minimum, bold)
    draw_lines(canvas, lines, fitted_size, x, y, width, height, bold, align, colour, pad)


def draw_lines(canvas, lines, size, x, y, width, height, bold=False, align="left", colour=INK, pad: float = 2) -> None:
    """Lines already fitted at ``size``, centred vertically in the box at (x, y)."""
    if not lines:
        return
    step = size * LEADING
    middle = y + height / 2 + (len(lines) - 1) * step / 2
    placed = []
    for i, line in enumerate(lines):
        baseline = middle - i * step - BASELINE_DROP * size
        if align == "center":
            left = x + (width - text_width(line, size, bold)) / 2
        elif align == "right":
            left = x + width - pad - text_width(line, size, bold)
        else:
            left = x + pad
        placed.append((left, baseline, line))
    show_text(canvas, placed, size, bold, colour)


def show_text(canvas, placed, size: float, bold: bool, colour) -> None:
    """Each (x, baseline, text) of ``placed`` as PDF text operators written straight into the page or form.

    The font's own ``splitString`` and ``getSubsetInternalName`` map the text to its subsets, as ReportLab's
    text objects do, without their per-call formatting of every number and state, which would cost more than
    the rest of a sheet. The colour and font stay inside ``q``/``Q``, so the canvas's own state is untouched.
    """
    font = pdfmetrics.getFont(face(bold))
    doc = canvas._doc
    ops = [f"q {colour.red:.3f} {colour.green:.3f} {colour.blue:.3f} rg BT"]
    current = -1
    for left, baseline, text in placed:
        ops.append(f"1 0 0 1 {left:.2f} {baseline:.2f} Tm")
        for subset, chunk in font.splitString(text, doc):
            if subset != current:
                ops.append(f"{font.getSubsetInternalName(subset, doc)} {size:.2f} Tf")
                current = subset
            ops.append(f"({escapePDF(chunk)}) Tj")
    ops.append("ET Q")
    canvas.addLiteral(" ".join(ops))


def common_size(texts, width: float, height: float, size: float, minimum: float, bold: bool = False, pad=2) -> float:
    """One font size for a row of names so the row looks even: the largest at which each fits, but no name
    much longer than the others makes them all small (that one alone is drawn smaller)."""
    sizes = [fit(str(text), width - 2 * pad, max(height - pad, 1), size, minimum, bold)[0] for text in texts if text]
    return max(min(sizes, default=size), size * SHRINK_BEFORE_WRAP)


def draw_caption(canvas, text: str, x: float, top: float, width: float, size: float = 5.5, colour=GREY) -> None:
    """A small grey caption at the top left of a cell."""
    draw_text(canvas, text, x, top - size * 1.5, width, size * 1.5, size=size, minimum=4, colour=colour, pad=1.5)


def cell(canvas, x: float, y: float, width: float, height: float, fill=None, line: float = 0.6) -> None:
    canvas.setLineWidth(line)
    if fill is not None:
        canvas.setFillColor(fill)
        canvas.rect(x, y, width, height, stroke=1, fill=1)
    else:
        canvas.rect(x, y, width, height, stroke=1, fill=0)


#: By the size of a symbol, the rectangle operator of each run of dark modules met so far (at most a few
#: thousand a size), so that a code's hundreds of rectangles are looked up rather than formatted.
RUN_RECTANGLES: dict[int, dict[tuple[int, int], str]] = {}


def symbol_square(
    n: int, x: float, y: float, size: float, quiet: int = QUIET_ZONE, side: float | None = None
) -> tuple[float, Square]:
    """A module's side, and the square the modules of an ``n`` x ``n`` QR code fill in a ``size`` box at (x, y):
    all of it but ``quiet`` modules of margin, or, given ``side``, a square that wide in its middle (smaller where
    that would leave less than ``quiet`` modules around it), so codes of any length fill the same square."""
    module = size / (n + 2 * quiet)
    if side is not None:
        module = min(module, side / n)
    offset = (size - n * module) / 2
    return module, Square(x + offset, y + offset, n * module)


def qr_symbol(url: str, x: float, y: float, size: float, side: float | None = None) -> Square:
    """The square the modules of ``url``'s QR code drawn in a ``size`` box at (x, y) fill (see ``symbol_square``)."""
    return symbol_square(modules(url)[0], x, y, size, side=side)[1]


def qr_operators(url: str, x: float, y: float, size: float, side: float | None = None) -> str:
    """PDF operators painting the QR code of ``url`` in a ``size`` box at (x, y) (see ``symbol_square``).

    One rectangle per run of dark modules, in whole module units under one scaling: a short string built
    without ReportLab's per-number formatting, which would cost more than the rest of a page.
    """
    n, flat = modules(url)
    module, symbol = symbol_square(n, x, y, size, side=side)
    spans = dark_spans(flat)
    known = RUN_RECTANGLES.setdefault(n, {})
    try:
        rectangles = [known[span] for span in spans]
    except KeyError:
        width, top = n + 1, n - 1
        for start, end in spans:
            known.setdefault((start, end), f"{start % width} {top - start // width} {end - start} 1 re")
        rectangles = [known[span] for span in spans]
    corner = f"{symbol.x:.3f} {symbol.y:.3f}"
    return "\n".join([f"q 0 g {module:.4f} 0 0 {module:.4f} {corner} cm", *rectangles, "f Q"])


def draw_qr(canvas, url: str, x: float, y: float, size: float, side: float | None = None) -> None:
    canvas.addLiteral(qr_operators(url, x, y, size, side))


class QRCode(Flowable):
    """A QR code of ``url`` as a square flowable, for a table cell."""

    def __init__(self, url: str, size: float):
        super().__init__()
        self.url, self.width, self.height = url, size, size

    def wrap(self, availWidth, availHeight):
        return self.width, self.height

    def draw(self):
        draw_qr(self.canv, self.url, 0, 0, self.width)


class CachedDrawing(Flowable):
    """A flowable whose unchanging part is drawn once per document as a form and reused on every page.

    Subclasses draw that part in ``draw_static`` (it may depend only on what ``form_key`` returns) and
    what differs from page to page, such as names, in ``draw_changing``.
    """

    #: How many of these a printed page may hold: a game's score sheet says 2 where it fits half a page with
    #: boxes a hand can write in (the printing measures it on the event's paper, see ``sheets.py``).
    sheets_per_page = 1

    def form_key(self) -> tuple:
        return (type(self).__name__, round(self.width, 2), round(self.height, 2))

    def draw_static(self) -> None:
        raise NotImplementedError

    def draw_changing(self) -> None:
        """Draw what differs from one page to the next."""

    def draw(self):
        canvas = self.canv
        name = "form" + hashlib.sha1(repr(self.form_key()).encode()).hexdigest()[:16]
        if not canvas.hasForm(name):
            canvas.beginForm(name, -4, -4, self.width + 4, self.height + 4)
            self.draw_static()
            canvas.endForm()
        canvas.doForm(name)
        self.draw_changing()


@dataclass(frozen=True)
class SeatLine:
    """A player at a table as the sheet header lists them."""

    position: int
    name: str
    club: str = ""
    team: str = ""


@dataclass(frozen=True)
class SheetTitles:
    """What the headers of a round's score sheets share, worked out once: the event, its line, the round, the words."""

    event: str
    info: str
    round_number: int
    round_label: str
    table_label: str
    seats_label: str
    #: The outline's entry of a table, with a ``%(number)d`` for its number.
    outline: str

    @classmethod
    def of(cls, event: Event, round_number: int) -> SheetTitles:
        """The titles in the active language."""
        labels = (_("Round"), _("Table"), _("Seats"), _("Table %(number)d"))
        return cls(event.name, event_line(event), round_number, *labels)


class SheetHeader(CachedDrawing):
    """The top of a score sheet: event, round ("Turno") and table ("Tavolo"), the seats, and the table's QR code.

    The QR code takes the top right corner with its link under it. Up to four seats are listed in two columns
    of name and club; more, three a column by name alone. What every table shares (titles, boxes, seat numbers,
    the round) is drawn once per document.
    """

    HEIGHT = 86
    #: The QR code's box, and the square its modules fill whatever the link's length, so a sheet's layout does not
    #: hang on its link.
    QR, QR_SYMBOL = 72, 54
    LINK = 12
    TITLE, INFO = 17, 12
    BOX, BOX_STEP, BOX_HEIGHT = 58, 64, 54
    SEAT_NUMBER = 13

    def __init__(self, titles: SheetTitles, table_number: int, seats: Sequence[SeatLine], link: str):
        super().__init__()
        self.titles, self.round_number, self.table_number = titles, titles.round_number, table_number
        self.seats, self.link = seats, link

    def form_key(self) -> tuple:
        return (*super().form_key(), self.round_number, tuple(seat.position for seat in self.seats))

    def wrap(self, availWidth, availHeight):
        self.width, self.height = availWidth, self.HEIGHT
        self.text_width = availWidth - self.QR - 10
        self.seats_left = 2 * self.BOX_STEP + 8
        return availWidth, self.HEIGHT

    def qr_place(self) -> tuple[float, float, float]:
        """The left, bottom and side of the box the QR code is drawn in, quiet zone included (after ``wrap``)."""
        return self.width - self.QR, self.HEIGHT - self.QR, self.QR

    def qr_square(self) -> Square:
        """The square the QR code's modules fill, in the header's frame (after ``wrap``): the same for any link of
        25 modules or more (a table's link always is)."""
        return qr_symbol(self.link, *self.qr_place(), side=self.QR_SYMBOL)

    def seat_grid(self) -> tuple[int, int, float, float]:
        """Seats per column, columns, and each seat's width and height: two lines a seat for up to four."""
        per_column = 2 if len(self.seats) <= 4 else 3
        columns = max(1, -(-len(self.seats) // per_column))
        top = self.HEIGHT - self.TITLE - self.INFO - 10
        return per_column, columns, (self.text_width - self.seats_left) / columns, (top - self.LINK - 2) / per_column

    def seat_box(self, i: int) -> tuple[float, float]:
        """The bottom left corner of seat ``i``'s box."""
        per_column, _columns, width, height = self.seat_grid()
        top = self.HEIGHT - self.TITLE - self.INFO - 10
        return self.seats_left + (i // per_column) * width, top - (i % per_column + 1) * height

    def draw_static(self):
        c, h, width = self.canv, self.HEIGHT, self.text_width
        titles = self.titles
        draw_text(c, titles.event, 0, h - self.TITLE, width, self.TITLE, size=14, minimum=8, bold=True, pad=0)
        info = h - self.TITLE - self.INFO
        draw_text(c, titles.info, 0, info, width, self.INFO, size=8, minimum=5, colour=GREY, pad=0)
        round_label, table_label, seats_label = titles.round_label, titles.table_label, titles.seats_label
        for i, label in enumerate((round_label, table_label)):
            cell(c, i * self.BOX_STEP, 0, self.BOX, self.BOX_HEIGHT, line=1.2)
            draw_caption(c, label, i * self.BOX_STEP, self.BOX_HEIGHT, self.BOX, size=7.5, colour=INK)
        self.draw_number(self.round_number, 0)
        draw_text(c, seats_label, self.seats_left, info - 10, 80, 8, size=6.5, minimum=4, colour=GREY, pad=0)
        per_column, _columns, _width, height = self.seat_grid()
        number_height = height * 0.6 if per_column == 2 else height
        for i, seat in enumerate(self.seats):
            x, y = self.seat_box(i)
            y += height - number_height
            draw_text(c, str(seat.position), x, y, self.SEAT_NUMBER, number_height, size=9, bold=True, pad=0)

    def draw_number(self, number: int, x: float) -> None:
        """The round's or the table's number, large, in its box."""
        height = self.BOX_HEIGHT - 10
        draw_text(self.canv, str(number), x, 0, self.BOX, height, size=24, minimum=10, bold=True, align="center")

    def draw_changing(self):
        c, w, h = self.canv, self.width, self.HEIGHT
        key = f"table-{self.table_number}"
        c.bookmarkHorizontal(key, 0, h)
        c.addOutlineEntry(self.titles.outline % {"number": self.table_number}, key, level=0)
        draw_qr(c, self.link, *self.qr_place(), side=self.QR_SYMBOL)
        left = self.seats_left
        draw_text(c, self.link, left, 0, w - left, self.LINK, size=7.5, minimum=5, align="right", pad=0)
        self.draw_number(self.table_number, self.BOX_STEP)
        per_column, _columns, width, height = self.seat_grid()
        text_width = width - self.SEAT_NUMBER - 4
        name_height = height * 0.6 if per_column == 2 else height
        for i, seat in enumerate(self.seats):
            x, y = self.seat_box(i)
            x += self.SEAT_NUMBER
            if per_column == 2:
                draw_text(c, seat.name, x, y + height - name_height, text_width, name_height, size=9, minimum=5, pad=0)
                draw_text(c, seat.club, x, y, text_width, height - name_height, size=6.5, minimum=4, colour=GREY, pad=0)
            else:
                draw_text(c, seat.name, x, y, text_width, height, size=8.5, minimum=4, pad=0)


class FitText(Flowable):
    """Text for a table cell that shrinks, then wraps (up to ``lines``), to stay inside its column."""

    def __init__(self, text: str, size: float = 9, minimum: float = 5.5, bold: bool = False, lines: int = 2, **style):
        super().__init__()
        self.text, self.size, self.minimum, self.bold, self.lines = str(text), size, minimum, bold, lines
        self.style = style

    def wrap(self, availWidth, availHeight):
        self.width = availWidth
        room = self.lines * self.size * LEADING
        self.fitted = fit(self.text, availWidth, room, self.size, self.minimum, self.bold)
        self.height = max(1, len(self.fitted[1])) * self.fitted[0] * LEADING
        return availWidth, self.height

    def draw(self):
        size, lines = self.fitted
        draw_lines(self.canv, lines, size, 0, 0, self.width, self.height, self.bold, pad=0, **self.style)


@functools.cache
def styles() -> dict[str, object]:
    """Paragraph and table styles, made once per process."""
    prepare()
    title = ParagraphStyle("title", fontName=BOLD, fontSize=16, leading=20, spaceAfter=2)
    info = ParagraphStyle("info", fontName=REGULAR, fontSize=9, leading=12, textColor=GREY, spaceAfter=8)
    table = TableStyle(
        [
            ("FONT", (0, 0), (-1, 0), BOLD, 9),
            ("FONT", (0, 1), (-1, -1), REGULAR, 10),
            ("BACKGROUND", (0, 0), (-1, 0), SHADE),
            ("LINEBELOW", (0, 0), (-1, -1), 0.4, GREY),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("TOPPADDING", (0, 0), (-1, -1), 3),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
            ("LEFTPADDING", (0, 0), (-1, -1), 4),
            ("RIGHTPADDING", (0, 0), (-1, -1), 4),
        ]
    )
    return {"title": title, "info": info, "table": table}


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def heading(event: Event, text: str, extra: str = "") -> list:
    """A printout's title and, under it, the event's date, venue and game (and ``extra``)."""
    info = f"{event_line(event)} · {extra}" if extra else event_line(event)
    return [Paragraph(escape(text), styles()["title"]), Paragraph(escape(info), styles()["info"])]


def draw_footer(canvas, page_width: float, text: str) -> None:
    """The event and the printout's name at the foot of the page, and the page's number."""
    number = str(canvas.getPageNumber())
    right = page_width - MARGIN - text_width(number, 7)
    show_text(canvas, [(MARGIN, MARGIN - FOOTER + 6, text), (right, MARGIN - FOOTER + 6, number)], 7, False, GREY)


def footer(canvas, doc) -> None:
    draw_footer(canvas, doc.pagesize[0], doc.footer_text)


def body_frame(event: Event, columns: int = 1, gap: float = COLUMN_GAP, frame_id: str = "body") -> list[Frame]:
    width, height = page_size(event)
    inner = width - 2 * MARGIN
    column = (inner - (columns - 1) * gap) / columns
    return [
        Frame(
            MARGIN + i * (column + gap),
            MARGIN,
            column,
            height - 2 * MARGIN,
            leftPadding=0,
            rightPadding=0,
            topPadding=0,
            bottomPadding=0,
            id=f"{frame_id}{i}",
        )
        for i in range(columns)
    ]


def page_template(event: Event, template_id: str = "page", columns: int = 1) -> PageTemplate:
    return PageTemplate(id=template_id, frames=body_frame(event, columns, frame_id=template_id), onPage=footer)


def body_size(event: Event) -> tuple[float, float]:
    width, height = page_size(event)
    return width - 2 * MARGIN, height - 2 * MARGIN


def prepare() -> None:
    """Fonts registered, and plain binary streams (ASCII85 would only make files bigger and slower to write)."""
    register_fonts()
    rl_config.useA85 = 0


def build_pdf(event: Event, title: str, story: list, templates: Sequence[PageTemplate] | None = None) -> bytes:
    """The PDF of ``story`` on the event's paper, every page footed with the event and its number."""
    prepare()
    buffer = io.BytesIO()
    doc = BaseDocTemplate(
        buffer,
        pagesize=page_size(event),
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN,
        title=title,
        author="Tablescore",
        creator="Tablescore",
        pageTemplates=list(templates or [page_template(event)]),
    )
    doc.footer_text = f"{event.name} · {title}"
    doc.build(story)
    return buffer.getvalue()


def pdf_response(content: bytes, filename: str) -> HttpResponse:
    """A PDF for the browser to show, named ``filename`` when saved."""
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
