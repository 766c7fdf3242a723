"""Cheese Rescue: each player's cheeses left on the board, or the final board itself.

The table picks one per game: the tallies (two numbers on each player's card) or the board tapped in square by
square, with the removals (cats, then mice, then cheeses) and what each player keeps shown as it is filled.
Switching from the board to the tallies fills the tallies in from the board; tallies typed before switching to
the board are kept, unseen, for the way back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

import scoring
from scoring.cheese_rescue import (
    BOARD_SIZES,
    CHEESE,
    POSSIBLE_POINTS,
    RULES,
    SIX_CHEESES,
    Card,
    cards_for,
    remove_cards,
    score_board,
)

from ...entry.layouts import Check, Field, FormState, GameForm, Layout, Part, Row
from .. import registry
from ..problems import errors_by_path
from .labels import animals, letters, removal_steps

BOARD, TALLIES = "board", "tallies"
#: The way the table enters the game: the tallies or the board.
MODE = "entry_mode"
KEYS = ("cheese_points", "cheese_cards")
TEMPLATES = "cheese_rescue/"

Cards = Mapping[str, Card]


@dataclass
class Square:
    """One square of the board form: its select's name, label, value and errors."""

    name: str
    ident: str
    label: str
    value: str
    known: bool
    errors: list[str]
    #: Which of the board's grouped error messages describe this square.
    notes: list[int] = field(default_factory=list)


def cheese_rescue_layout(state: FormState) -> Layout:
    """The tallies, or the board when the table chose it (and the player count has a board)."""
    size = BOARD_SIZES.get(len(state.players))
    mode = entry_mode(state.values) if size else TALLIES
    layout = board_layout(state, size) if size and mode == BOARD else tallies_layout(state)
    if size:
        layout.switch = switch(mode)
    return layout


def entry_mode(values: Mapping[str, str]) -> str:
    """The mode chosen, else the board if its squares are there, else the tallies."""
    chosen = values.get(MODE)
    if chosen in (BOARD, TALLIES):
        return chosen
    return BOARD if any(name.startswith(f"{BOARD}[") for name in values) else TALLIES


def switch(mode: str) -> Field:
    """Tallies or board, for the whole table; choosing one draws the form again at once."""
    hints = {
        TALLIES: _("Or choose Board and tap in the final board: the removals are worked out for you."),
        BOARD: _("Or choose Tallies and type each player's cheese points and cards left."),
    }
    choices = [(TALLIES, _("Tallies")), (BOARD, _("Board"))]
    return Field(MODE, _("Entered as"), mode, kind="choice", choices=choices, help=hints[mode])


def normalise(part: dict[str, Any]) -> dict[str, Any]:
    """The part of the chosen mode alone (what was typed in the other is kept in the form, never saved)."""
    mode = part.pop(MODE, None)
    if mode == BOARD:
        part.pop(TALLIES, None)
    elif mode == TALLIES:
        part.pop(BOARD, None)
    return part


def carry_over(state: FormState) -> dict[str, str]:
    """Switching to the tallies with squares on the board: each player's cheeses left, as the board says."""
    values = dict(state.values)
    size = BOARD_SIZES.get(len(state.players))
    squares = {name: code for name, code in values.items() if name.startswith(f"{BOARD}[")}
    if not size or entry_mode(values) != TALLIES or not any(code.strip() for code in squares.values()):
        return values
    cards = cards_for(len(state.players))
    grid = [[square(state, r, c, cards).value or None for c in range(size)] for r in range(size)]
    grid = [[code if code in cards else None for code in row] for row in grid]
    outcome = score_board(grid, len(state.players))
    for name in squares:
        del values[name]
    for i, player in enumerate(outcome.players):
        for key in KEYS:
            values[f"{TALLIES}[{i}].{key}"] = str(player.breakdown[key])
    return values


# Tallies


