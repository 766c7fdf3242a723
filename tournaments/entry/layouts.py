"""What each game's table form shows: rows of fields, one cell per player, drawn as one card per player.

A layout is plain data (rows of fields named by document path) so the templates stay simple and the
same partials render the page, the HTMX swaps and the form without JavaScript. A game builds rows like the
lines of its paper sheet; ``layout_for`` turns them into a card per player (the player's name as its heading,
their fields under plain labels, the live check of their part), so a phone passed round the table shows one
player at a time and never a page wider than the screen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .paths import typed

#: How far a player's card is filled in, as the progress line at the top of a manche shows it.
EMPTY, PARTIAL, DONE, PROBLEM = "empty", "partial", "done", "problem"


@dataclass
class Field:
    name: str
    label: str
    value: str = ""
    errors: list[str] = field(default_factory=list)
    #: number, text, select, choice (buttons side by side, one of them chosen) or hidden (kept, not shown).
    kind: str = "number"
    choices: list[tuple[str, str]] = field(default_factory=list)
    minimum: int | None = 0
    maximum: int | None = None
    #: A line under a switch's choices saying what the chosen way of entering means.
    help: str = ""
    #: Its name on a line shared with other fields (set from the row when cards are made).
    caption: str = ""
    #: A text field of numbers ("5, 2"): "numeric" opens a phone's number pad; ``pattern`` says what it takes.
    inputmode: str = ""
    pattern: str = ""

    @property
    def blank(self) -> bool:
        return not self.value.strip()

    @property
    def input_mode(self) -> str:
        """The keyboard a phone opens for the field: the number pad for every number."""
        return "numeric" if self.kind == "number" else self.inputmode

    @property
    def input_pattern(self) -> str:
        """What the field takes, as a pattern: digits (a minus sign first where it may be negative) for a number."""
        if self.kind == "number":
            return "[0-9]*" if self.minimum is not None and self.minimum >= 0 else "-?[0-9]*"
        return self.pattern


@dataclass
class Check:
    """A check cell of the paper sheet: what the row adds up to, and whether that is allowed.

    ``ok`` is None while nothing is wrong but the row is not complete yet: drawn plainly, neither ✓ nor ✗.
    """

    text: str
    ok: bool | None


@dataclass
class Row:
    label: str
    path: str
    cells: list[Field]
    errors: list[str] = field(default_factory=list)
    check: Check | None = None
    help: str = ""
    #: Rows sharing a ``line`` stand side by side on one line of a player's card, each under its ``caption``.
    line: str = ""
    caption: str = ""


@dataclass
class Part:
    """What a game adds to one player's card besides the rows' fields (all of it optional)."""

    #: How this player's part is entered (counts or a grid...): a choice that redraws the form at once.
    switch: Field | None = None
    #: A game's own partial drawn in the card (a stand or a zone to tap in), given ``extra``.
    template: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    #: The live checks of this player's part, redrawn as the form is filled.
    notes: list[Check] = field(default_factory=list)
    #: EMPTY, PARTIAL or DONE when the game knows better than counting the fields filled in.
    progress: str = ""


@dataclass
class Line:
    """One line of a player's card: a label and the field (or fields side by side) that go with it."""

    label: str
    fields: list[Field]
    errors: list[str] = field(default_factory=list)


@dataclass
class Card:
    """One player's part of the manche: their name, their lines, what their part adds up to."""

    index: int
    player: str
    short: str
    lines: list[Line]
    hidden: list[Field]
    part: Part
    total: str = ""
    progress: str = EMPTY


@dataclass
class Layout:
    rows: list[Row]
    totals: list[str] | None = None
    unplaced: list[str] = field(default_factory=list)
    #: A game's own partial drawn after the cards, for the whole table (a shared board...), with ``extra``.
    template: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    #: Extra paths the template places errors at, so they are not repeated in the summary.
    placed: set[str] = field(default_factory=set)
    #: A game's own partial drawn among the live checks (redrawn as the form is filled), also given ``extra``.
    checks_template: str = ""
    #: Each player's additions to their card, in seat order (none by default).
    parts: list[Part] = field(default_factory=list)
    #: How the whole table's sheet is entered (tallies or a board...): a choice that redraws the form at once.
    switch: Field | None = None
    #: Fields kept in the form without being shown (what was typed in the way of entering not chosen now).
    hidden: list[Field] = field(default_factory=list)
    #: What a card's total is called; the templates say "Score" when empty.
    total_label: str = ""
    cards: list[Card] = field(default_factory=list)
    #: Messages about a whole row (every player's cells), with the row's label.
    row_errors: list[tuple[str, str]] = field(default_factory=list)

    @property
    def helps(self) -> list[tuple[str, str]]:
        """What goes in each row, once for the manche rather than on every player's card."""
        return [(row.caption or row.label, row.help) for row in self.rows if row.help]


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


