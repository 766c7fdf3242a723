"""Veggies' story of an event: which goods the stands declared, and how many mice they were left with."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ...plots import Bar, Plot, bars
from ...plots.sheets import StoredSheet
from .labels import goods


def stats(sheets: Sequence[StoredSheet]) -> list[Plot]:
    stands = [breakdown for sheet in sheets for breakdown in sheet.breakdowns()]
    if not stands:
        return []
    declared = Counter(good for stand in stands for good in stand.get("declared", []))
    names = goods()
    mice = Counter(stand.get("mice", 0) for stand in stands)
    return [
        bars(
            "veggies-declared",
            _("Declared goods"),
            _("How many stands declared each good."),
            [Bar(str(name), declared[key]) for key, name in names.items()],
            [_("Good"), _("Stands")],
        ),
        bars(
            "veggies-mice",
            _("Mice"),
            _("How many stands ended a game with each number of mice."),
            [Bar(ngettext("%(count)d mouse", "%(count)d mice", n) % {"count": n}, mice[n]) for n in sorted(mice)],
            [_("Mice"), _("Stands")],
        ),
    ]