def tallies_layout(state: FormState) -> Layout:
    """Each player's cheese points and cheese cards left on the board, and whether the two can go together."""
    rows = []
    for key, label, maximum in (
        ("cheese_points", _("Cheese points left"), sum(SIX_CHEESES)),
        ("cheese_cards", _("Cheese cards left"), len(SIX_CHEESES)),
    ):
        cells = [
            state.field(f"tallies[{i}].{key}", f"{label}: {player}", maximum=maximum)
            for i, player in enumerate(state.players)
        ]
        rows.append(Row(label, f"tallies.{key}", cells))
    parts = [Part(notes=tally_notes(state, i)) for i in range(len(state.players))]
    totals = [tally_number(state, i, "cheese_points") for i in range(len(state.players))]
    return Layout(rows, [str(v) if v is not None else "" for v in totals], parts=parts)


def tally_number(state: FormState, seat: int, key: str) -> int | None:
    return state.number(f"tallies[{seat}].{key}")


def tally_notes(state: FormState, seat: int) -> list[Check]:
    """Whether the player's points can come from as many of their six cheeses as they say are left."""
    points, cards = tally_number(state, seat, "cheese_points"), tally_number(state, seat, "cheese_cards")
    if points is None or cards is None:
        return []
    if points in POSSIBLE_POINTS.get(cards, ()):
        return [Check(_("possible with the cards left"), True)]
    return [Check(_("not possible with the cards left"), False)]


# The board


def board_layout(state: FormState, size: int) -> Layout:
    """A square grid of selects, one per square, then the removals and scores among the live checks."""
    cards = cards_for(len(state.players))
    tags = player_tags(state.players)
    squares = [[square(state, r, c, cards) for c in range(size)] for r in range(size)]
    extra = {
        "size": size,
        "columns": range(1, size + 1),
        "squares": squares,
        "animals": animal_choices(cards),
        "cheeses": cheese_choices(cards, state.players, tags),
        "legend": legend(cards, state.players, tags),
        "board_errors": board_errors(state, squares),
        "square_errors": square_error_groups(squares),
        "preview": preview(state, squares, cards, tags),
    }
    placed = {path for path in state.errors if path == BOARD or path.startswith(f"{BOARD}[")}
    return Layout(
        [],
        template=TEMPLATES + "_board.html",
        extra=extra,
        placed=placed,
        checks_template=TEMPLATES + "_checks.html",
        hidden=typed_tallies(state),
    )


def typed_tallies(state: FormState) -> list[Field]:
    """The tallies typed before the board was chosen, kept unseen for a switch back."""
    names = [f"{TALLIES}[{i}].{key}" for i in range(len(state.players)) for key in KEYS]
    return [Field(name, "", state.values[name], kind="hidden") for name in names if state.values.get(name, "").strip()]


def square(state: FormState, r: int, c: int, cards: Cards) -> Square:
    name = f"{BOARD}[{r}][{c}]"
    value = state.values.get(name, "")
    label = _("Row %(row)d, column %(column)d") % {"row": r + 1, "column": c + 1}
    return Square(name, f"board-{r}-{c}", label, value, value == "" or value in cards, state.errors.get(name, []))


def player_tags(players: list[str]) -> list[str]:
    """Each player's mark on the board: their initial, or their seat number when initials repeat or one of them is
    the letter of an animal or the start card (a cheese "S·1" would read as the start card)."""
    initials = [name.strip()[:1].upper() for name in players]
    taken = {letter.upper() for letter in letters().values()}
    if all(initials) and len(set(initials)) == len(initials) and not taken & set(initials):
        return initials
    return [str(seat) for seat in range(1, len(players) + 1)]


def card_text(code: str | None, cards: Cards, tags: list[str]) -> str:
    """The short text of a card on the board: an animal's letter (D, C, M, S in English), or the owner's mark and
    value (A·2)."""
    card = cards.get(code or "")
    if card is None:
        return code or ""
    return f"{tags[card.player - 1]}·{card.value}" if card.kind == CHEESE else letters().get(code or "", code or "")


def animal_choices(cards: Cards) -> list[tuple[str, str]]:
    """The animals' and the start card's choices: the code the form posts, the letter shown."""
    shown = letters()
    return [("", "–")] + [(code, shown.get(code, code)) for code, card in cards.items() if card.kind != CHEESE]


