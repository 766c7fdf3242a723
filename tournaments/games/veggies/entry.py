"""Veggies: each stand as counts per good (or as a grid tapped in cell by cell), its declared goods and mice.

A player's card is typed as counts (largest group and number of groups per good, mice) or, with "Grid" chosen
under Stand, tapped in one cell per space; the form then counts the groups itself. Switching from the grid to the
counts fills the counts in from the grid; counts typed before switching to the grid are kept, unseen, for the
way back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.veggies import (
    DECLARED_COUNT,
    GOODS,
    MAX_SIDE,
    MAX_SPACES,
    MOUSE_POINTS,
    NO_CARD,
    BiggestGoods,
    biggest_goods,
    in_goods_order,
    tally_from_grid,
)

from ...entry.layouts import DONE, EMPTY, PARTIAL, Check, Field, FormState, GameForm, Layout, Part, Row
from ...entry.paths import document_from_fields
from .labels import goods as good_labels
from .labels import legend, letters

ROOTS = ("stands", "teams")
TEMPLATE = "veggies/_stand.html"
TALLY, GRID = "tally", "grid"
#: The grid a stand is tapped into: eight cards of 3 x 2 spaces fit in it side by side.
GRID_ROWS, GRID_COLUMNS = 6, 8
CELL_KEY = re.compile(r"^stands\[(\d+)\]\.grid\[(\d+)\](?:\[(\d+)\])?$")


# Normalising what was posted into the stands the engine reads.


def normalise(part: dict[str, Any]) -> dict[str, Any]:
    """Stands as the engine reads them: blank goods and declarations dropped, a tapped grid as rows of text."""
    stands = part.get("stands")
    if isinstance(stands, list):
        part["stands"] = [normalise_stand(stand) if isinstance(stand, dict) else stand for stand in stands]
    return part


def is_grid(stand: dict) -> bool:
    """True when the stand is drawn: Grid chosen, or (as saved) a grid and no choice posted."""
    mode = stand.get("mode")
    return mode == GRID if mode is not None else "grid" in stand


def normalise_stand(stand: dict) -> dict:
    """One stand, as a grid or as a tally, with its declared goods (blank selects left out)."""
    part = {"grid": grid_rows(stand.get("grid"))} if is_grid(stand) else tally_part(stand)
    declared = declared_of(stand)
    if declared is not None:
        part["declared"] = declared
    return part


def declared_of(stand: dict) -> Any:
    """The declared goods without the selects left blank; None when none is chosen."""
    declared = stand.get("declared")
    if isinstance(declared, list):
        declared = [good for good in declared if good is not None]
    return None if declared in (None, []) else declared


def tally_part(stand: dict) -> dict:
    """Goods with neither a largest group nor groups are absent; blank mice are 0 once any good is typed.

    A column left entirely blank gives neither goods nor mice, so the engine asks for the stand.
    """
    goods = stand.get("goods")
    if isinstance(goods, dict):
        goods = {good: entry for good, entry in goods.items() if not is_blank_good(entry)}
    mice = stand.get("mice")
    if not goods and mice is None:
        return {}
    return {"goods": {} if goods is None else goods, "mice": 0 if mice is None else mice}


def is_blank_good(entry: Any) -> bool:
    return isinstance(entry, dict) and entry.get("largest") in (None, 0) and entry.get("groups") in (None, 0)


def grid_rows(grid: Any) -> list[str]:
    """Rows of cells (None where there is no card) as rows of text of one width; no grid yet is a blank one."""
    if not isinstance(grid, list) or not grid:
        return [NO_CARD * GRID_COLUMNS] * GRID_ROWS
    rows = [row_text(row) for row in grid]
    width = max(map(len, rows))
    return [row.ljust(width) for row in rows]


def row_text(row: Any) -> str:
    if isinstance(row, str):
        return row
    if isinstance(row, list):
        return "".join(NO_CARD if cell is None else str(cell) for cell in row)
    return ""


# What the form says so far, player by player.


@dataclass
class Column:
    """One player's stand as typed so far: counts per good (None while half typed), mice, declared goods.

    ``counts`` is None while the column gives no stand at all.
    """

    player: str
    counts: dict[str, tuple[int, int] | None] | None
    mice: int | None
    declared: list[Any] | None
    cells: list[list[str]] | None = None

    @property
    def goods(self) -> dict[str, dict[str, int]] | None:
        """The stand's goods as the engine counts them, once every good is typed in full."""
        if self.counts is None or None in self.counts.values():
            return None
        return {good: {"largest": count[0], "groups": count[1]} for good, count in self.counts.items() if count}

    def count(self, good: str) -> tuple[int, int] | None:
        """(largest, groups) of a good, (0, 0) when the stand has none, None while unknown."""
        if self.counts is None:
            return None
        return self.counts.get(good, (0, 0))

    def points(self, good: str) -> int | None:
        count = self.count(good)
        return None if count is None else count[0] * count[1]


