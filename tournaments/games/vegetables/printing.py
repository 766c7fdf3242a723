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

from scoring.vegetables import SEQUENCES_PER_MANCHE as CROSSES
from scoring.vegetables import pozzo_values

from ...printing.common import GREY, PALE, SHADE, CachedDrawing, SeatLine, cell, common_size, draw_caption, draw_text
from .labels import rows as row_labels

LABEL_WIDTH = 64
CHECK_WIDTH = 34
GAP = 8
MIN_PLAYER_WIDTH = 46
#: Row heights at full size, from the top of a manche block: title, names, pozzo, crosses, partial, bonus, total.
TITLE, NAMES, POZZO, PARTIAL, BONUS, TOTAL = 13, 22, 20, 20, 22, 20
CROSS_BOX = 11
#: Rows shrink to fit many manches on one page, never below this share of their size.
MIN_SCALE = 0.5
#: Rows grow into the room a page leaves, up to this share of their size (more room to write)...
MAX_SCALE = 2.0
#: ...but titles and names no more than this.
MAX_TEXT_SCALE = 1.25


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

    def draw_static(self):
        rows = self.rows(self.scale)
        placed, totals_top = self.blocks()
        for x, top, manche in placed:
            if x == LABEL_WIDTH:
                self.draw_labels(top - title_height(self.scale), rows)
            self.draw_block(x, top, manche, rows)
        self.draw_totals(totals_top)

    def draw_changing(self):
        c, pw, title, height = self.canv, self.player_width, title_height(self.scale), names_height(self.scale)
        placed, totals_top = self.blocks()
        size = common_size(self.names, pw, height, 8, 5, bold=True)
        for x, top, _manche in placed:
            for p, name in enumerate(self.names):
                draw_text(c, name, x + p * pw, top - title - height, pw, height, size, 5, bold=True, align="center")
        wide = self.totals_width()
        size = common_size(self.names, wide, height, 8.5, 5, bold=True)
        for p, name in enumerate(self.names):
            x = LABEL_WIDTH + p * wide
            draw_text(c, name, x, totals_top - title - height, wide, height, size, 5, bold=True, align="center")

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
        c, t, pw = self.canv, self.text, self.player_width
        title = title_height(self.scale)
        draw_text(c, self.titles[manche], x, top - title, self.block_width, title, size=8.5, minimum=6, bold=True)
        draw_text(c, t["check"], x + self.block_width - CHECK_WIDTH, top - title, CHECK_WIDTH, title, size=6, minimum=4)
        y = top - title
        check_x = x + len(self.names) * pw
        for key, height in rows:
            y -= height
            for p in range(len(self.names)):
                px = x + p * pw
                if key == "names":
                    cell(c, px, y, pw, height, fill=PALE)
                elif key == "crosses":
                    cell(c, px, y, pw, height)
                    self.draw_crosses(px, y, pw, height)
                elif key == "bonus":
                    cell(c, px, y, pw, height)
                    c.setLineWidth(0.3)
                    c.line(px + pw / 2, y + 2, px + pw / 2, y + height - 2)
                    draw_caption(c, self.bonus_captions[0], px, y + height, pw / 2)
                    draw_caption(c, self.bonus_captions[1], px + pw / 2, y + height, pw / 2)
                else:
                    cell(c, px, y, pw, height, line=1.1 if key == "total" else 0.6)
            self.draw_check(check_x, y, height, key)

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

    def draw_crosses(self, x: float, y: float, width: float, height: float) -> None:
        c = self.canv
        columns = self.cross_columns()
        box = self.cross_box(self.scale)
        left = x + (width - columns * box) / 2
        bottom = y + (height - (CROSSES // columns) * box) / 2
        c.setLineWidth(0.35)
        c.setStrokeColor(GREY)
        for row in range(CROSSES // columns):
            for col in range(columns):
                c.rect(left + col * box, bottom + row * box, box, box, stroke=1, fill=0)
        c.setStrokeColorRGB(0, 0, 0)

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
