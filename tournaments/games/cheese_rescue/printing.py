"""Cheese Rescue: each player's cheeses left, and an empty board of the right size for the final board."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from reportlab.platypus import Flowable

from scoring.cheese_rescue import BOARD_SIZES, CHEESE, SIX_CHEESES

from ...printing.common import GREY, INK, SeatLine, cell, draw_text
from ...printing.grid import PlayerColumns, Row
from .labels import animals, removal_steps

MAX_SQUARE = 42
LINE = 12


def board_size(players: int) -> int:
    """5 x 5 for two players, 6 x 6 for three, 7 x 7 for four."""
    return BOARD_SIZES.get(players, BOARD_SIZES[min(BOARD_SIZES, key=lambda n: abs(n - players))])


class CheeseRescueSheet(PlayerColumns):
    def __init__(self, event, seats: Sequence[SeatLine]):
        rows = [
            Row("names", _("Players"), 22, kind="names"),
            Row("cheeses", _("Cheeses left"), 30, hint=_("tick each card left"), kind="cheeses"),
            Row("cards", _("Cheese cards left"), 26, hint=_("breaks ties")),
            Row("points", _("Cheese points"), 28, strong=True),
        ]
        notes = [_("Tie: most cheese cards left on the board wins.")]
        super().__init__([seat.name for seat in seats], rows, notes)
        self.size = board_size(len(seats))
        self.board_title = _("Final board (%(size)d × %(size)d)") % {"size": self.size}
        steps = [f"{n}. {step[:1].lower()}{step[1:]}" for n, step in enumerate(removal_steps(), start=1)]
        self.legend = [
            " · ".join(f"{code} {meaning}" for code, meaning in animals().items()),
            _("A cheese (%(code)s): seat/points, e.g. 2/%(points)d") % {"code": CHEESE, "points": max(SIX_CHEESES)},
            _("Removed before counting, in this order:"),
            *steps,
        ]

    def wrap(self, availWidth, availHeight):
        self.width = availWidth
        above = self.notes_height() + self.table_height() + 2 * LINE
        self.square = max(14.0, min(MAX_SQUARE, (availHeight - above) / self.size, (availWidth - 150) / self.size))
        return super().wrap(availWidth, availHeight)

    def extra_height(self, width):
        return 2 * LINE + self.size * self.square

    def draw_cell(self, row, player, x, y, width):
        super().draw_cell(row, player, x, y, width)
        if row.kind != "cheeses":
            return
        c = self.canv
        box = min(14, (width - 8) / len(SIX_CHEESES))
        left = x + (width - box * len(SIX_CHEESES)) / 2
        for i, value in enumerate(SIX_CHEESES):
            cell(c, left + i * box, y + 4, box, box, line=0.6)
            draw_text(c, str(value), left + i * box, y + 4 + box, box, 9, size=6.5, minimum=4, align="center", pad=0)

    def draw_extra(self, bottom):
        c = self.canv
        y = bottom - 2 * LINE
        draw_text(c, self.board_title, 0, y, self.width, LINE, size=9, minimum=6, bold=True, pad=0)
        square = self.square
        top = y
        for row in range(self.size):
            for col in range(self.size):
                cell(c, col * square, top - (row + 1) * square, square, square, line=0.7)
        legend_x = self.size * square + 12
        for i, line in enumerate(self.legend):
            draw_text(
                c,
                line,
                legend_x,
                top - (i + 1) * LINE * 1.2,
                self.width - legend_x,
                LINE,
                size=8,
                minimum=5,
                colour=GREY if i >= 3 else INK,
                bold=i == 2,
                pad=0,
            )


def sheet(event, seats: Sequence[SeatLine]) -> Flowable:
    return CheeseRescueSheet(event, seats)