@dataclass
class Declaration:
    """The goods a player declares, once known, or what they still have to choose (``wrong``: what they chose
    is not allowed)."""

    goods: tuple[str, ...] | None
    problem: str = ""
    wrong: bool = False


@dataclass
class TableState:
    """The whole table so far: each column and its declaration, and the goods scored."""

    columns: list[Column]
    declarations: list[Declaration]
    count: int
    scored: tuple[str, ...] = ()

    @property
    def settled(self) -> bool:
        """True when every player's declaration is known and valid, so the scored goods are final."""
        return all(declaration.goods is not None for declaration in self.declarations)


def read_table(state: FormState) -> TableState:
    raw = document_from_fields(state.values.items(), ROOTS).get("stands")
    stands = raw if isinstance(raw, list) else []
    count = declared_count(state)
    columns = []
    for i, player in enumerate(state.players):
        stand = stands[i] if i < len(stands) and isinstance(stands[i], dict) else {}
        columns.append(grid_column(state, i, player, stand) if is_grid(stand) else tally_column(player, stand))
    declarations = [declaration_of(column, count) for column in columns]
    scored = in_goods_order({good for declaration in declarations for good in declaration.goods or ()})
    return TableState(columns, declarations, count, scored)


def declared_count(state: FormState) -> int:
    variant = getattr(state.event, "effective_variant", "")
    return DECLARED_COUNT.get(variant, 2 if len(state.players) == 2 else 1)


def tally_column(player: str, stand: dict) -> Column:
    part = normalise_stand(stand)
    goods = part.get("goods")
    counts = {good: count_of(entry) for good, entry in goods.items()} if isinstance(goods, dict) else None
    mice = part.get("mice")
    mice = mice if isinstance(mice, int) and 0 <= mice <= MAX_SPACES else None
    return Column(player, counts, mice, part.get("declared"))


def count_of(entry: Any) -> tuple[int, int] | None:
    """(largest, groups) when both are sensible whole numbers, else None (half typed or wrong)."""
    if not isinstance(entry, dict):
        return None
    count = entry.get("largest"), entry.get("groups")
    return count if all(isinstance(n, int) and 1 <= n <= MAX_SPACES for n in count) else None


def grid_column(state: FormState, index: int, player: str, stand: dict) -> Column:
    """A drawn stand counted by its grid; an untouched grid gives no stand yet."""
    cells = grid_cells(state, index)
    if not any(cell for row in cells for cell in row):
        return Column(player, None, None, declared_of(stand), cells)
    tally = tally_from_grid(["".join(cell or NO_CARD for cell in row) for row in cells])
    counts = {good: (entry["largest"], entry["groups"]) for good, entry in tally["goods"].items()}
    return Column(player, counts, tally["mice"], declared_of(stand), cells)


