"""A sheet laid out as a label column and one column per player, drawn straight onto the canvas (fast), and the
lines of boxes in its cells: digit, letter and tick boxes read back from a picture of the sheet, write-in boxes,
signs."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field

from .boxes import ANY_DIGIT, DIGIT, LETTER, MARK, Box
from .common import GREY, INK, PALE, SHADE, CachedDrawing, cell, common_size, draw_caption, draw_text
from .fonts import wrap

LABEL_WIDTH = 92
NOTE_SIZE, NOTE_LINE = 7.5, 10
#: Rows grow into the room they are given, up to this share of their least height.
MAX_GROWTH = 1.6
#: A write-in box is never taller than this (12 mm), however tall its row.
TALLEST_BOX = 34
#: Room kept between a write-in box and its cell's edges, above and below, and between two boxes side by side.
BOX_MARGIN, BOX_SPACING = 2, 3
#: In a line of boxes at full size: a digit box's width, a tick box's side, the width of a sign, of a write-in box,
#: and of the room between two numbers; the line grows up to ``WIDEST`` times that, inside ``CELL_PAD`` of its cell.
DIGIT_WIDTH, MARK_SIDE, SIGN_WIDTH, WRITE_WIDTH, SPACE_WIDTH = 17, 12, 9, 22, 5
#: A letter box's width at full size, the room beside it included (``BOX_SPACING``).
LETTER_WIDTH = 21
WIDEST, CELL_PAD = 1.3, 3
#: A digit box is never taller than this (10 mm): a digit fills it better than a tall thin box.
TALLEST_DIGIT = 28
#: The line of boxes read back: a little heavier than a cell's rules, so a reader finds them.
READ_LINE = 0.8


@functools.lru_cache(maxsize=64)
def paragraph(text: str, width: float) -> tuple[str, ...]:
    """A sheet's notes run together and wrapped to its width, as lines."""
    return tuple(wrap(text, NOTE_SIZE, width))


@dataclass
class Row:
    """One row of a player-column sheet: its label, a hint under it, its least height and how its cells look.

    Rows but the names grow alike into the room the sheet is given (see ``PlayerColumns.wrap``).
    """

    key: str
    label: str
    height: float
    hint: str = ""
    kind: str = "blank"
    caption: str = ""
    strong: bool = False

    @property
    def grows(self) -> bool:
        return self.kind != "names"


