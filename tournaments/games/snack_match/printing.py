"""Snack Match: per player, the groups of each snack and tablecloth; in the special diet, which takes only grids,
each player's picnic zone square by square (a snack's letter and a tablecloth's) and the diet cards instead."""

from __future__ import annotations

import string
import unicodedata
from collections.abc import Sequence

from django.utils.translation import gettext as _
from reportlab.platypus import Flowable

from scoring.snack_match import GRID_SIZE, SPECIAL_DIET

from ...printing.boxes import ANY_DIGIT, Box
from ...printing.common import GREY, SeatLine, cell, common_size, draw_text
from ...printing.grid import SPACE, WRITE_IN, Digits, Letter, PlayerColumns, Row, line_of_boxes
from .labels import KIND_OF, card_title, component_title, components, kinds, modifiers

#: A zone square's width at most (its two letter boxes side by side) and its height, the zones side by side on a
#: line and the room between them, across and down.
ZONE_WIDTH, ZONE_HEIGHT, ZONES_PER_LINE, ZONE_GAP, LINE_GAP = 52, 36, 2, 24, 8
#: A line of the zones' legend, and of a zone's name over it.
LEGEND = 14
#: The room between the rows and the zones' title.
ZONES_GAP = 12
#: Least heights of the names row, of a row of write-in boxes (about 9 mm boxes) and of the tiebreak's row.
NAMES, BOX_ROW, TIEBREAK_ROW = 17, 29, 25
#: A component's cell holds the sizes of this many groups, then their points: the first may be 10 or more (a zone
#: has 16 squares, so only one group of a kind can be), the others take one digit.
GROUPS = 3


def short_codes(names: dict[str, str]) -> dict[str, str]:
    """A character per component of one kind, distinct, written in a zone square's box: the first letter of its name
    not taken yet, else any capital letter not taken, else a digit (a kind of more components than letters)."""
    codes: dict[str, str] = {}
    for key, name in names.items():
        taken = set(codes.values())
        characters = (*plain_letters(name), *string.ascii_uppercase, *string.digits)
        codes[key] = next(character for character in characters if character not in taken)
    return codes