def grid_cells(state: FormState, index: int) -> list[list[str]]:
    """The grid's cells as tapped (or as saved, a row of text each), at least 6 x 8."""
    found: dict[tuple[int, int], str] = {}
    for name, text in state.values.items():
        match = CELL_KEY.match(name)
        if not match or int(match[1]) != index:
            continue
        if match[3] is None:
            found.update(((int(match[2]), c), char) for c, char in enumerate(text))
        else:
            found[int(match[2]), int(match[3])] = text
    found = {(r, c): text.strip() for (r, c), text in found.items() if r < MAX_SIDE and c < MAX_SIDE}
    rows = max([GRID_ROWS] + [r + 1 for r, c in found])
    columns = max([GRID_COLUMNS] + [c + 1 for r, c in found])
    return [[found.get((r, c), "") for c in range(columns)] for r in range(rows)]


def declaration_of(column: Column, count: int) -> Declaration:
    """The goods the column declares (or must declare, when there is no choice); a problem while it cannot."""
    goods = column.goods
    if goods is None:
        return Declaration(None)
    choice = biggest_goods(goods, count)
    declared = column.declared
    if declared:
        names = [name for name in declared if isinstance(name, str)]
        if len(names) == len(declared) == len(set(names)) and choice.allows(names):
            return Declaration(in_goods_order(names))
        problem = _("Declare one of: %(choices)s") % {"choices": choices_text(choice)}
        return Declaration(None, problem, wrong=True)
    if choice.is_choice:
        problem = _("Choose the good you declare: %(choices)s") % {"choices": choices_text(choice)}
        return Declaration(None, problem)
    return Declaration(in_goods_order(choice.forced + choice.tied))


def choices_text(choice: BiggestGoods) -> str:
    """The valid declarations as the players say them: "Strawberries / Grapes"."""
    labels = good_labels()
    return " / ".join(" + ".join(labels[good] for good in goods) for goods in choice.declarations())


def tally_text(column: Column) -> str:
    """What a grid counts: "Strawberries 5×4, Bananas 3×2, 3 mice" (largest group × groups)."""
    labels = good_labels()
    parts = [f"{labels[good]} {count[0]}×{count[1]}" for good, count in (column.counts or {}).items() if count]
    mice = column.mice or 0
    parts.append(ngettext("%(count)d mouse", "%(count)d mice", mice) % {"count": mice})
    return ", ".join(parts)


# The layout: a card per player with the stand's switch, declared goods, goods and mice; or the stand's grid.


def veggies_layout(state: FormState) -> Layout:
    """Declared goods, largest group and groups per good, mice; a player's grid in their card when chosen."""
    table = read_table(state)
    rows = [
        *declared_rows(state, table),
        *(row for good in GOODS for row in good_rows(state, table, good)),
        mice_row(state, table),
    ]
    parts = [player_part(state, table, i) for i in range(len(state.players))]
    return Layout(rows, totals(table), parts=parts, placed=placed(state))


def errors_at(state: FormState, *paths: str) -> list[str]:
    return [message for path in paths for message in state.errors.get(path, [])]


def drawn(table: TableState, i: int) -> bool:
    return table.columns[i].cells is not None


def player_part(state: FormState, table: TableState, i: int) -> Part:
    """A player's switch between counts and grid, their grid when drawn, and what their stand adds up to."""
    errors = errors_at(state, f"stands[{i}]", f"stands[{i}].goods", f"stands[{i}].mode")
    choices = [(TALLY, _("Counts")), (GRID, _("Grid"))]
    mode = GRID if drawn(table, i) else TALLY
    switch = Field(f"stands[{i}].mode", _("Stand"), mode, errors, kind="choice", choices=choices)
    part = Part(switch=switch, notes=player_notes(table, i), progress=player_progress(table, i))
    if drawn(table, i):
        part.template = TEMPLATE
        part.extra = {**grid_data(state, table, i), "codes": cell_codes(), "legend": legend()}
    return part


