"""Cheese Rescue on paper: a sheet has the players' ticked cheeses or the final board, never both.

The board is taken where its squares' cards are written, for the rules check a board (its cards, each player's
cheeses) and work out the removals themselves; unless it is only begun on a sheet whose ticks say what is left, which
the rules cannot check as a board. Otherwise each player's ticked cheeses are the tally the rules count.
"""

from __future__ import annotations

from typing import Any

from scoring.cheese_rescue import CHEESE

from .printing import POINTS_KEY, SEAT_KEY


def finish(sheet: dict[str, Any]) -> dict[str, Any]:
    board = squares(sheet.pop("board", None))
    seats, points = squares(sheet.pop(SEAT_KEY, None)), squares(sheet.pop(POINTS_KEY, None))
    tallies = ticked(sheet.pop("tallies", None))
    cards = [code for row in board for code in row if code is not None]
    whole = len(cards) == sum(len(row) for row in board)
    if cards and (whole or not any(tally["cheese_cards"] for tally in tallies)):
        sheet["board"] = [
            [card(code, at(seats, r, c), at(points, r, c)) for c, code in enumerate(row)] for r, row in enumerate(board)
        ]
    else:
        sheet["tallies"] = tallies
    return sheet


def squares(value: Any) -> list[list[Any]]:
    """A board's rows as read (a list of lists, None where nothing was read); none for anything else."""
    if not isinstance(value, list):
        return []
    return [row if isinstance(row, list) else [] for row in value]


def at(rows: list[list[Any]], r: int, c: int) -> Any:
    """Square (r, c) of ``rows``, None where it has none."""
    return rows[r][c] if r < len(rows) and c < len(rows[r]) else None


def card(code: Any, owner: Any, points: Any) -> Any:
    """A square's card code: the letter's, a cheese's with its owner's seat and its points (``Q2:3``); a cheese
    whose seat or points are missing stays ``Q``, for the rules to refuse at its square."""
    if code == CHEESE and owner is not None and points is not None:
        return f"{CHEESE}{owner}:{points}"
    return code


def ticked(ticks: Any) -> list[dict[str, int]]:
    """Each player's ticked cheeses as cheese points and cards."""
    counted = []
    for tally in ticks if isinstance(ticks, list) else []:
        cheeses = (tally or {}).get("cheeses") or []
        counted.append({"cheese_points": sum(int(value) for value in cheeses), "cheese_cards": len(cheeses)})
    return counted