class PlayerColumns(CachedDrawing):
    """Rows of labelled cells, one column per player; subclasses draw the inside of special cells.

    Its least height is its rows' least heights, what notes and subclasses add; given more, the rows grow (up to
    ``MAX_GROWTH``) so the boxes are bigger. Everything but the names is drawn once per document.
    """

    label_width = LABEL_WIDTH

    def __init__(self, names: Sequence[str], rows: Sequence[Row], notes: Sequence[str] = ()):
        super().__init__()
        self.names, self.rows, self.notes = list(names), list(rows), list(notes)
        self.growth = 1.0
        self.note_lines: tuple[str, ...] = ()

    def form_key(self) -> tuple:
        return (*super().form_key(), len(self.names))

    def row_height(self, row: Row) -> float:
        return row.height * self.growth if row.grows else row.height

    def table_height(self) -> float:
        return sum(self.row_height(row) for row in self.rows)

    def notes_height(self) -> float:
        return NOTE_LINE * len(self.note_lines) + (3 if self.note_lines else 0)

    def extra_height(self, width: float) -> float:
        """Height of what a subclass draws below the rows."""
        return 0

    def table_width(self, width: float) -> float:
        """The width of the label and player columns; subclasses may keep room beside them."""
        return width

    def wrap(self, availWidth, availHeight):
        self.width = availWidth
        self.note_lines = paragraph(" ".join(self.notes), availWidth) if self.notes else ()
        self.player_width = (self.table_width(availWidth) - self.label_width) / max(1, len(self.names))
        self.growth = 1.0
        least = self.notes_height() + self.table_height() + self.extra_height(availWidth)
        growing = sum(row.height for row in self.rows if row.grows)
        if growing and availHeight > least:
            self.growth = min(MAX_GROWTH, 1 + (availHeight - least) / growing)
        self.height = self.notes_height() + self.table_height() + self.extra_height(availWidth)
        return availWidth, self.height

    def column_x(self, player: int) -> float:
        return self.label_width + player * self.player_width

    def rows_top(self) -> float:
        return self.height - self.notes_height()

    def row_spans(self):
        """Each row with its bottom and height, from the top."""
        y = self.rows_top()
        for row in self.rows:
            height = self.row_height(row)
            y -= height
            yield row, y, height

    def cells(self):
        """Each player's cell of every row: (row, player, left, bottom, width, height)."""
        for row, y, height in self.row_spans():
            for p in range(len(self.names)):
                yield row, p, self.column_x(p), y, self.player_width, height

    def cell_line(self, row: Row, player: int, x: float, y: float, width: float, height: float) -> Line | None:
        """The line of boxes a subclass puts in a cell, if any."""
        return None

    def boxes(self) -> list[Box]:
        """The boxes read back, in the sheet's frame (after ``wrap``)."""
        return [box for cell in self.cells() if (line := self.cell_line(*cell)) for box in line.boxes]

    def draw_static(self):
        c = self.canv
        y = self.height
        for line in self.note_lines:
            y -= NOTE_LINE
            draw_text(c, line, 0, y, self.width, NOTE_LINE, size=NOTE_SIZE, minimum=5, colour=GREY, pad=0)
        bottom = self.rows_top()
        for row, bottom, height in self.row_spans():
            self.draw_label(row, bottom, height)
        for cell_at in self.cells():
            self.draw_cell(*cell_at)
        self.draw_extra(bottom)

    def draw_changing(self):
        bottom = self.rows_top()
        for row, bottom, height in self.row_spans():
            if row.kind == "names":
                size = common_size(self.names, self.player_width, height, 9, 5, bold=True)
                for p, name in enumerate(self.names):
                    x = self.column_x(p)
                    draw_text(self.canv, name, x, bottom, self.player_width, height, size, 5, bold=True, align="center")
        self.draw_extra_names(bottom)

    def draw_label(self, row: Row, y: float, height: float) -> None:
        c, w = self.canv, self.label_width
        cell(c, 0, y, w, height, fill=SHADE)
        if row.hint:
            hint = min(height * 0.42, 14)
            draw_text(c, row.label, 0, y + hint, w, height - hint, size=8, minimum=5, bold=True)
            draw_text(c, row.hint, 0, y + 1, w, hint, size=6, minimum=4, colour=GREY)
        else:
            draw_text(c, row.label, 0, y, w, height, size=8, minimum=5, bold=True)

    def draw_cell(self, row: Row, player: int, x: float, y: float, width: float, height: float) -> None:
        c = self.canv
        if row.kind == "names":
            cell(c, x, y, width, height, fill=PALE)
            return
        cell(c, x, y, width, height, line=1.2 if row.strong else 0.6)
        if row.caption:
            draw_caption(c, row.caption, x, y + height, width)
        line = self.cell_line(row, player, x, y, width, height)
        if line:
            line.draw(c)

    def draw_extra(self, bottom: float) -> None:
        """Draw the unchanging part of what comes below the rows; ``bottom`` is the rows' lower edge."""

    def draw_extra_names(self, bottom: float) -> None:
        """Draw the names in what comes below the rows."""


def box_height(height: float) -> float:
    """How tall the write-in boxes of a row ``height`` high are."""
    return min(height - 2 * BOX_MARGIN, TALLEST_BOX)


def draw_boxes(canvas, boxes: Sequence[Box]) -> None:
    """The outlines of boxes that are read back, in black a little heavier than a cell's rules."""
    canvas.setLineWidth(READ_LINE)
    canvas.setStrokeColor(INK)
    for box in boxes:
        canvas.rect(box.x, box.y, box.width, box.height, stroke=1, fill=0)


