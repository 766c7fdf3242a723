"""Veggies: each stand as counts per good (or as a grid tapped in cell by cell), its declared goods and mice.

A player's column is typed as counts (largest group and number of groups per good, mice) or, with
"Grid" chosen under Stand, tapped in one cell per space; the form then counts the groups itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.veggies import (
    CELL_CODES,
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

from ...entry.layouts import Check, Field, FormState, GameForm, Layout, Row
from ...entry.paths import document_from_fields
from .labels import goods as good_labels
from .labels import legend

ROOTS = ("stands", "teams")
TEMPLATE = "veggies/_stands.html"
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
    """The goods a player declares, once known, or what they still have to choose."""

    goods: tuple[str, ...] | None
    problem: str = ""


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
        problem = _("%(player)s: declare %(choices)s") % {"player": column.player, "choices": choices_text(choice)}
        return Declaration(None, problem)
    if choice.is_choice:
        problem = _("%(player)s: choose %(choices)s") % {"player": column.player, "choices": choices_text(choice)}
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


# The layout: rows of fields, their checks, and the grids below.


def veggies_layout(state: FormState) -> Layout:
    """Stand (counts or grid), declared goods, largest group and groups per good, mice; grids below."""
    table = read_table(state)
    grids = [i for i, column in enumerate(table.columns) if column.cells is not None]
    rows = [
        stand_row(state, table),
        *declared_rows(state, table),
        *(row for good in GOODS for row in good_rows(state, table, good)),
        mice_row(state, table),
    ]
    extra = {"grids": [grid_data(state, table, i) for i in grids], "codes": cell_codes(), "legend": legend()}
    return Layout(rows, totals(table), template=TEMPLATE, extra=extra, placed=placed(state))


def errors_at(state: FormState, *paths: str) -> list[str]:
    return [message for path in paths for message in state.errors.get(path, [])]


def stand_row(state: FormState, table: TableState) -> Row:
    choices = [(TALLY, _("Counts")), (GRID, _("Grid"))]
    label = _("Stand")
    cells = [
        Field(
            f"stands[{i}].mode",
            f"{label}: {player}",
            GRID if table.columns[i].cells is not None else TALLY,
            errors_at(state, f"stands[{i}]", f"stands[{i}].goods", f"stands[{i}].mode"),
            kind="select",
            choices=choices,
        )
        for i, player in enumerate(state.players)
    ]
    help_text = _("Counts per good, or Grid to tap the stand in cell by cell (the grid opens when you save).")
    drawn = [f"{column.player}: {tally_text(column)}" for column in table.columns if column.cells and column.counts]
    check = Check("; ".join(drawn), True) if drawn else None
    return Row(label, "stands.mode", cells, check=check, help=help_text)


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
    """Which goods are scored, or which player still has to choose (or fix) a declaration."""
    if not any(column.counts for column in table.columns):
        return None
    problems = [declaration.problem for declaration in table.declarations if declaration.problem]
    if problems:
        return Check("; ".join(problems), False)
    labels = good_labels()
    scored = ", ".join(labels[good] for good in table.scored) or "–"
    text = _("scored: %(goods)s") if table.settled else _("scored so far: %(goods)s")
    return Check(text % {"goods": scored}, True)


def good_rows(state: FormState, table: TableState, good: str) -> list[Row]:
    label = good_labels()[good]
    largest = _("%(good)s: largest group") % {"good": label}
    groups = _("%(good)s: groups") % {"good": label}
    first = good == GOODS[0]
    return [
        Row(
            largest,
            f"stands.goods.{good}.largest",
            [good_cell(state, table, i, good, "largest", largest) for i in range(len(state.players))],
            help=_("The spaces of your biggest group of this good.") if first else "",
        ),
        Row(
            groups,
            f"stands.goods.{good}.groups",
            [good_cell(state, table, i, good, "groups", groups) for i in range(len(state.players))],
            check=good_check(table, good),
            help=_("How many separate groups of this good your stand has.") if first else "",
        ),
    ]


def good_cell(state: FormState, table: TableState, i: int, good: str, key: str, label: str) -> Field:
    """A number to type, or for a drawn stand what its grid counts (a select with that one value)."""
    name = f"stands[{i}].goods.{good}.{key}"
    column = table.columns[i]
    if column.cells is None:
        cell = state.field(name, f"{label}: {column.player}", maximum=MAX_SPACES)
        cell.errors = errors_at(state, f"stands[{i}].goods.{good}", name) if key == "largest" else cell.errors
        return cell
    largest, groups = column.count(good) or (0, 0)
    return counted_cell(name, f"{label}: {column.player}", groups if key == "groups" else largest)


def counted_cell(name: str, label: str, value: int) -> Field:
    text = str(value) if value else ""
    label = _("%(label)s (counted from the grid)") % {"label": label}
    return Field(name, label, text, kind="select", choices=[(text, text or "–")])


def good_check(table: TableState, good: str) -> Check | None:
    """Each player's points for the good (largest × groups); "not declared" once nobody can score it."""
    if not any(good in (column.counts or ()) for column in table.columns):
        return None
    points = [column.points(good) for column in table.columns]
    text = _("points %(points)s") % {"points": " · ".join("–" if p is None else str(p) for p in points)}
    if table.settled and good not in table.scored:
        text = f"{text} ({_('not declared')})"
    return Check(text, None not in points)


def mice_row(state: FormState, table: TableState) -> Row:
    label = _("Mice")
    cells = []
    for i, column in enumerate(table.columns):
        name = f"stands[{i}].mice"
        if column.cells is None:
            cells.append(state.field(name, f"{label}: {column.player}", maximum=MAX_SPACES))
        else:
            cells.append(counted_cell(name, f"{label}: {column.player}", column.mice or 0))
    check = None
    if any(column.counts or column.mice for column in table.columns):
        penalties = ["–" if column.mice is None else str(MOUSE_POINTS * column.mice) for column in table.columns]
        check = Check(" · ".join(penalties), True)
    return Row(label, "stands.mice", cells, check=check, help=_("Mice visible in your stand: -2 points each."))


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


# The grids drawn below the rows.


def cell_codes() -> list[tuple[str, str]]:
    return [("", "–")] + [(code, code) for code in CELL_CODES]


def grid_data(state: FormState, table: TableState, index: int) -> dict[str, Any]:
    """One drawn stand: its cells to tap, its errors, what it counts and what it may declare."""
    column = table.columns[index]
    cells = column.cells or []
    blank = column.counts is None
    errors = [
        message
        for path, messages in state.errors.items()
        if path == f"stands[{index}].grid" or path.startswith(f"stands[{index}].grid[")
        for message in messages
    ]
    goods = column.goods or {}
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
        "counted": "" if blank else tally_text(column),
        "choices": "" if blank else choices_text(biggest_goods(goods, table.count)),
    }


FORM = GameForm(veggies_layout, ROOTS, normalise)
