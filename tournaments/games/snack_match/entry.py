"""Snack Match: each player's picnic zone, as the sizes of its groups or as the 4 x 4 zone tapped in.

The standard game takes, per player, either a tally (one text field per snack and tablecloth, like
"5, 2") or the grid; the special diet takes only grids, and its two diet cards come from the event.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _

import scoring
from scoring.snack_match import GRID_SIZE, MAX_SQUARES, RULES, SMALLEST_SCORING_GROUP, SPECIAL_DIET, tally_from_grid

from ...entry.layouts import Field, FormState, GameForm, Layout, Row
from ...entry.paths import typed
from .. import registry
from .labels import MARKS, card_title, component_title, modifiers
from .labels import components as event_components

TEMPLATE = "snack_match/_zones.html"
CHECKS_TEMPLATE = "snack_match/_checks.html"
GROUPS, GRID = "groups", "grid"
SEPARATORS = re.compile(r"[\s,;]+")
#: The index at the end of a path to an item of a list (``...sandwich[1]``).
ITEM = re.compile(r"\[\d+\]$")


# Reading the posted form ------------------------------------------------------------------------


def parse_sizes(value: Any) -> Any:
    """``"5, 2"``, ``"5 2"`` or ``5`` as ``[5, 2]`` / ``[5]``; a part that is no whole number stays text."""
    if isinstance(value, str):
        return [typed(part) for part in SEPARATORS.split(value) if part]
    if isinstance(value, int):
        return [value]
    return value


def clean_tally(groups: Any) -> Any:
    """The typed sizes of each snack and tablecloth, blanks left out; None when nothing was typed."""
    if not isinstance(groups, dict):
        return groups
    tally = {}
    for kind, named in groups.items():
        if not isinstance(named, dict):
            tally[kind] = named
            continue
        sizes = {name: parse_sizes(value) for name, value in named.items() if value is not None}
        if sizes:
            tally[kind] = sizes
    return tally or None


def has_squares(grid: Any) -> bool:
    """Whether a posted grid has any square filled in (anything not a grid counts, for the engine to judge)."""
    if grid is None:
        return False
    if not isinstance(grid, list):
        return True
    return any(not isinstance(row, list) or any(square is not None for square in row) for row in grid)


def normalise_zone(zone: Any) -> Any:
    """One zone as its groups or its grid: the one filled in, or the one the mode chooses when both are."""
    if not isinstance(zone, dict):
        return zone
    mode = zone.pop("mode", None)
    groups = clean_tally(zone.pop("groups", None))
    grid = zone.pop("grid", None)
    sized, tapped = groups is not None, has_squares(grid)
    if sized and tapped and mode in (GROUPS, GRID):
        sized, tapped = mode == GROUPS, mode == GRID
    if sized:
        zone["groups"] = groups
    if tapped or (grid is not None and not sized and mode != GROUPS):
        zone["grid"] = grid
    return zone


def normalise(part: dict[str, Any]) -> dict[str, Any]:
    if isinstance(part.get("zones"), list):
        part["zones"] = [normalise_zone(zone) for zone in part["zones"]]
    return part


# What the form shows ----------------------------------------------------------------------------


def components(event: Any) -> dict[str, dict[str, str]]:
    """The event's snacks and tablecloths by kind and key, with their shown names (the rulebook's by default)."""
    return event_components(getattr(event, "options", None))


def diet_cards(event: Any) -> list[dict]:
    return [card for card in (getattr(event, "options", None) or {}).get("diet") or [] if isinstance(card, dict)]


def is_special_diet(state: FormState) -> bool:
    return getattr(state.event, "effective_variant", "") == SPECIAL_DIET


def zone_mode(state: FormState, i: int, kinds: dict[str, dict[str, str]]) -> str:
    """How player ``i``'s zone is read, as ``normalise`` will: the part filled in, or the chosen one if both are."""
    if is_special_diet(state):
        return GRID
    sized = any(sizes_text(state, size_name(i, kind, key)).strip() for kind, named in kinds.items() for key in named)
    prefix = f"zones[{i}].grid["
    tapped = any(key.startswith(prefix) and value.strip() for key, value in state.values.items())
    chosen = state.values.get(f"zones[{i}].mode")
    if sized and tapped and chosen in (GROUPS, GRID):
        return chosen
    return GRID if tapped or (not sized and chosen == GRID) else GROUPS


def size_name(i: int, kind: str, key: str) -> str:
    return f"zones[{i}].groups.{kind}.{key}"