def cheese_choices(cards: Cards, players: list[str], tags: list[str]) -> list[dict[str, Any]]:
    """Each player's cheeses as an option group named after them."""
    groups: list[dict[str, Any]] = [{"name": name, "options": []} for name in players]
    for code, card in cards.items():
        if card.kind == CHEESE:
            groups[card.player - 1]["options"].append((code, card_text(code, cards, tags)))
    return groups


def legend(cards: Cards, players: list[str], tags: list[str]) -> list[tuple[str, str]]:
    """What each short text on the board stands for."""
    meaning, shown = animals(), letters()
    items = [(shown.get(code, code), meaning[code]) for code, card in cards.items() if card.kind != CHEESE]
    for group in cheese_choices(cards, players, tags):
        texts = " ".join(text for _code, text in group["options"])
        values = ", ".join(str(value) for value in sorted(set(SIX_CHEESES)))
        items.append((texts, _("cheeses of %(name)s, worth %(values)s") % {"name": group["name"], "values": values}))
    return items


def board_errors(state: FormState, squares: list[list[Square]]) -> list[str]:
    """The messages about the board as a whole (start card, cheeses per player, size)."""
    names = {sq.name for row in squares for sq in row}
    return [
        message
        for path, messages in state.errors.items()
        if (path == BOARD or path.startswith(f"{BOARD}[")) and path not in names
        for message in messages
    ]


def square_error_groups(squares: list[list[Square]]) -> list[dict[str, str]]:
    """The squares' messages, each once with the squares it concerns; notes each square's groups."""
    groups: dict[str, list[Square]] = {}
    for row in squares:
        for sq in row:
            for message in sq.errors:
                groups.setdefault(message, []).append(sq)
    listed = []
    for index, (message, members) in enumerate(groups.items()):
        for sq in members:
            sq.notes.append(index)
        listed.append({"where": "; ".join(sq.label for sq in members), "message": message})
    return listed


# What the board scores, as it is filled


def preview(state: FormState, squares: list[list[Square]], cards: Cards, tags: list[str]) -> dict[str, Any] | None:
    """The removals step by step and what each player keeps, for the squares filled so far."""
    grid = [[sq.value if sq.value in cards else None for sq in row] for row in squares]
    filled = sum(code is not None for row in grid for code in row)
    if not filled:
        return None
    removed = remove_cards(grid)[1]
    outcome = score_board(grid, len(state.players))
    step_of = {cell: step for step, cells in enumerate(removed, start=1) for cell in cells}
    titles = removal_steps()
    total = len(grid) ** 2
    return {
        "picture": [
            [{"text": card_text(code, cards, tags), "step": step_of.get((r, c), 0)} for c, code in enumerate(row)]
            for r, row in enumerate(grid)
        ],
        "steps": [
            {"number": n, "title": title, "squares": [squares[r][c].label for r, c in cells]}
            for n, (title, cells) in enumerate(zip(titles, removed), start=1)
        ],
        "scores": [
            {"name": name, "points": p.breakdown["cheese_points"], "cards": p.breakdown["cheese_cards"]}
            for name, p in zip(state.players, outcome.players)
        ],
        "filled": filled,
        "total": total,
        "rules": rules_check(state, grid, squares) if filled == total and not state.errors else None,
    }


def rules_check(state: FormState, grid: list[list[Any]], squares: list[list[Square]]) -> dict[str, Any]:
    """The rules' word on a complete board: fine, or their objections with the square each concerns."""
    try:
        registry.score({"game": RULES.key, "players": state.players, BOARD: grid})
    except scoring.ScoreSheetError as error:
        labels = {sq.name: sq.label for row in squares for sq in row}
        problems = [
            {"where": labels.get(path, ""), "message": message}
            for path, messages in errors_by_path(error.problems).items()
            for message in messages
        ]
        return {"ok": False, "problems": problems}
    return {"ok": True, "problems": []}


FORM = GameForm(cheese_rescue_layout, (TALLIES, BOARD, MODE), normalise, carry_over)
