"""Veggies on paper: a good with both boxes blank is not in the stand, blank mice are none, no tick declares
nothing (the rules then say whether the biggest group is plain)."""

from __future__ import annotations

from typing import Any


def finish(sheet: dict[str, Any]) -> dict[str, Any]:
    for stand in sheet.get("stands") or []:
        if not isinstance(stand, dict):
            continue
        goods = stand.get("goods") or {}
        for good in [g for g, tally in goods.items() if tally.get("largest") is None and tally.get("groups") is None]:
            del goods[good]
        if stand.get("mice") is None:
            stand["mice"] = 0
        if not stand.get("declared"):
            stand.pop("declared", None)
    return sheet
