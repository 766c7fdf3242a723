"""A sheet laid out as a label column and one column per player, drawn straight onto the canvas (fast)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .common import GREY, PALE, SHADE, CachedDrawing, cell, common_size, draw_caption, draw_text

LABEL_WIDTH = 92


@dataclass
class Row:
    """One row of a player-column sheet: its label, a hint under it, its height and how its cells look."""

    key: str
    label: str
    height: float
    hint: str = ""
    kind: str = "blank"
    caption: str = ""
    strong: bool = False


class PlayerColumns(CachedDrawing):
    """Rows of labelled cells, one column per player; subclasses draw the inside of special cells.

    Everything but the names is drawn once per document (see ``CachedDrawing``).
    """

    label_width = LABEL_WIDTH

    def __init__(self, names: Sequence[str], rows: Sequence[Row], notes: Sequence[str] = ()):
        super().__init__()
        self.names, self.rows, self.notes = list(names), list(rows), list(notes)

    def form_key(self) -> tuple:
        return (*super().form_key(), len(self.names))

    def table_height(self) -> float:
        return sum(row.height for row in self.rows)

    def notes_height(self) -> float:
        return 12 * len(self.notes) + (4 if self.notes else 0)

    def extra_height(self, width: float) -> float:
        """Height of what a subclass draws below the rows."""
        return 0

    def wrap(self, availWidth, availHeight):
        self.width = availWidth
        self.player_width = (availWidth - self.label_width) / max(1, len(self.names))
        self.height = self.notes_height() + self.table_height() + self.extra_height(availWidth)
        return availWidth, self.height

    def column_x(self, player: int) -> float:
        return self.label_width + player * self.player_width

    def rows_top(self) -> float:
        return self.height - self.notes_height()

    def draw_static(self):
        c = self.canv
        y = self.height
        for note in self.notes:
            y -= 12
            draw_text(c, note, 0, y, self.width, 12, size=8, minimum=5.5, colour=GREY, pad=0)
        y = self.rows_top()
        for row in self.rows:
            y -= row.height
            self.draw_label(row, y)
            for p in range(len(self.names)):
                self.draw_cell(row, p, self.column_x(p), y, self.player_width)
        self.draw_extra(y)

    def draw_changing(self):
        y = self.rows_top()
        for row in self.rows:
            y -= row.height
            if row.kind == "names":
                size = common_size(self.names, self.player_width, row.height, 9, 5, bold=True)
                for p, name in enumerate(self.names):
                    x = self.column_x(p)
                    draw_text(self.canv, name, x, y, self.player_width, row.height, size, 5, bold=True, align="center")
        self.draw_extra_names(y)

    def draw_label(self, row: Row, y: float) -> None:
        c, w, h = self.canv, self.label_width, row.height
        cell(c, 0, y, w, h, fill=SHADE)
        if row.hint:
            draw_text(c, row.label, 0, y + h * 0.4, w, h * 0.6, size=8, minimum=5, bold=True)
            draw_text(c, row.hint, 0, y + 1, w, h * 0.42, size=6, minimum=4, colour=GREY)
        else:
            draw_text(c, row.label, 0, y, w, h, size=8, minimum=5, bold=True)

    def draw_cell(self, row: Row, player: int, x: float, y: float, width: float) -> None:
        c = self.canv
        if row.kind == "names":
            cell(c, x, y, width, row.height, fill=PALE)
            return
        cell(c, x, y, width, row.height, line=1.2 if row.strong else 0.6)
        if row.caption:
            draw_caption(c, row.caption, x, y + row.height, width)

    def draw_extra(self, bottom: float) -> None:
        """Draw the unchanging part of what comes below the rows; ``bottom`` is the rows' lower edge."""

    def draw_extra_names(self, bottom: float) -> None:
        """Draw the names in what comes below the rows."""


def boxes(
    canvas, x: float, y: float, width: float, height: float, parts: Sequence[str], box: float = 20
) -> list[float]:
    """Write-in boxes and signs across a cell, centred, e.g. ``["□", "×", "□", "=", "□"]``.

    ``"tick"`` is a small tick box followed by a gap. Returns the left edge of each part.
    """
    sizes = {"□": box, "tick": 14}
    sign_width = 9
    total = sum(sizes.get(part, sign_width) for part in parts)
    scale = min(1.0, (width - 4) / total)
    bh = min(height - 6, 16)
    left = x + (width - total * scale) / 2
    bottom = y + (height - bh) / 2
    edges = []
    for part in parts:
        edges.append(left)
        part_width = sizes.get(part, sign_width) * scale
        canvas.setLineWidth(0.5)
        if part == "□":
            canvas.rect(left, bottom, part_width, bh, stroke=1, fill=0)
        elif part == "tick":
            tick = min(9, bh)
            canvas.setLineWidth(0.8)
            canvas.rect(left, bottom + (bh - tick) / 2, tick, tick, stroke=1, fill=0)
        else:
            draw_text(canvas, part, left, bottom, part_width, bh, size=8, minimum=5, align="center", colour=GREY, pad=0)
        left += part_width
    return edges