def cell_name(i: int, r: int, c: int) -> str:
    return f"zones[{i}].grid[{r}][{c}]"


def sizes_text(state: FormState, name: str) -> str:
    """The sizes as typed, or a saved list (``name[0]``, ``name[1]``...) written as ``"5, 2"``."""
    if name in state.values:
        return state.values[name]
    parts = []
    while f"{name}[{len(parts)}]" in state.values:
        parts.append(state.values[f"{name}[{len(parts)}]"])
    return ", ".join(parts)


def errors_under(state: FormState, name: str) -> list[str]:
    """The errors at a field and at the items of the list it is read into (``name[1]``...)."""
    return [m for path, messages in state.errors.items() if name in (path, ITEM.sub("", path)) for m in messages]


def size_field(state: FormState, name: str, label: str) -> Field:
    return Field(name, label, sizes_text(state, name), errors_under(state, name), kind="text")


def size_rows(state: FormState, kinds: dict[str, dict[str, str]]) -> list[Row]:
    """One row per snack and per tablecloth: the sizes of its groups, per player."""
    rows = []
    for kind, named in kinds.items():
        for key, name in named.items():
            label = component_title(kind, name)
            cells = [
                size_field(state, size_name(i, kind, key), f"{label}: {player}")
                for i, player in enumerate(state.players)
            ]
            rows.append(Row(label, f"zones.groups.{kind}.{key}", cells))
    return rows


def square_choices(kinds: dict[str, dict[str, str]]) -> list[tuple[str, str]]:
    """The choices of a square: no card, then every snack on every tablecloth."""
    pairs = [
        (f"{snack}/{cloth}", f"{square_mark(snack, cloth)}{snack_name} / {cloth_name}")
        for snack, snack_name in kinds["snacks"].items()
        for cloth, cloth_name in kinds["cloths"].items()
    ]
    return [("", "–"), *pairs]


def square_mark(snack: str, cloth: str) -> str:
    """``"🥪🟧 "`` for a square of the rulebook's components, nothing for an edition's own."""
    return f"{MARKS[snack]}{MARKS[cloth]} " if snack in MARKS and cloth in MARKS else ""


def zone_grid(state: FormState, i: int, player: str, choices: list[tuple[str, str]]) -> list[list[Field]]:
    """Player ``i``'s 4 x 4 zone: one select per square."""
    label = _("%(player)s: row %(row)d, column %(column)d")
    return [
        [
            state.field(
                cell_name(i, r, c),
                label % {"player": player, "row": r + 1, "column": c + 1},
                kind="select",
                choices=choices,
            )
            for c in range(GRID_SIZE)
        ]
        for r in range(GRID_SIZE)
    ]


def grid_rows(state: FormState, i: int) -> list[list[Any]]:
    return [[typed(state.values.get(cell_name(i, r, c), "")) for c in range(GRID_SIZE)] for r in range(GRID_SIZE)]


# Check cells ------------------------------------------------------------------------------------


def group_points(sizes: list[Any]) -> int:
    """Size - 2 for each group of 3 or more (sizes a zone cannot have are left to the engine)."""
    return sum(s - 2 for s in sizes if isinstance(s, int) and SMALLEST_SCORING_GROUP <= s <= MAX_SQUARES)


def typed_points(state: FormState, i: int, kinds: dict[str, dict[str, str]]) -> int | None:
    texts = [sizes_text(state, size_name(i, kind, key)) for kind, named in kinds.items() for key in named]
    sizes = [size for text in texts for size in parse_sizes(text)]
    return group_points(sizes) if sizes else None


def grid_points(state: FormState, i: int) -> int | None:
    try:
        tally = tally_from_grid(grid_rows(state, i))["groups"]
    except scoring.ScoreSheetError:
        return None
    return group_points([size for named in tally.values() for sizes in named.values() for size in sizes])


def diet_scores(state: FormState) -> list[str] | None:
    """Everyone's score with the diet, once every zone is a grid the engine accepts."""
    document = {
        "game": RULES.key,
        "variant": SPECIAL_DIET,
        "players": state.players,
        "zones": [{"grid": grid_rows(state, i)} for i in range(len(state.players))],
        "diet": diet_cards(state.event),
    }
    try:
        return [str(player["score"]) for player in registry.score(document)["players"]]
    except scoring.ScoreSheetError:
        return None


