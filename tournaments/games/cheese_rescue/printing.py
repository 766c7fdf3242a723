"""Cheese Rescue: a row per player (cheeses left, cards left, points) and the final board of the table's size.

Either is what the table enters: each player's tallies, or the final board, square by square: in each square the
card's letter and, for a cheese, its owner's seat and its points, in boxes a hand can write one character in. Two
sheets go on a page at every table size, on A4 and on Letter.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from reportlab.platypus import Flowable

from scoring.cheese_rescue import BOARD_SIZES, CHEESE, SIX_CHEESES, START, START_CARDS

from ...printing.boxes import DIGIT, LETTER, MARK, TABLE, Box
from ...printing.common import GREY, INK, PALE, SHADE, CachedDrawing, SeatLine, cell, common_size, draw_text
from ...printing.grid import TALLEST_DIGIT, draw_boxes
from .labels import card_letters, card_names, removal_steps

#: Inside a square: the room between its rules and its boxes, and between two boxes.
SQUARE_PAD, BOX_GAP = 2, 1.5
#: The least side of a box in a square (5 mm, a form's box for one handwritten character).
SMALLEST_BOX = 14
#: A board square at its smallest, room for two boxes side by side and a letter box over them; at its largest; and
#: at its tallest for its width.
MIN_SQUARE, MAX_SQUARE, TALLEST_SQUARE = 2 * SQUARE_PAD + BOX_GAP + 2 * SMALLEST_BOX, 60, 1.3
#: A letter box is this many times as wide as a digit box under it.
LETTER_WIDTH = 1.3
BOARD_TITLE = 14
#: The strip of column numbers over the board (row numbers go in the gap to its left).
NUMBERS = 9
GAP = 14
HEAD = 30
#: A player's row at its least and at its tallest.
PLAYER_ROW, TALLEST_ROW = 30, 44
#: A tick box under each cheese value, this far from the next, and the strip of the values over them.
TICK, TICK_GAP, VALUES = 12, 2, 9
#: Widths of the columns after the names, and the least width of the names' column.
CHEESES, CARDS, POINTS, NAMES = len(SIX_CHEESES) * (TICK + TICK_GAP) - TICK_GAP + 10, 46, 46, 80
LINE = 10
#: Where the seat and the points written in the board's squares go, square by square (``board`` has the letters).
SEAT_KEY, POINTS_KEY = "cheese_seat", "cheese_points"
#: Cheese points a card may be worth: the digits its points box allows.
POINT_DIGITS = "".join(str(value) for value in sorted(set(SIX_CHEESES)))


def board_size(players: int) -> int:
    """5 x 5 for two players, 6 x 6 for three, 7 x 7 for four."""
    return BOARD_SIZES.get(players, BOARD_SIZES[min(BOARD_SIZES, key=lambda n: abs(n - players))])


def seat_path(r: int, c: int) -> str:
    """The path of the seat written for a cheese in square (r, c)."""
    return f"{SEAT_KEY}[{r}][{c}]"


def points_path(r: int, c: int) -> str:
    """The path of the points written for a cheese in square (r, c)."""
    return f"{POINTS_KEY}[{r}][{c}]"


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
        self.cards = {
            code: letter for code, letter in card_letters().items() if code != START or START_CARDS.get(len(seats), 1)
        }
        names = card_names()
        steps = [f"{n}. {step[:1].lower()}{step[1:]}" for n, step in enumerate(removal_steps(), start=1)]
        self.legend = [
            _("Tie: most cheese cards left on the board wins."),
            _("Tick the cheeses left, or write the final board."),
            " · ".join(f"{letter} {names[code]}" for code, letter in self.cards.items()),
            _("A cheese: %(letter)s, and under it its owner's seat and its points.") % {"letter": self.cards[CHEESE]},
            _("Removed before counting, in this order:"),
            *steps,
        ]
        #: The legend's lines from this one on are the removals' steps (the first in bold).
        self.steps_from = len(self.legend) - len(steps) - 1
        self.square_labels = (_("Final board"), _("card"), _("seat"), _("points"))

    def form_key(self):
        return (*super().form_key(), len(self.names), self.across, self.down, self.row)

    def left_height(self, row: float) -> float:
        """The players' rows and the legend under them."""
        return HEAD + len(self.names) * row + 8 + len(self.legend) * LINE

    def wrap(self, availWidth, availHeight):
        """The board beside the rows, its squares as big as the room allows (up to ``MAX_SQUARE``, no taller than
        ``TALLEST_SQUARE`` times their width), never too small for their boxes."""
        self.width = availWidth
        room = (availWidth - NAMES - CHEESES - CARDS - POINTS - GAP) / self.size
        self.across = max(MIN_SQUARE, min(MAX_SQUARE, room))
        tallest = min(MAX_SQUARE, TALLEST_SQUARE * self.across, (availHeight - BOARD_TITLE - NUMBERS) / self.size)
        self.down = max(MIN_SQUARE, tallest)
        board = BOARD_TITLE + NUMBERS + self.size * self.down
        self.row = max(PLAYER_ROW, min(TALLEST_ROW, (board - self.left_height(0)) / max(1, len(self.names))))
        self.height = max(board, self.left_height(self.row))
        self.board_left = availWidth - self.size * self.across
        self.board_top = self.height - BOARD_TITLE - NUMBERS
        self.names_width = self.board_left - GAP - CHEESES - CARDS - POINTS
        return availWidth, self.height

    @property
    def square(self) -> float:
        """A board square's narrower side (after ``wrap``)."""
        return min(self.across, self.down)

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
        self.draw_legend()
        self.draw_board()

    def draw_legend(self) -> None:
        """Under the players' rows, beside the board."""
        y = self.height - HEAD - len(self.names) * self.row - 8
        for i, line in enumerate(self.legend):
            y -= LINE
            colour, bold = (GREY, False) if i > self.steps_from else (INK, i == self.steps_from)
            width = self.board_left - GAP
            draw_text(self.canv, line, 0, y, width, LINE, size=7.5, minimum=5, colour=colour, bold=bold, pad=0)

    def player_rows(self) -> list[float]:
        """The bottom of each player's row."""
        top = self.height - HEAD
        return [top - (p + 1) * self.row for p in range(len(self.names))]

    def boxes(self) -> list[Box]:
        """The boxes read back (after ``wrap``): a tick box under each of a player's six cheese values, the cheeses
        left; then each square of the board's, row by row."""
        return self.tick_boxes() + [
            box for r in range(self.size) for c in range(self.size) for box in self.square_boxes(r, c)
        ]

    def tick_boxes(self) -> list[Box]:
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

    def square_boxes(self, r: int, c: int) -> list[Box]:
        """Square (r, c)'s boxes: the card's letter over the cheese's seat and points."""
        x, y = self.board_left + c * self.across, self.board_top - (r + 1) * self.down
        tall = min((self.down - 2 * SQUARE_PAD - BOX_GAP) / 2, TALLEST_DIGIT)
        digit = (self.across - 2 * SQUARE_PAD - BOX_GAP) / 2
        letter = min(self.across - 2 * SQUARE_PAD, digit * LETTER_WIDTH)
        title, card, seat, points = self.square_labels
        label = f"{title} · " + _("Row %(row)d, column %(column)d") % {"row": r + 1, "column": c + 1}
        players = "".join(str(number) for number in range(1, len(self.names) + 1))
        written = (x + (self.across - letter) / 2, y + self.down - SQUARE_PAD - tall, letter, tall)
        seat_at = (x + SQUARE_PAD, y + SQUARE_PAD, digit, tall)
        points_at = (x + self.across - SQUARE_PAD - digit, y + SQUARE_PAD, digit, tall)
        letters, codes = "".join(self.cards.values()), tuple(self.cards)
        return [
            Box(f"board[{r}][{c}]", LETTER, *written, TABLE, f"{label} · {card}", allowed=letters, means=codes),
            Box(seat_path(r, c), DIGIT, *seat_at, TABLE, f"{label} · {seat}", allowed=players),
            Box(points_path(r, c), DIGIT, *points_at, TABLE, f"{label} · {points}", allowed=POINT_DIGITS),
        ]

    def draw_ticks(self) -> None:
        """The tick boxes, each under its cheese's value."""
        c, boxes = self.canv, self.tick_boxes()
        draw_boxes(c, boxes)
        for box in boxes:
            draw_text(
                c, box.value, box.x, box.y + box.height, box.width, VALUES, size=6.5, minimum=4, align="center", pad=0
            )

    def draw_board(self) -> None:
        """The board, its columns and rows numbered as the table form names its squares, and its boxes."""
        c = self.canv
        left, top, across, down = self.board_left, self.board_top, self.across, self.down
        title_at = top + NUMBERS
        draw_text(
            c, self.board_title, left, title_at, self.size * across, BOARD_TITLE, size=9, minimum=6, bold=True, pad=0
        )
        for i in range(self.size):
            number = str(i + 1)
            draw_text(c, number, left + i * across, top, across, NUMBERS, size=6.5, colour=GREY, align="center", pad=0)
            y = top - (i + 1) * down
            draw_text(c, number, left - GAP, y, GAP - 3, down, size=6.5, colour=GREY, align="right", pad=0)
        c.setStrokeColor(GREY)
        for row in range(self.size):
            for col in range(self.size):
                cell(c, left + col * across, top - (row + 1) * down, across, down, line=0.4)
        draw_boxes(c, self.boxes()[len(self.tick_boxes()) :])

    def draw_changing(self):
        x, width = self.columns()[0]
        size = common_size(self.names, width, self.row, 9, 5, bold=True)
        for name, y in zip(self.names, self.player_rows()):
            draw_text(self.canv, name, x, y, width, self.row, size, 5, bold=True)


def sheet(event, seats: Sequence[SeatLine]) -> Flowable:
    return CheeseRescueSheet(event, seats)
