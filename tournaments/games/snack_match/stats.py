"""Snack Match's story of an event: the sizes of the groups that scored, and what each diet modifier gave."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ...plots import Bar, Plot, bars
from ...plots.sheets import StoredSheet
from .labels import modifiers


def stats(sheets: Sequence[StoredSheet]) -> list[Plot]:
    zones = [breakdown for sheet in sheets for breakdown in sheet.breakdowns()]
    if not zones:
        return []
    sizes = Counter(group["size"] for zone in zones for group in zone.get("groups", []))
    plots = [
        bars(
            "snack-groups",
            _("Group sizes"),
            _("How many scoring groups of each size the picnic zones held."),
            [Bar(ngettext("%(count)d card", "%(count)d cards", n) % {"count": n}, sizes[n]) for n in sorted(sizes)],
            [_("Group size"), _("Groups")],
        )
    ]
    points: dict[str, int] = defaultdict(int)
    for zone in zones:
        for modifier in zone.get("modifiers", []):
            points[modifier["modifier"]] += modifier["points"]
    if points:
        names = modifiers()
        plots.append(
            bars(
                "snack-diet",
                _("Diet modifiers"),
                _("The points each modifier card of the special diet gave, all players together."),
                [Bar(str(names.get(key, key)), total) for key, total in points.items()],
                [_("Modifier"), _("Points")],
            )
        )
    return plots