def player_notes(table: TableState, i: int) -> list[Check]:
    """What the grid counts, the declaration still to make, each good's points and the mice, as typed so far."""
    column, declaration = table.columns[i], table.declarations[i]
    notes = []
    if column.cells is not None and column.counts is not None:
        counted = _("Counted (largest group × groups): %(counted)s.") % {"counted": tally_text(column)}
        notes.append(Check(counted, None))
    if declaration.problem:
        notes.append(Check(declaration.problem, False if declaration.wrong else None))
    labels = good_labels()
    for good in GOODS:
        points = column.points(good)
        if not points:
            continue
        notes.append(Check(good_points_text(labels[good], points, table.settled and good not in table.scored), None))
    if column.mice:
        notes.append(Check(_("Mice: %(points)d points") % {"points": MOUSE_POINTS * column.mice}, None))
    return notes


def good_points_text(good: str, points: int, unscored: bool) -> str:
    """A good's points in a stand; when nobody declared it as a biggest group, that it scores nothing."""
    if unscored:
        text = ngettext(
            "%(good)s: %(count)d point, not scored: nobody declared it as a biggest group",
            "%(good)s: %(count)d points, not scored: nobody declared it as a biggest group",
            points,
        )
    else:
        text = ngettext("%(good)s: %(count)d point", "%(good)s: %(count)d points", points)
    return text % {"good": good, "count": points}


def player_progress(table: TableState, i: int) -> str:
    """Done once the stand is known in full and its declaration settled; partial while anything is typed."""
    column, declaration = table.columns[i], table.declarations[i]
    if column.counts and column.goods is not None and declaration.goods is not None:
        return DONE
    return PARTIAL if column.counts is not None or column.mice is not None or column.declared else EMPTY


def declared_rows(state: FormState, table: TableState) -> list[Row]:
    labels = good_labels()
    choices = [("", "–")] + [(good, labels[good]) for good in GOODS]
    titles = [_("Declared good"), _("Second declared good")][: table.count]
    rows = []
    for k, title in enumerate(titles):
        cells = []
        for i, player in enumerate(state.players):
            name = f"stands[{i}].declared[{k}]"
            cell = state.field(name, f"{title}: {player}", kind="select", choices=choices)
            cell.errors = errors_at(state, f"stands[{i}].declared", name) if k == 0 else cell.errors
            cells.append(cell)
        help_text = _("The good of your biggest group, as you told the table.") if k == 0 else ""
        rows.append(Row(title, f"stands.declared[{k}]", cells, help=help_text))
    rows[0].check = declared_check(table)
    return rows


def declared_check(table: TableState) -> Check | None:
    """Which goods are scored: final once every player's declaration is settled."""
    if not any(column.counts for column in table.columns):
        return None
    labels = good_labels()
    scored = ", ".join(labels[good] for good in table.scored) or "–"
    if table.settled:
        return Check(_("scored: %(goods)s") % {"goods": scored}, True)
    return Check(_("scored so far: %(goods)s") % {"goods": scored}, None)


def good_rows(state: FormState, table: TableState, good: str) -> list[Row]:
    """A good's largest group and number of groups, side by side on one line of each card."""
    label = good_labels()[good]
    first = good == GOODS[0]
    rows = []
    for key, caption, title, help_text in (
        (
            "largest",
            _("largest group"),
            _("%(good)s: largest group"),
            _("The spaces of your biggest group of this good."),
        ),
        ("groups", _("groups"), _("%(good)s: groups"), _("How many separate groups of this good your stand has.")),
    ):
        title = title % {"good": label}
        cells = [good_cell(state, table, i, good, key, title) for i in range(len(state.players))]
        path = f"stands.goods.{good}.{key}"
        rows.append(Row(title, path, cells, help=help_text if first else "", line=label, caption=caption))
    return rows


