"""Cheese Rescue: a row per player (cheeses left, cards left, points) beside an empty board of the table's size.

Either is what the table enters: each player's tallies, or the final board, square by square.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from reportlab.platypus import Flowable

from scoring.cheese_rescue import BOARD_SIZES, CHEESE, SIX_CHEESES

from ...printing.boxes import MARK, Box
from ...printing.common import GREY, INK, PALE, SHADE, CachedDrawing, SeatLine, cell, common_size, draw_text
from ...printing.grid import draw_boxes
from .labels import animals, letters, removal_steps

#: A board square at its smallest (9 mm) and largest.
MIN_SQUARE, MAX_SQUARE = 26, 42
BOARD_TITLE = 16
#: The strip of column numbers over the board (row numbers go in the gap to its left).
NUMBERS = 9
GAP = 14
HEAD = 30
#: A player's row at its least and at its tallest.
PLAYER_ROW, TALLEST_ROW = 30, 44
#: A tick box under each cheese value, this far from the next, and the strip of the values over them.
TICK, TICK_GAP, VALUES = 12, 2, 9
#: Widths of the columns after the names, and the least width of the names' column.
CHEESES, CARDS, POINTS, NAMES = len(SIX_CHEESES) * (TICK + TICK_GAP) - TICK_GAP + 10, 52, 52, 90
LINE = 10


def board_size(players: int) -> int:
    """5 x 5 for two players, 6 x 6 for three, 7 x 7 for four."""
    return BOARD_SIZES.get(players, BOARD_SIZES[min(BOARD_SIZES, key=lambda n: abs(n - players))])


class CheeseRescueSheet(CachedDrawing):
    sheets_per_page = 2

    def __init__(self, event, seats: Sequence[SeatLine]):
        super().__init__()
        self.names = [seat.name for seat in seats]
        self.size = board_size(len(seats))
        self.headings = (_("Players"), _("Cheeses left"), _("Cheese cards left"), _("Cheese points"))
        self.hints = ("", _("tick each card left"), "", "")
        self.labels = [f"{name} · {self.headings[1]}" for name in self.names]
        self.board_title = _("Final board (%(size)d × %(size)d)") % {"size": self.size}
        steps = [f"{n}. {step[:1].lower()}{step[1:]}" for n, step in enumerate(removal_steps(), start=1)]
        self.legend = [
            _("Tie: most cheese cards left on the board wins."),
            " · ".join(f"{letters()[code]} {meaning}" for code, meaning in animals().items()),
            _("A cheese (%(code)s): seat/points, e.g. 2/%(points)d") % {"code": CHEESE, "points": max(SIX_CHEESES)},
            _("Removed before counting, in this order:"),
            *steps,
        ]

    def form_key(self):
        return (*super().form_key(), len(self.names), self.square, self.row)

    def left_height(self, row: float) -> float:
        return HEAD + len(self.names) * row + 8 + len(self.legend) * LINE

    def wrap(self, availWidth, availHeight):
        self.width = availWidth
        widest = (availWidth - CHEESES - CARDS - POINTS - NAMES - GAP) / self.size
        self.square = max(MIN_SQUARE, min(MAX_SQUARE, widest, (availHeight - BOARD_TITLE - NUMBERS) / self.size))
        board = BOARD_TITLE + NUMBERS + self.size * self.square
        self.row = max(PLAYER_ROW, min(TALLEST_ROW, (board - self.left_height(0)) / max(1, len(self.names))))
        self.height = max(board, self.left_height(self.row))
        self.board_left = availWidth - self.size * self.square
        self.names_width = self.board_left - GAP - CHEESES - CARDS - POINTS
        return availWidth, self.height

    def columns(self) -> list[tuple[float, float]]:
        """Left edge and width of the names, cheeses, cards and points columns."""
        widths = (self.names_width, CHEESES, CARDS, POINTS)
        edges = [sum(widths[:i]) for i in range(len(widths))]
        return list(zip(edges, widths))

    def draw_static(self):
        c, top = self.canv, self.height
        for (x, width), heading, hint in zip(self.columns(), self.headings, self.hints):
            cell(c, x, top - HEAD, width, HEAD, fill=SHADE)
            if hint:
                draw_text(c, heading, x, top - HEAD * 0.6, width, HEAD * 0.6, size=7.5, minimum=5, bold=True)
                draw_text(c, hint, x, top - HEAD, width, HEAD * 0.4, size=5.5, minimum=4, colour=GREY)
            else:
                draw_text(c, heading, x, top - HEAD, width, HEAD, size=7.5, minimum=5, bold=True)
        for y in self.player_rows():
            for i, (x, width) in enumerate(self.columns()):
                cell(c, x, y, width, self.row, fill=PALE if i == 0 else None, line=1.2 if i == 3 else 0.6)
        self.draw_ticks()
        y = top - HEAD - len(self.names) * self.row - 8
        for i, line in enumerate(self.legend):
            y -= LINE
            colour, bold = (GREY, False) if i >= 4 else (INK, i == 3)
            draw_text(c, line, 0, y, self.board_left - GAP, LINE, size=7.5, minimum=5, colour=colour, bold=bold, pad=0)
        self.draw_board()

    def player_rows(self) -> list[float]:
        """The bottom of each player's row."""
        top = self.height - HEAD
        return [top - (p + 1) * self.row for p in range(len(self.names))]

    def boxes(self) -> list[Box]:
        """A tick box under each of a player's six cheese values, read back as the cheeses left (after ``wrap``)."""
        x, width = self.columns()[1]
        left = x + (width - len(SIX_CHEESES) * (TICK + TICK_GAP) + TICK_GAP) / 2
        placed = []
        for p, y in enumerate(self.player_rows()):
            bottom = y + (self.row - TICK - VALUES) / 2
            for i, value in enumerate(SIX_CHEESES):
                box_x = left + i * (TICK + TICK_GAP)
                label = f"{self.labels[p]} · {value}"
                placed.append(Box(f"tallies[{p}].cheeses", MARK, box_x, bottom, TICK, TICK, p, label, value=str(value)))
        return placed

    def draw_ticks(self) -> None:
        """The tick boxes, each under its cheese's value."""
        c, boxes = self.canv, self.boxes()
        draw_boxes(c, boxes)
        for box in boxes:
            draw_text(
                c, box.value, box.x, box.y + box.height, box.width, VALUES, size=6.5, minimum=4, align="center", pad=0
            )

    def draw_board(self) -> None:
        """The empty board, its columns and rows numbered as the table form names its squares."""
        c, square, left = self.canv, self.square, self.board_left
        top = self.height - BOARD_TITLE
        draw_text(c, self.board_title, left, top, self.size * square, BOARD_TITLE, size=9, minimum=6, bold=True, pad=0)
        top -= NUMBERS
        for i in range(self.size):
            number = str(i + 1)
            draw_text(c, number, left + i * square, top, square, NUMBERS, size=6.5, colour=GREY, align="center", pad=0)
            y = top - (i + 1) * square
            draw_text(c, number, left - GAP, y, GAP - 3, square, size=6.5, colour=GREY, align="right", pad=0)
        for row in range(self.size):
            for col in range(self.size):
                cell(c, left + col * square, top - (row + 1) * square, square, square, line=0.7)

    def draw_changing(self):
        x, width = self.columns()[0]
        size = common_size(self.names, width, self.row, 9, 5, bold=True)
        for name, y in zip(self.names, self.player_rows()):
            draw_text(self.canv, name, x, y, width, self.row, size, 5, bold=True)


def sheet(event, seats: Sequence[SeatLine]) -> Flowable:
    return CheeseRescueSheet(event, seats)
