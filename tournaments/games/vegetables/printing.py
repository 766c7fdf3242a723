"""VEGEtables: the Modulo Segnapunti, one column block per manche of the round, then the round's totals.

Each block is the rulebook's sheet: the names row, the pozzo row with its check box (at most 60 with four
players), the crosses grid with its check box (16 crosses a manche), partial totals, the bonus (+30) and
penalty (-50) row, and the manche total.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from django.utils.translation import gettext as _
from reportlab.platypus import Flowable

from scoring.vegetables import FAMILIES, pozzo_values
from scoring.vegetables import SEQUENCES_PER_MANCHE as CROSSES

from ...printing.boxes import ANY_DIGIT, MARK, Box
from ...printing.common import GREY, PALE, SHADE, CachedDrawing, SeatLine, cell, common_size, draw_caption, draw_text
from ...printing.grid import Digits, draw_boxes, line_of_boxes
from .entry import BASE
from .labels import rows as row_labels

LABEL_WIDTH = 64
CHECK_WIDTH = 34
GAP = 8
MIN_PLAYER_WIDTH = 46
#: Row heights at full size, from the top of a manche block: title, names, pozzo, crosses, partial, bonus, total.
TITLE, NAMES, POZZO, PARTIAL, BONUS, TOTAL = 13, 22, 20, 20, 22, 20
CROSS_BOX = 11
#: The height of a cell's caption (``draw_caption``), kept clear of the boxes under it.
CAPTION = 5.5 * 1.5
#: Rows shrink to fit many manches on one page, never below this share of their size.
MIN_SCALE = 0.5
#: Rows grow into the room a page leaves, up to this share of their size (more room to write)...
MAX_SCALE = 2.0
#: ...but titles and names no more than this.
MAX_TEXT_SCALE = 1.25
#: A name is shrunk down to this size to be printed whole (a word is never split), and cut short only below it;
#: a name that needs it may take the padding of its cell too: Brzęczyszczykiewicz fits four players to a block.
NAME_MINIMUM, NAME_PAD = 4, 1


def title_height(scale: float) -> float:
    return TITLE * min(scale, MAX_TEXT_SCALE)


def names_height(scale: float) -> float:
    return NAMES * min(scale, MAX_TEXT_SCALE)


class VegetablesSheet(CachedDrawing):
    """The Modulo Segnapunti of one table for ``manches`` manches, fitted to the height it is given."""

    def __init__(self, event, seats: Sequence[SeatLine]):
        super().__init__()
        self.names = [seat.name for seat in seats]
        self.manches = max(1, event.manches_per_round)
        values = pozzo_values(len(self.names))
        self.pozzo_max = sum(values)
        labels = row_labels()
        self.pozzo_digits = tuple("".join(sorted({str(v // 10**place % 10) for v in values})) for place in (1, 0))
        self.row_names = {key: labels[key].label for key in ("pozzo", "sequences", "family_bonuses", "penalties")}
        self.bonus_captions = (labels["family_bonuses"].short, labels["penalties"].short)
        self.text = {
            "players": _("Players"),
            "pozzo": labels["pozzo"].short,
            "pozzo_values": " · ".join(str(v) for v in values),
            "crosses": labels["sequences"].short,
            "partial": _("Partial total"),
            "partial_help": _("pozzo + crosses"),
            "bonus": _("Bonus %(bonus)s / Penalty %(penalty)s")
            % {"bonus": self.bonus_captions[0], "penalty": self.bonus_captions[1]},
            "total": _("Manche total"),
            "check": _("Check"),
            "pozzo_check": _("max %(points)d") % {"points": self.pozzo_max},
            "crosses_check": _("= %(crosses)d") % {"crosses": CROSSES},
            "round_total": _("Round total"),
            "sum_help": _("sum of the manches"),
            "place": _("Place"),
        }
        self.titles = [_("Manche %(number)d") % {"number": n} for n in range(1, self.manches + 1)]

    def layout(self, width: float) -> None:
        players = max(1, len(self.names))
        for across in (3, 2, 1):
            player_width = (width - LABEL_WIDTH - across * CHECK_WIDTH - (across - 1) * GAP) / (across * players)
            if across == 1 or (across <= self.manches and player_width >= MIN_PLAYER_WIDTH):
                break
        self.across, self.player_width = across, player_width
        self.block_rows = math.ceil(self.manches / across)
        self.block_width = players * player_width + CHECK_WIDTH

    def natural_height(self, scale: float = 1) -> float:
        block = title_height(scale) + sum(height for _key, height in self.rows(scale))
        final = title_height(scale) + names_height(scale) + 2 * TOTAL * scale
        return self.block_rows * (block + GAP) + final

    def cross_columns(self) -> int:
        return 8 if (self.player_width - 6) / 8 >= CROSS_BOX else 4

    def cross_box(self, scale: float = 1) -> float:
        return min(CROSS_BOX * scale, (self.player_width - 6) / self.cross_columns())

    def wrap(self, availWidth, availHeight):
        self.width = availWidth
        self.layout(availWidth)
        self.scale = MAX_SCALE
        while self.scale > MIN_SCALE and self.natural_height(self.scale) > availHeight:
            self.scale -= 0.02
        self.height = self.natural_height(self.scale)
        return availWidth, self.height

    def rows(self, scale: float) -> list[tuple[str, float]]:
        crosses = (CROSSES // self.cross_columns()) * self.cross_box(scale) + 6 * scale
        return [
            ("names", names_height(scale)),
            ("pozzo", POZZO * scale),
            ("crosses", crosses),
            ("partial", PARTIAL * scale),
            ("bonus", BONUS * scale),
            ("total", TOTAL * scale),
        ]

    def form_key(self):
        return (*super().form_key(), len(self.names), self.manches, self.scale)

    def blocks(self):
        """Each manche block as (left, top, manche index), and the top of the round's totals."""
        top = self.height
        block_height = title_height(self.scale) + sum(h for _key, h in self.rows(self.scale))
        placed = []
        for block_row in range(self.block_rows):
            first = block_row * self.across
            for i, manche in enumerate(range(first, min(first + self.across, self.manches))):
                placed.append((LABEL_WIDTH + i * (self.block_width + GAP), top, manche))
            top -= block_height + GAP
        return placed, top

    def totals_width(self) -> float:
        return min(self.player_width * 1.6, (self.width - LABEL_WIDTH) / max(1, len(self.names)))

    def cells(self):
        """Each player's cell of every manche block: (row key, manche index, player, left, bottom, height)."""
        rows = self.rows(self.scale)
        placed, _totals_top = self.blocks()
        for x, top, manche in placed:
            y = top - title_height(self.scale)
            for key, height in rows:
                y -= height
                for p in range(len(self.names)):
                    yield key, manche, p, x + p * self.player_width, y, height

    def cell_boxes(self, key: str, manche: int, p: int, x: float, y: float, height: float) -> list[Box]:
        """The boxes of a cell read back: the pozzo's two digits, the crosses, a digit each for the family
        bonuses and the penalties (under their captions)."""
        pw, number = self.player_width, manche + 1
        label = f"{self.names[p]} · %s"
        if key == "pozzo":
            pozzo = Digits(f"{BASE}.pozzo[{p}]", label % self.row_names["pozzo"], self.pozzo_digits)
            return line_of_boxes(x, y, pw, height, [pozzo], p, number).boxes
        if key == "crosses":
            columns, box = self.cross_columns(), self.cross_box(self.scale)
            left = x + (pw - columns * box) / 2
            bottom = y + (height - (CROSSES // columns) * box) / 2
            path, name = f"{BASE}.sequences[{p}]", label % self.row_names["sequences"]
            return [
                Box(path, MARK, left + col * box, bottom + row * box, box, box, p, name, manche=number)
                for row in reversed(range(CROSSES // columns))
                for col in range(columns)
            ]
        if key == "bonus":
            below = height - CAPTION
            allowed = "".join(str(n) for n in range(FAMILIES + 1))
            bonus = Digits(f"{BASE}.family_bonuses[{p}]", label % self.row_names["family_bonuses"], (allowed,))
            penalty = Digits(f"{BASE}.penalties[{p}]", label % self.row_names["penalties"], (ANY_DIGIT,))
            return [
                *line_of_boxes(x, y, pw / 2, below, [bonus], p, number).boxes,
                *line_of_boxes(x + pw / 2, y, pw / 2, below, [penalty], p, number).boxes,
            ]
        return []

    def boxes(self) -> list[Box]:
        """The boxes read back, in the sheet's frame (after ``wrap``)."""
        return [box for cell_at in self.cells() for box in self.cell_boxes(*cell_at)]

    def draw_static(self):
        rows = self.rows(self.scale)
        placed, totals_top = self.blocks()
        for x, top, manche in placed:
            if x == LABEL_WIDTH:
                self.draw_labels(top - title_height(self.scale), rows)
            self.draw_block(x, top, manche, rows)
        for cell_at in self.cells():
            self.draw_cell(*cell_at)
        self.draw_totals(totals_top)

    def draw_changing(self):
        c, pw, title, height = self.canv, self.player_width, title_height(self.scale), names_height(self.scale)
        placed, totals_top = self.blocks()
        size = common_size(self.names, pw, height, 8, NAME_MINIMUM, bold=True)
        for x, top, _manche in placed:
            for p, name in enumerate(self.names):
                y = top - title - height
                draw_text(c, name, x + p * pw, y, pw, height, size, NAME_MINIMUM, True, "center", pad=NAME_PAD)
        wide = self.totals_width()
        size = common_size(self.names, wide, height, 8.5, NAME_MINIMUM, bold=True)
        for p, name in enumerate(self.names):
            x, y = LABEL_WIDTH + p * wide, totals_top - title - height
            draw_text(c, name, x, y, wide, height, size, NAME_MINIMUM, True, "center", pad=NAME_PAD)

    def draw_labels(self, top: float, rows) -> None:
        c, t = self.canv, self.text
        labels = {
            "names": (t["players"], ""),
            "pozzo": (t["pozzo"], t["pozzo_values"]),
            "crosses": (t["crosses"], ""),
            "partial": (t["partial"], t["partial_help"]),
            "bonus": (t["bonus"], ""),
            "total": (t["total"], ""),
        }
        for key, height in rows:
            top -= height
            label, help_text = labels[key]
            cell(c, 0, top, LABEL_WIDTH, height, fill=SHADE)
            if help_text:
                draw_text(c, label, 0, top + height * 0.35, LABEL_WIDTH, height * 0.65, size=7.5, minimum=5, bold=True)
                draw_text(c, help_text, 0, top, LABEL_WIDTH, height * 0.4, size=5.5, minimum=4, colour=GREY)
            else:
                draw_text(c, label, 0, top, LABEL_WIDTH, height, size=7.5, minimum=5, bold=True)

    def draw_block(self, x: float, top: float, manche: int, rows) -> None:
        """A manche block's title and its check column; the players' cells are ``draw_cell``'s."""
        c, t = self.canv, self.text
        title = title_height(self.scale)
        draw_text(c, self.titles[manche], x, top - title, self.block_width, title, size=8.5, minimum=6, bold=True)
        draw_text(c, t["check"], x + self.block_width - CHECK_WIDTH, top - title, CHECK_WIDTH, title, size=6, minimum=4)
        y = top - title
        check_x = x + len(self.names) * self.player_width
        for key, height in rows:
            y -= height
            self.draw_check(check_x, y, height, key)

    def draw_cell(self, key: str, manche: int, p: int, x: float, y: float, height: float) -> None:
        c, pw = self.canv, self.player_width
        if key == "names":
            cell(c, x, y, pw, height, fill=PALE)
            return
        cell(c, x, y, pw, height, line=1.1 if key == "total" else 0.6)
        if key == "bonus":
            c.setLineWidth(0.3)
            c.line(x + pw / 2, y + 2, x + pw / 2, y + height - 2)
            draw_caption(c, self.bonus_captions[0], x, y + height, pw / 2)
            draw_caption(c, self.bonus_captions[1], x + pw / 2, y + height, pw / 2)
        draw_boxes(c, self.cell_boxes(key, manche, p, x, y, height))

    def draw_check(self, x: float, y: float, height: float, key: str) -> None:
        c, t = self.canv, self.text
        if key == "pozzo":
            cell(c, x, y, CHECK_WIDTH, height)
            draw_caption(c, t["pozzo_check"], x, y + height, CHECK_WIDTH)
        elif key == "crosses":
            cell(c, x, y, CHECK_WIDTH, height)
            draw_caption(c, t["crosses_check"], x, y + height, CHECK_WIDTH)
            box = min(CHECK_WIDTH - 12, height - 14)
            cell(c, x + (CHECK_WIDTH - box) / 2, y + 4, box, box, line=0.9)
        else:
            cell(c, x, y, CHECK_WIDTH, height, fill=SHADE)

    def draw_totals(self, top: float) -> None:
        """The round's totals: each player's manche totals added up, and the place at the table."""
        c, t, s = self.canv, self.text, self.scale
        pw = self.totals_width()
        title = title_height(s)
        draw_text(c, t["round_total"], LABEL_WIDTH, top - title, 200, title, size=8.5, minimum=6, bold=True)
        y = top - title
        for key, height in (("names", names_height(s)), ("total", TOTAL * s), ("place", TOTAL * s)):
            y -= height
            label = {"names": t["players"], "total": t["round_total"], "place": t["place"]}[key]
            cell(c, 0, y, LABEL_WIDTH, height, fill=SHADE)
            if key == "total":
                draw_text(c, label, 0, y + height * 0.35, LABEL_WIDTH, height * 0.65, size=7.5, minimum=5, bold=True)
                draw_text(c, t["sum_help"], 0, y, LABEL_WIDTH, height * 0.4, size=5.5, minimum=4, colour=GREY)
            else:
                draw_text(c, label, 0, y, LABEL_WIDTH, height, size=7.5, minimum=5, bold=True)
            for p in range(len(self.names)):
                px = LABEL_WIDTH + p * pw
                if key == "names":
                    cell(c, px, y, pw, height, fill=PALE)
                else:
                    cell(c, px, y, pw, height, line=1.3 if key == "total" else 0.6)


def sheet(event, seats: Sequence[SeatLine]) -> Flowable:
    return VegetablesSheet(event, seats)