def unchanged(state: FormState) -> dict[str, str]:
    return state.values


@dataclass(frozen=True)
class GameForm:
    """How one game's sheet is entered: its layout, the document fields it posts, a clean-up step."""

    layout: Callable[[FormState], Layout]
    roots: tuple[str, ...]
    normalise: Callable[[dict[str, Any]], dict[str, Any]] = lambda part: part
    #: The values once a way of entering is switched: what the other way's fields say, carried where it maps.
    carry_over: Callable[[FormState], dict[str, str]] = unchanged


def layout_for(form: GameForm, state: FormState) -> Layout:
    """The game form's layout of ``state``: its cards, and the errors no field or block shows listed apart."""
    layout = form.layout(state)
    placed = {cell.name for row in layout.rows for cell in row.cells} | {row.path for row in layout.rows}
    placed |= layout.placed
    for part in layout.parts:
        placed |= {part.switch.name} if part.switch else set()
    if layout.switch:
        placed.add(layout.switch.name)
    layout.unplaced = [message for path, messages in state.errors.items() if path not in placed for message in messages]
    layout.row_errors = [(row.label, message) for row in layout.rows for message in row.errors]
    layout.cards = cards_of(layout, state.players)
    return layout


def cards_of(layout: Layout, players: list[str]) -> list[Card]:
    """A card per player made of each row's cell for that player; none when the sheet has no player's part."""
    if not any(row.cells for row in layout.rows) and not layout.parts:
        return []
    shorts = short_names(players)
    cards = []
    for i, player in enumerate(players):
        part = layout.parts[i] if i < len(layout.parts) else Part()
        lines, hidden = card_lines(layout.rows, i)
        total = layout.totals[i] if layout.totals and i < len(layout.totals) else ""
        card = Card(i, player, shorts[i], lines, hidden, part, total)
        card.progress = progress_of(card)
        cards.append(card)
    return cards


def card_lines(rows: list[Row], index: int) -> tuple[list[Line], list[Field]]:
    """Player ``index``'s cell of every row: shown lines (rows sharing a line side by side), and hidden fields."""
    lines: list[Line] = []
    hidden: list[Field] = []
    for row in rows:
        if index >= len(row.cells):
            continue
        cell = row.cells[index]
        if cell.kind == "hidden":
            hidden.extend([cell] if not cell.blank else [])
            continue
        cell.caption = row.caption
        if row.line and lines and lines[-1].label == row.line:
            lines[-1].fields.append(cell)
        else:
            lines.append(Line(row.line or row.label, [cell]))
    for line in lines:
        line.errors = [message for cell in line.fields for message in cell.errors]
    return lines, hidden


def progress_of(card: Card) -> str:
    """PROBLEM when a field or a note of the card is wrong; else the game's word, else by the fields filled in."""
    fields = [cell for line in card.lines for cell in line.fields]
    switch_errors = card.part.switch.errors if card.part.switch else []
    if switch_errors or any(cell.errors for cell in fields) or any(note.ok is False for note in card.part.notes):
        return PROBLEM
    if card.part.progress:
        return card.part.progress
    filled = [not cell.blank for cell in fields]
    if filled and all(filled):
        return DONE
    return PARTIAL if any(filled) else EMPTY


def short_names(players: list[str]) -> list[str]:
    """Each player's first name for the progress line, with their seat when another player shares it: Xosé (2)."""
    firsts = [name.split()[0] if name.split() else name for name in players]
    return [first if firsts.count(first) == 1 else f"{first} ({seat})" for seat, first in enumerate(firsts, start=1)]
