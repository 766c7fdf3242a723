"""Cheese Rescue on paper: each player's ticked cheeses are the tally the rules count, their points and cards."""

from __future__ import annotations

from typing import Any


def finish(sheet: dict[str, Any]) -> dict[str, Any]:
    tallies = []
    for tally in sheet.get("tallies") or []:
        cheeses = (tally or {}).get("cheeses") or []
        tallies.append({"cheese_points": sum(int(value) for value in cheeses), "cheese_cards": len(cheeses)})
    sheet["tallies"] = tallies
    return sheet
