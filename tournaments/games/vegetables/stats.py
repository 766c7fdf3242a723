"""VEGEtables' story of an event: the crosses each pozzo place brings, and the crosses of every manche by round."""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence

from django.utils.translation import gettext as _

from ...plots import Bar, Group, Plot, bars, strips
from ...plots.sheets import StoredSheet
from ..story import round_label, strip_headings


def manches(sheets: Sequence[StoredSheet]):
    """(round, pozzo, crosses) of every player in every manche of every sheet."""
    for sheet in sheets:
        for breakdown in sheet.breakdowns():
            for manche in breakdown.get("manches", []):
                yield sheet.round, manche["pozzo"], manche["sequences"]


def stats(sheets: Sequence[StoredSheet]) -> list[Plot]:
    played = list(manches(sheets))
    if not played:
        return []
    by_pozzo: dict[int, list[int]] = defaultdict(list)
    by_round: dict[int, list[int]] = defaultdict(list)
    for number, pozzo, crosses in played:
        by_pozzo[pozzo].append(crosses)
        by_round[number].append(crosses)
    order = sorted(by_pozzo, reverse=True)
    pozzo = bars(
        "vegetables-pozzo",
        _("Crosses by pozzo order"),
        _("Average crosses in a manche for each pozzo value, from the first to collect (%(first)s) to the last.")
        % {"first": order[0]},
        [Bar(_("Pozzo %(value)s") % {"value": value}, round(statistics.mean(by_pozzo[value]), 1)) for value in order],
        [_("Pozzo"), _("Average crosses")],
    )
    crosses = strips(
        "vegetables-crosses",
        _("Crosses per manche"),
        _("Each player's crosses in each manche, round by round: a dot each, the bar at the median."),
        [Group(round_label(n), by_round[n]) for n in sorted(by_round)],
        strip_headings(),
    )
    return [pozzo, crosses]
