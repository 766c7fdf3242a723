"""Cheese Rescue's story of an event: the cheeses each player saved, round by round, and the end-of-game removals
of the boards entered square by square."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ...plots import Bar, Group, Plot, bars, strips
from ...plots.sheets import StoredSheet
from ..story import round_label, strip_headings
from .labels import removal_steps

REMOVED = ("cats", "mice", "cheeses")


def stats(sheets: Sequence[StoredSheet]) -> list[Plot]:
    saved: dict[int, list[int]] = defaultdict(list)
    removed = dict.fromkeys(REMOVED, 0)
    boards = 0
    for sheet in sheets:
        breakdowns = list(sheet.breakdowns())
        for breakdown in breakdowns:
            saved[sheet.round].append(breakdown.get("cheese_cards", 0))
        if breakdowns and "removed" in breakdowns[0]:
            boards += 1
            for key in REMOVED:
                removed[key] += breakdowns[0]["removed"][key]
    if not saved:
        return []
    plots = [
        strips(
            "cheese-saved",
            _("Cheese saved"),
            _("How many of their cheeses each player had left on the board, round by round."),
            [Group(round_label(n), saved[n]) for n in sorted(saved)],
            strip_headings(),
        )
    ]
    if boards:
        plots.append(
            bars(
                "cheese-removals",
                _("Removals"),
                ngettext(
                    "Cards taken off the %(count)d board entered square by square, in the order of the rules.",
                    "Cards taken off the %(count)d boards entered square by square, in the order of the rules.",
                    boards,
                )
                % {"count": boards},
                [Bar(step, removed[key]) for step, key in zip(removal_steps(), REMOVED, strict=True)],
                [_("Removal"), _("Cards")],
            )
        )
    return plots