def live_points(state: FormState, modes: list[str], kinds: dict[str, dict[str, str]]) -> dict[str, Any]:
    """The check cells: each player's points from the groups as typed, or the scores once the diet counts."""
    if is_special_diet(state):
        scores = diet_scores(state)
        if scores:
            return {"points_label": _("Scores with the diet"), "points": list(zip(state.players, scores, strict=True))}
    points = [grid_points(state, i) if mode == GRID else typed_points(state, i, kinds) for i, mode in enumerate(modes)]
    shown = ["" if p is None else str(p) for p in points]
    return {"points_label": _("Points from groups"), "points": list(zip(state.players, shown, strict=True))}


# The layout -------------------------------------------------------------------------------------


def shown_paths(state: FormState, rows: list[Row], grids: list[list[list[Field]]]) -> set[str]:
    """The error paths some field shows: its own name, or an item of the list a sizes field is read into."""
    names = {cell.name for row in rows for cell in row.cells} | {
        cell.name for grid in grids for line in grid for cell in line
    }
    return {path for path in state.errors if path in names or ITEM.sub("", path) in names}


def zone_errors(state: FormState, i: int, shown: set[str]) -> tuple[list[str], list[str]]:
    """Errors of zone ``i`` that no field shows: those about its grid, and the others."""
    prefix = f"zones[{i}]"
    grid: list[str] = []
    other: list[str] = []
    for path, messages in state.errors.items():
        if path.startswith(prefix) and path not in shown:
            (grid if path.startswith(f"{prefix}.grid") else other).extend(messages)
    return grid, other


def mode_row(state: FormState, modes: list[str], errors: list[list[str]]) -> Row:
    """Per player, whether the zone is entered as group sizes or as the grid (with the zone's own errors)."""
    label = _("Entered as")
    choices = [(GROUPS, _("sizes")), (GRID, _("grid"))]
    cells = [
        Field(f"zones[{i}].mode", f"{label}: {player}", modes[i], errors[i], kind="select", choices=choices)
        for i, player in enumerate(state.players)
    ]
    help_text = _(
        "Type the size of each group of a snack or tablecloth, like “5, 2” (groups of 1 or 2 score nothing), "
        "or choose the grid and tap in the zone below."
    )
    return Row(label, "zones.mode", cells, help=help_text)


def modifier_label(card: dict) -> str:
    modifier = str(card.get("modifier", ""))
    return modifiers().get(modifier, modifier)


def diet_extra(state: FormState, kinds: dict[str, dict[str, str]]) -> dict[str, Any]:
    """The event's diet cards, shown above the zones, and the errors about them."""
    cards = diet_cards(state.event)
    shown = [{"component": card_title(card, kinds), "modifier": modifier_label(card)} for card in cards]
    errors = [m for path, messages in state.errors.items() if path.startswith("diet") for m in messages]
    return {"diet": shown, "diet_errors": errors}


def snack_match_layout(state: FormState) -> Layout:
    """Standard: the sizes table with a mode per player, and each zone's grid; special diet: diet cards and grids."""
    kinds = components(state.event)
    grid_only = is_special_diet(state)
    players = state.players
    modes = [zone_mode(state, i, kinds) for i in range(len(players))]
    choices = square_choices(kinds)
    grids = [zone_grid(state, i, player, choices) for i, player in enumerate(players)]
    rows = [] if grid_only else size_rows(state, kinds)
    shown = shown_paths(state, rows, grids)
    errors = [zone_errors(state, i, shown) for i in range(len(players))]
    zones = [
        {
            "index": i,
            "player": player,
            "open": modes[i] == GRID or bool(errors[i][0]),
            "errors": errors[i][0],
            "rows": grids[i],
        }
        for i, player in enumerate(players)
    ]
    if grid_only:
        for zone, (_grid, other) in zip(zones, errors, strict=True):
            zone["errors"] = zone["errors"] + other
    else:
        rows.insert(0, mode_row(state, modes, [other for _grid, other in errors]))
    extra = {"zones": zones, "grid_only": grid_only, **live_points(state, modes, kinds)}
    if grid_only:
        extra.update(diet_extra(state, kinds))
    zone_paths = tuple(f"zones[{i}]" for i in range(len(players)))
    placed = {path for path in state.errors if path.startswith(zone_paths) or (grid_only and path.startswith("diet"))}
    return Layout(rows, template=TEMPLATE, extra=extra, placed=placed, checks_template=CHECKS_TEMPLATE)


FORM = GameForm(snack_match_layout, ("zones",), normalise)
