"""Snack Match on paper: a zone written square by square is its grid (the special diet takes only grids), its
groups left out; otherwise blank group boxes are no group, and a component with no group is left out."""

from __future__ import annotations

from typing import Any

from scoring.snack_match import KINDS


def finish(sheet: dict[str, Any]) -> dict[str, Any]:
    for zone in sheet.get("zones") or []:
        if not isinstance(zone, dict):
            continue
        grid = zone.pop("grid", None)
        if grid is not None and (is_written(grid) or not zone.get("groups")):
            zone.pop("groups", None)
            zone["grid"] = [[square(value) for value in row] for row in grid if isinstance(row, list)]
            continue
        for kind in (zone.get("groups") or {}).values():
            for key in list(kind):
                sizes = [size for size in kind[key] if size is not None]
                if sizes:
                    kind[key] = sizes
                else:
                    del kind[key]
    return sheet


def is_written(grid: Any) -> bool:
    return isinstance(grid, list) and any(square(value) for row in grid if isinstance(row, list) for value in row)


def square(value: Any) -> str | None:
    """A square's snack and tablecloth as read (``{"snack": "donut", "cloth": "green"}``) as the grid has them,
    ``"donut/green"``; None for a square where neither is written (one alone is left for the rules to refuse)."""
    parts = [value.get(kind) if isinstance(value, dict) else None for kind in KINDS]
    if all(part is None for part in parts):
        return None
    return "/".join("" if part is None else str(part) for part in parts)
