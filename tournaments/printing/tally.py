"""The plainest printed sheet: a row per tally field of the rules, each player's number in digit boxes read back from
a picture of the sheet, and the total written in."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from scoring.registry import TallyField

from .boxes import ANY_DIGIT
from .common import SeatLine
from .grid import Digits, Line, PlayerColumns, Row, line_of_boxes

#: Digit boxes of a tally number. A tally field bounds neither its numbers nor their sign: three boxes, a number up to
#: 999 as the desk's paper form takes it, and no minus sign (a number's boxes are read as its digits alone).
TALLY_DIGITS = 3
#: A tally row's kind: its cells hold a player's number in digit boxes.
TALLY = "tally"


class TallySheet(PlayerColumns):
    """A row per tally field, each player's number in ``digits`` digit boxes (the highest place first), read into
    ``<field>[<seat>]``, the default table form's own names; the total is written in and not read."""

    def __init__(self, fields: Sequence[TallyField], seats: Sequence[SeatLine], digits: int = TALLY_DIGITS):
        rows = [Row("names", _("Players"), 22, kind="names")]
        rows += [
            Row(field.key, _(field.label), 34, hint=_(field.help) if field.help else "", kind=TALLY) for field in fields
        ]
        rows.append(Row("total", _("Total"), 30, strong=True))
        super().__init__([seat.name for seat in seats], rows)
        self.digits = digits

    def form_key(self) -> tuple:
        return (*super().form_key(), self.digits)

    def cell_line(self, row: Row, player: int, x: float, y: float, width: float, height: float) -> Line | None:
        if row.kind != TALLY:
            return None
        number = Digits(f"{row.key}[{player}]", f"{self.names[player]} · {row.label}", (ANY_DIGIT,) * self.digits)
        return line_of_boxes(x, y, width, height, [number], player)