def plain_letters(name: str) -> list[str]:
    """The letters of ``name`` as capitals without their accents, in order (``Ñoquis`` gives N, O, Q...)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().upper()
    return [letter for letter in plain if letter in string.ascii_uppercase]


class SnackMatchSheet(PlayerColumns):
    sheets_per_page = 2

    def __init__(self, event, seats: Sequence[SeatLine]):
        named = components(event.options)
        self.diet = event.effective_variant == SPECIAL_DIET
        group_hint = _("sizes of groups of 3+ → points")
        points_hint = _("each group: size − 2")
        rows = [Row("names", _("Players"), NAMES, kind="names")]
        notes = [_("Every group of 3 or more identical snacks or tablecloths scores its size minus 2.")]
        if self.diet:
            rows.append(Row("groups_points", _("Group points"), BOX_ROW, hint=points_hint))
            for number, card in enumerate((event.options or {}).get("diet") or [], start=1):
                modifier = modifiers().get(card.get("modifier"), card.get("modifier", ""))
                label = _("Diet card %(number)d") % {"number": number}
                rows.append(Row(f"diet{number}", label, BOX_ROW, hint=f"{card_title(card, named)} · {modifier}"))
            notes.append(
                _("Special diet: write each picnic zone below, square by square, so the diet cards are scored.")
            )
        else:
            rows += [
                Row(f"{kind}.{key}", component_title(kind, name), BOX_ROW, hint=group_hint, kind="groups")
                for kind, names in named.items()
                for key, name in names.items()
            ]
        rows += [
            Row("total", _("Total"), BOX_ROW, hint="" if self.diet else points_hint, strong=True),
            Row("largest", _("Largest group"), TIEBREAK_ROW, hint=_("breaks ties")),
        ]
        notes.append(_("Tie: the largest group wins."))
        super().__init__([seat.name for seat in seats], rows, notes)
        self.group_label = _("group %(number)d")
        self.codes = {kind: short_codes(names) for kind, names in named.items()}
        self.legend = [
            component_title(kind, " · ".join(f"{self.codes[kind][key]} = {name}" for key, name in names.items()))
            for kind, names in named.items()
        ]
        self.zone_title = _(
            "Picnic zones: in each square, the snack's letter in the left box and the tablecloth's in the right one."
        )
        self.square_label = _("Row %(row)d, column %(column)d")
        self.zone_label = _("Picnic zone")
        self.kind_words = kinds()

    def cell_line(self, row, player, x, y, width, height):
        """A component's cell: the sizes of its groups, a number each (the first two digits), → their points."""
        if row.kind != "groups":
            return None
        kind, key = row.key.split(".", 1)
        path = f"zones[{player}].groups.{kind}.{key}"
        label = f"{self.names[player]} · {row.label}"
        parts = []
        for i in range(GROUPS):
            allowed = ("01", ANY_DIGIT) if i == 0 else (ANY_DIGIT,)
            parts += [SPACE] if i else []
            parts.append(Digits(f"{path}[{i}]", f"{label} · {self.group_label % {'number': i + 1}}", allowed))
        return line_of_boxes(x, y, width, height, [*parts, "→", WRITE_IN], player)

    def zone_square(self) -> tuple[float, float]:
        """A zone square's width and height."""
        across = (self.width - (ZONES_PER_LINE - 1) * ZONE_GAP) / (ZONES_PER_LINE * GRID_SIZE)
        return min(ZONE_WIDTH, across), ZONE_HEIGHT

    def zone_lines(self) -> int:
        return -(-len(self.names) // ZONES_PER_LINE)

    def line_height(self) -> float:
        """A line of zones: the players' names over their zones, and the room under them."""
        return LEGEND + GRID_SIZE * ZONE_HEIGHT + LINE_GAP

    def zones_heading(self) -> float:
        """The zones' title and legend, and the room over them."""
        return ZONES_GAP + (1 + len(self.legend)) * LEGEND

    def extra_height(self, width):
        return self.zones_heading() + self.zone_lines() * self.line_height() if self.diet else 0

    def zone_corners(self) -> list[tuple[float, float]]:
        """Each player's zone's bottom left corner (after ``wrap``), its name just over it, in lines of
        ``ZONES_PER_LINE`` centred across the sheet."""
        across, _down = self.zone_square()
        side = GRID_SIZE * across
        top = self.rows_top() - self.table_height() - self.zones_heading()
        corners = []
        for p in range(len(self.names)):
            line, place = divmod(p, ZONES_PER_LINE)
            on_line = min(ZONES_PER_LINE, len(self.names) - line * ZONES_PER_LINE)
            left = (self.width - on_line * side - (on_line - 1) * ZONE_GAP) / 2
            bottom = top - line * self.line_height() - LEGEND - GRID_SIZE * ZONE_HEIGHT
            corners.append((left + place * (side + ZONE_GAP), bottom))
        return corners

    def zone_lines_of_boxes(self):
        """Each zone square's letter boxes: (player, the square's left and bottom, its line of boxes)."""
        across, down = self.zone_square()
        for p, (left, bottom) in enumerate(self.zone_corners()):
            for r in range(GRID_SIZE):
                for c in range(GRID_SIZE):
                    x, y = left + c * across, bottom + (GRID_SIZE - 1 - r) * down
                    yield p, x, y, line_of_boxes(x, y, across, down, self.square_letters(p, r, c), p)

    def square_letters(self, player: int, r: int, c: int) -> list[Letter]:
        """A zone square's two letter boxes: the snack's, then the tablecloth's."""
        where = self.square_label % {"row": r + 1, "column": c + 1}
        letters = []
        for kind, codes in self.codes.items():
            path = f"zones[{player}].grid[{r}][{c}].{KIND_OF[kind]}"
            label = f"{self.names[player]} · {self.zone_label} · {where} · {self.kind_words[KIND_OF[kind]]}"
            letters.append(Letter(path, label, "".join(codes.values()), tuple(codes)))
        return letters

    def boxes(self) -> list[Box]:
        zones = [box for *_at, line in self.zone_lines_of_boxes() for box in line.boxes] if self.diet else []
        return super().boxes() + zones

    def draw_extra(self, bottom):
        if not self.diet:
            return
        c = self.canv
        y = bottom - ZONES_GAP - LEGEND
        draw_text(c, self.zone_title, 0, y, self.width, LEGEND, size=8, minimum=5, bold=True, pad=0)
        for line in self.legend:
            y -= LEGEND
            draw_text(c, line, 0, y, self.width, LEGEND, size=7.5, minimum=5, colour=GREY, pad=0)
        across, down = self.zone_square()
        for _p, x, y, line in self.zone_lines_of_boxes():
            cell(c, x, y, across, down, line=0.5)
            line.draw(c)

    def draw_extra_names(self, bottom):
        if not self.diet:
            return
        across, _down = self.zone_square()
        size = common_size(self.names, GRID_SIZE * across, LEGEND, 8, 5, bold=True)
        for name, (x, y) in zip(self.names, self.zone_corners()):
            top = y + GRID_SIZE * ZONE_HEIGHT
            draw_text(
                self.canv, name, x, top, GRID_SIZE * across, LEGEND, size=size, minimum=5, bold=True, align="center"
            )


def sheet(event, seats: Sequence[SeatLine]) -> Flowable:
    return SnackMatchSheet(event, seats)
