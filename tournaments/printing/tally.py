"""The plainest printed sheet: a row per tally field of the rules, one box per player, and the total."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from scoring.registry import TallyField

from .common import SeatLine
from .grid import PlayerColumns, Row


class TallySheet(PlayerColumns):
    def __init__(self, fields: Sequence[TallyField], seats: Sequence[SeatLine]):
        rows = [Row("names", _("Players"), 22, kind="names")]
        rows += [Row(field.key, _(field.label), 34, hint=_(field.help) if field.help else "") for field in fields]
        rows.append(Row("total", _("Total"), 30, strong=True))
        super().__init__([seat.name for seat in seats], rows)
