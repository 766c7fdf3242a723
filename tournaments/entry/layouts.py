"""What each game's table form shows: rows of fields, one column per player, with live check cells.

A layout is plain data (rows of fields named by document path) so the templates stay simple and the
same partial renders the page, the HTMX swap and the form without JavaScript.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .paths import typed


@dataclass
class Field:
    name: str
    label: str
    value: str = ""
    errors: list[str] = field(default_factory=list)
    kind: str = "number"
    choices: list[tuple[str, str]] = field(default_factory=list)
    minimum: int | None = 0
    maximum: int | None = None


@dataclass
class Check:
    """A check cell of the paper sheet: what the row adds up to, and whether that is allowed."""

    text: str
    ok: bool


@dataclass
class Row:
    label: str
    path: str
    cells: list[Field]
    errors: list[str] = field(default_factory=list)
    check: Check | None = None
    help: str = ""


@dataclass
class Layout:
    rows: list[Row]
    totals: list[str] | None = None
    unplaced: list[str] = field(default_factory=list)
    #: A game's own partial drawn after the rows (a stand grid, a board...), with ``extra`` as its data.
    template: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    #: Extra paths the template places errors at, so they are not repeated in the summary.
    placed: set[str] = field(default_factory=set)
    #: A game's own partial drawn among the live checks (redrawn as the form is filled), also given ``extra``.
    checks_template: str = ""


@dataclass
class FormState:
    """What a manche's form holds: the players, the values by path, the errors by path."""

    players: list[str]
    values: dict[str, str]
    errors: dict[str, list[str]]
    event: Any = None

    def field(self, name: str, label: str, **options) -> Field:
        return Field(name, label, self.values.get(name, ""), self.errors.get(name, []), **options)

    def number(self, name: str) -> int | None:
        value = typed(self.values.get(name, ""))
        return value if isinstance(value, int) else None


@dataclass(frozen=True)
class GameForm:
    """How one game's sheet is entered: its layout, the document fields it posts, a clean-up step."""

    layout: Callable[[FormState], Layout]
    roots: tuple[str, ...]
    normalise: Callable[[dict[str, Any]], dict[str, Any]] = lambda part: part
    #: Posted fields that ask to draw the form again (a change of entry mode), saving nothing.
    redraw: tuple[str, ...] = ()


def layout_for(form: GameForm, state: FormState) -> Layout:
    """The game form's layout of ``state``, with the errors no field or block shows listed apart."""
    layout = form.layout(state)
    placed = {cell.name for row in layout.rows for cell in row.cells} | {row.path for row in layout.rows}
    placed |= layout.placed
    layout.unplaced = [message for path, messages in state.errors.items() if path not in placed for message in messages]
    return layout