def good_cell(state: FormState, table: TableState, i: int, good: str, key: str, label: str) -> Field:
    """A number to type; for a drawn stand, what was typed before kept unseen (the grid counts instead)."""
    name = f"stands[{i}].goods.{good}.{key}"
    column = table.columns[i]
    if column.cells is not None:
        return state.field(name, label, kind="hidden")
    cell = state.field(name, f"{label}: {column.player}", maximum=MAX_SPACES)
    cell.errors = errors_at(state, f"stands[{i}].goods.{good}", name) if key == "largest" else cell.errors
    return cell


def mice_row(state: FormState, table: TableState) -> Row:
    label = _("Mice")
    cells = []
    for i, column in enumerate(table.columns):
        name = f"stands[{i}].mice"
        kind = "hidden" if column.cells is not None else "number"
        cells.append(state.field(name, f"{label}: {column.player}", maximum=MAX_SPACES, kind=kind))
    return Row(label, "stands.mice", cells, help=_("Mice visible in your stand: -2 points each."))


def totals(table: TableState) -> list[str]:
    """Each player's score, once the scored goods are settled and their mice known."""
    if not table.settled:
        return [""] * len(table.columns)
    return [
        ""
        if column.mice is None
        else str(sum(column.points(good) or 0 for good in table.scored) + MOUSE_POINTS * column.mice)
        for column in table.columns
    ]


def placed(state: FormState) -> set[str]:
    """Paths whose errors the layout shows at a cell or a grid, besides the cells' own names."""
    paths = set()
    for i in range(len(state.players)):
        paths |= {f"stands[{i}]", f"stands[{i}].goods", f"stands[{i}].mode", f"stands[{i}].declared"}
        paths |= {f"stands[{i}].goods.{good}" for good in GOODS}
    return paths | {path for path in state.errors if CELL_KEY.match(path) or path.endswith(".grid")}


def carry_over(state: FormState) -> dict[str, str]:
    """Switching a stand from the grid to counts: the counts of what its grid shows, the grid let go."""
    values = dict(state.values)
    for i in range(len(state.players)):
        cells = grid_cells(state, i)
        if values.get(f"stands[{i}].mode") != TALLY or not any(cell for row in cells for cell in row):
            continue
        tally = tally_from_grid(["".join(cell or NO_CARD for cell in row) for row in cells])
        for name in [name for name in values if (match := CELL_KEY.match(name)) and int(match[1]) == i]:
            del values[name]
        for good in GOODS:
            entry = tally["goods"].get(good)
            for key in ("largest", "groups"):
                values[f"stands[{i}].goods.{good}.{key}"] = str(entry[key]) if entry else ""
        values[f"stands[{i}].mice"] = str(tally["mice"])
    return values


# A player's grid, drawn in their card.


def cell_codes() -> list[tuple[str, str]]:
    """A square's choices: the code the form posts, the letter shown in the active language."""
    return [("", "–")] + list(letters().items())


def grid_data(state: FormState, table: TableState, index: int) -> dict[str, Any]:
    """One drawn stand: its cells to tap and its errors (a hint instead while it is blank)."""
    column = table.columns[index]
    cells = column.cells or []
    blank = column.counts is None
    errors = [
        message
        for path, messages in state.errors.items()
        if path == f"stands[{index}].grid" or path.startswith(f"stands[{index}].grid[")
        for message in messages
    ]
    return {
        "index": index,
        "title": _("%(player)s's stand") % {"player": column.player},
        "rows": [
            [
                {
                    "name": f"stands[{index}].grid[{r}][{c}]",
                    "value": value,
                    "label": _("%(player)s, row %(row)d, column %(column)d")
                    % {"player": column.player, "row": r + 1, "column": c + 1},
                }
                for c, value in enumerate(row)
            ]
            for r, row in enumerate(cells)
        ],
        "errors": [] if blank else errors,
        "hint": _("Tap in the stand, one cell per space, then save.") if blank else "",
    }


FORM = GameForm(veggies_layout, ROOTS, normalise, carry_over)
