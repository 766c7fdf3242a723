"""A sheet laid out as a label column and one column per player, drawn straight onto the canvas (fast)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from .common import GREY, PALE, SHADE, CachedDrawing, cell, common_size, draw_caption, draw_text
from .fonts import wrap

LABEL_WIDTH = 92
NOTE_SIZE, NOTE_LINE = 7.5, 10
#: Rows grow into the room they are given, up to this share of their least height.
MAX_GROWTH = 1.6
#: A write-in box is never taller than this (12 mm), however tall its row.
TALLEST_BOX = 34
#: Room kept between a write-in box and its cell's edges, above and below, and between two boxes side by side.
BOX_MARGIN, BOX_SPACING = 2, 3


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

    def draw_static(self):
        c = self.canv
        y = self.height
        for line in self.note_lines:
            y -= NOTE_LINE
            draw_text(c, line, 0, y, self.width, NOTE_LINE, size=NOTE_SIZE, minimum=5, colour=GREY, pad=0)
        y = self.rows_top()
        for row in self.rows:
            height = self.row_height(row)
            y -= height
            self.draw_label(row, y, height)
            for p in range(len(self.names)):
                self.draw_cell(row, p, self.column_x(p), y, self.player_width, height)
        self.draw_extra(y)

    def draw_changing(self):
        y = self.rows_top()
        for row in self.rows:
            height = self.row_height(row)
            y -= height
            if row.kind == "names":
                size = common_size(self.names, self.player_width, height, 9, 5, bold=True)
                for p, name in enumerate(self.names):
                    x = self.column_x(p)
                    draw_text(self.canv, name, x, y, self.player_width, height, size, 5, bold=True, align="center")
        self.draw_extra_names(y)

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

    def draw_extra(self, bottom: float) -> None:
        """Draw the unchanging part of what comes below the rows; ``bottom`` is the rows' lower edge."""

    def draw_extra_names(self, bottom: float) -> None:
        """Draw the names in what comes below the rows."""


def box_height(height: float) -> float:
    """How tall the write-in boxes of a row ``height`` high are."""
    return min(height - 2 * BOX_MARGIN, TALLEST_BOX)


@dataclass(frozen=True)
class Part:
    """One part of a cell's line of boxes: a write-in box ("□"), a tick box ("tick") or a sign, and its place."""

    kind: str
    left: float
    width: float


def box_parts(x: float, width: float, parts: Sequence[str], box: float = 24) -> list[Part]:
    """Where the parts of a line of boxes go across a cell, centred: boxes ``box`` wide, narrower when the cell is
    narrow, up to half as wide again when it has the room; a box's drawn width keeps ``BOX_SPACING`` from the next.
    """
    sizes = {"□": box, "tick": 16}
    sign_width = 10
    total = sum(sizes.get(part, sign_width) for part in parts)
    scale = min(1.5, (width - 8) / total)
    left = x + (width - total * scale) / 2
    placed = []
    for part in parts:
        part_width = sizes.get(part, sign_width) * scale
        if part == "□":
            placed.append(Part(part, left + BOX_SPACING / 2, part_width - BOX_SPACING))
        else:
            placed.append(Part(part, left, part_width))
        left += part_width
    return placed


def boxes(canvas, x: float, y: float, width: float, height: float, parts: Sequence[str], box: float = 24) -> list[Part]:
    """Write-in boxes and signs across a cell, e.g. ``["□", "×", "□", "=", "□"]`` (see ``box_parts``), the boxes
    as tall as the row allows (``box_height``); ``"tick"`` is a small tick box followed by a gap."""
    bh = box_height(height)
    bottom = y + (height - bh) / 2
    placed = box_parts(x, width, parts, box)
    for part in placed:
        canvas.setLineWidth(0.6)
        if part.kind == "□":
            canvas.rect(part.left, bottom, part.width, bh, stroke=1, fill=0)
        elif part.kind == "tick":
            tick = min(11, bh)
            canvas.setLineWidth(0.9)
            canvas.rect(part.left, bottom + (bh - tick) / 2, tick, tick, stroke=1, fill=0)
        else:
            draw_text(
                canvas,
                part.kind,
                part.left,
                bottom,
                part.width,
                bh,
                size=9,
                minimum=5,
                align="center",
                colour=GREY,
                pad=0,
            )
    return placed
