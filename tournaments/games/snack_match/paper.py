"""Snack Match on paper: blank group boxes are no group; a component with no group is left out."""

from __future__ import annotations

from typing import Any


def finish(sheet: dict[str, Any]) -> dict[str, Any]:
    for zone in sheet.get("zones") or []:
        for kind in ((zone or {}).get("groups") or {}).values():
            for key in list(kind):
                sizes = [size for size in kind[key] if size is not None]
                if sizes:
                    kind[key] = sizes
                else:
                    del kind[key]
    return sheet
