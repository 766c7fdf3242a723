"""Snack Match: per player, the groups of each snack and tablecloth; the diet cards and zones in special diet."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from reportlab.platypus import Flowable

from scoring.snack_match import GRID_SIZE, SPECIAL_DIET

from ...printing.boxes import ANY_DIGIT
from ...printing.common import GREY, SeatLine, cell, common_size, draw_text
from ...printing.grid import SPACE, WRITE_IN, Digits, PlayerColumns, Row, line_of_boxes
from .labels import card_title, component_title, components, modifiers

ZONE_SQUARE = 30
LEGEND = 14
#: Least heights of the names row, of a row of write-in boxes (about 9 mm boxes) and of the tiebreak's row.
NAMES, BOX_ROW, TIEBREAK_ROW = 17, 29, 25
#: A component's cell holds the sizes of this many groups, then their points: the first may be 10 or more (a zone
#: has 16 squares, so only one group of a kind can be), the others take one digit.
GROUPS = 3


def short_codes(names: dict[str, str]) -> dict[str, str]:
    """A short, distinct code per component for the zone squares: the fewest first letters that differ."""
    for length in range(1, 6):
        codes = {key: name[:length].strip().capitalize() for key, name in names.items()}
        if len(set(codes.values())) == len(codes):
            return codes
    return {key: str(n) for n, key in enumerate(names, start=1)}


class SnackMatchSheet(PlayerColumns):
    sheets_per_page = 2

    def __init__(self, event, seats: Sequence[SeatLine]):
        kinds = components(event.options)
        self.names_by_key = {f"{kind}.{key}": name for kind, named in kinds.items() for key, name in named.items()}
        self.diet = event.effective_variant == SPECIAL_DIET
        group_hint = _("sizes of groups of 3+ → points")
        points_hint = _("each group: size − 2")
        rows = [Row("names", _("Players"), NAMES, kind="names")]
        rows += [
            Row(f"{kind}.{key}", component_title(kind, name), BOX_ROW, hint=group_hint, kind="groups")
            for kind, named in kinds.items()
            for key, name in named.items()
        ]
        notes = [_("Every group of 3 or more identical snacks or tablecloths scores its size minus 2.")]
        if self.diet:
            rows.append(Row("groups_points", _("Group points"), BOX_ROW, hint=points_hint))
            for number, card in enumerate((event.options or {}).get("diet") or [], start=1):
                modifier = modifiers().get(card.get("modifier"), card.get("modifier", ""))
                label = _("Diet card %(number)d") % {"number": number}
                rows.append(Row(f"diet{number}", label, BOX_ROW, hint=f"{card_title(card, kinds)} · {modifier}"))
            notes.append(
                _("Special diet: draw each picnic zone below, a code per square, so the diet cards are scored.")
            )
        rows += [
            Row("total", _("Total"), BOX_ROW, hint="" if self.diet else points_hint, strong=True),
            Row("largest", _("Largest group"), TIEBREAK_ROW, hint=_("breaks ties")),
        ]
        notes.append(_("Tie: the largest group wins."))
        super().__init__([seat.name for seat in seats], rows, notes)
        self.group_label = _("group %(number)d")
        codes = short_codes(self.names_by_key)
        self.legend = " · ".join(f"{codes[key]} = {name}" for key, name in self.names_by_key.items())
        first_snack, first_cloth = (f"{kind}.{next(iter(named), '')}" for kind, named in kinds.items())
        self.zone_title = _("Picnic zones: write snack/tablecloth in each square, e.g. %(example)s") % {
            "example": f"{codes.get(first_snack, '')}/{codes.get(first_cloth, '')}"
        }

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

    def zone_square(self) -> float:
        return min(ZONE_SQUARE, (self.player_width - 8) / GRID_SIZE)

    def extra_height(self, width):
        return 12 + 3 * LEGEND + GRID_SIZE * self.zone_square() + 4 if self.diet else 0

    def draw_extra(self, bottom):
        if not self.diet:
            return
        c = self.canv
        y = bottom - 12 - LEGEND
        draw_text(c, self.zone_title, 0, y, self.width, LEGEND, size=8, minimum=5, bold=True, pad=0)
        y -= LEGEND
        draw_text(c, self.legend, 0, y, self.width, LEGEND, size=7.5, minimum=5, colour=GREY, pad=0)
        square = self.zone_square()
        y -= LEGEND + 2 + GRID_SIZE * square + 2
        for p in range(len(self.names)):
            x = self.label_width + p * self.player_width + (self.player_width - GRID_SIZE * square) / 2
            for row in range(GRID_SIZE):
                for col in range(GRID_SIZE):
                    cell(c, x + col * square, y + row * square, square, square, line=0.5)

    def draw_extra_names(self, bottom):
        if not self.diet:
            return
        y = bottom - 12 - 3 * LEGEND - 2
        size = common_size(self.names, self.player_width, LEGEND, 8, 5, bold=True)
        for p, name in enumerate(self.names):
            x = self.column_x(p)
            draw_text(self.canv, name, x, y, self.player_width, LEGEND, size=size, minimum=5, bold=True, align="center")


def sheet(event, seats: Sequence[SeatLine]) -> Flowable:
    return SnackMatchSheet(event, seats)
