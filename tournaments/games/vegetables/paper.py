"""VEGEtables on paper: a blank bonus or penalty box means none."""

from __future__ import annotations

from typing import Any


def finish(sheet: dict[str, Any]) -> dict[str, Any]:
    for manche in sheet.get("manches") or []:
        for row in ("family_bonuses", "penalties"):
            if isinstance(manche, dict) and isinstance(manche.get(row), list):
                manche[row] = [0 if value is None else value for value in manche[row]]
    return sheet