@dataclass(frozen=True)
class Digits:
    """A number written a digit a box, its boxes side by side: ``allowed`` is what each may hold, tens first."""

    path: str
    label: str
    allowed: tuple[str, ...] = (ANY_DIGIT,)


@dataclass(frozen=True)
class Letter:
    """A box for one character of ``allowed``, written in by hand; ``means`` what each stands for (see ``Box``)."""

    path: str
    label: str
    allowed: str
    means: tuple[str, ...] = ()


@dataclass(frozen=True)
class Tick:
    """A box to mark, followed by a little room; ``value`` is what a marked box stands for (see ``Box``)."""

    path: str
    label: str
    value: str = ""


#: In a line of boxes: a write-in box that is not read back, and a little room between two numbers.
WRITE_IN, SPACE = "□", " "


def part_width(part) -> float:
    if isinstance(part, Digits):
        return DIGIT_WIDTH * len(part.allowed)
    if isinstance(part, Tick):
        return MARK_SIDE + SPACE_WIDTH
    if isinstance(part, Letter):
        return LETTER_WIDTH
    return {WRITE_IN: WRITE_WIDTH, SPACE: SPACE_WIDTH}.get(part, SIGN_WIDTH)


@dataclass
class Line:
    """A line of boxes as placed in a cell: the boxes read back, the write-in boxes and the signs."""

    boxes: list[Box] = field(default_factory=list)
    write_ins: list[tuple[float, float, float, float]] = field(default_factory=list)
    signs: list[tuple[str, float, float, float, float]] = field(default_factory=list)

    def draw(self, canvas) -> None:
        draw_boxes(canvas, self.boxes)
        canvas.setLineWidth(0.6)
        for x, y, width, height in self.write_ins:
            canvas.rect(x, y, width, height, stroke=1, fill=0)
        for text, x, y, width, height in self.signs:
            draw_text(canvas, text, x, y, width, height, size=9, minimum=5, align="center", colour=GREY, pad=0)


def line_of_boxes(
    x: float, y: float, width: float, height: float, parts: Sequence, seat: int, manche: int | None = None
) -> Line:
    """Boxes and signs across a cell, centred, e.g. ``[Digits(...), "×", Digits(...), "=", WRITE_IN]``.

    Each part has its width at full size (``part_width``); all are drawn narrower when the cell is narrow, up to
    ``WIDEST`` times wider when it has the room. Boxes are as tall as the row allows (``box_height``), digit and
    letter boxes no taller than ``TALLEST_DIGIT``; a tick box is a small square at the start of its part.
    """
    scale = min(WIDEST, (width - 2 * CELL_PAD) / sum(map(part_width, parts)))
    tall = min(box_height(height), TALLEST_DIGIT)
    bottom = y + (height - tall) / 2
    left = x + (width - sum(map(part_width, parts)) * scale) / 2
    line = Line()
    for part in parts:
        step = part_width(part) * scale
        if isinstance(part, Digits):
            digit = DIGIT_WIDTH * scale
            for i, allowed in enumerate(part.allowed):
                at, place = (left + i * digit, bottom, digit, tall), len(part.allowed) - 1 - i
                line.boxes.append(Box(part.path, DIGIT, *at, seat, part.label, place, allowed=allowed, manche=manche))
        elif isinstance(part, Tick):
            side = min(MARK_SIDE * min(scale, 1.2), tall)
            at = (left, bottom + (tall - side) / 2, side, side)
            line.boxes.append(Box(part.path, MARK, *at, seat, part.label, value=part.value, manche=manche))
        elif isinstance(part, Letter):
            at = (left + BOX_SPACING / 2, bottom, step - BOX_SPACING, tall)
            line.boxes.append(
                Box(part.path, LETTER, *at, seat, part.label, allowed=part.allowed, manche=manche, means=part.means)
            )
        elif part == WRITE_IN:
            line.write_ins.append((left + BOX_SPACING / 2, bottom, step - BOX_SPACING, tall))
        elif part != SPACE:
            line.signs.append((part, left, bottom, step, tall))
        left += step
    return line
