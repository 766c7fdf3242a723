"""Snack Match: each player's picnic zone, as the sizes of its groups or as the 4 x 4 zone tapped in.

The standard game takes, per player, either a tally (one text field per snack and tablecloth, like
"5, 2") or the grid, each on the player's card; the special diet takes only grids, and its two diet cards
come from the event. Switching from the grid to the sizes fills the sizes in from the grid; sizes typed
before switching to the grid are kept, unseen, for the way back.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _

import scoring
from scoring.snack_match import GRID_SIZE, MAX_SQUARES, RULES, SMALLEST_SCORING_GROUP, SPECIAL_DIET, tally_from_grid

from ...entry.layouts import DONE, EMPTY, Field, FormState, GameForm, Layout, Part, Row
from ...entry.paths import typed
from .. import registry
from .labels import MARKS, card_title, component_title, modifiers
from .labels import components as event_components

ZONE_TEMPLATE = "snack_match/_zone.html"
DIET_TEMPLATE = "snack_match/_diet.html"
GROUPS, GRID = "groups", "grid"
SEPARATORS = re.compile(r"[\s,;]+")
#: What a field of group sizes takes: whole numbers between those separators ("5, 2").
SIZES_PATTERN = r"[0-9\s,;]*"
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


def zone_mode(state: FormState, i: int) -> str:
    """How player ``i``'s zone is shown: the way chosen, else (a saved sheet) the grid when it has squares."""
    if is_special_diet(state):
        return GRID
    chosen = state.values.get(f"zones[{i}].mode")
    if chosen in (GROUPS, GRID):
        return chosen
    return GRID if is_tapped(state, i) else GROUPS


def is_tapped(state: FormState, i: int) -> bool:
    prefix = f"zones[{i}].grid["
    return any(key.startswith(prefix) and value.strip() for key, value in state.values.items())


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


def errors_under(state: FormState, name: str, label: str) -> list[str]:
    """The errors at a field and at the items of the list it is read into (``name[1]``...), each item's naming the
    field (``label``) and the size's place in the list."""
    errors = list(state.errors.get(name, []))
    sizes = parse_sizes(sizes_text(state, name))
    for path, messages in state.errors.items():
        if path != name and ITEM.sub("", path) == name:
            index = int(path[path.rindex("[") + 1 : -1])
            value = sizes[index] if isinstance(sizes, list) and index < len(sizes) else ""
            errors.extend(item_error(label, index + 1, value, message) for message in messages)
    return errors


def item_error(label: str, position: int, value: Any, message: str) -> str:
    """The rules' ``message`` about size ``position`` of a list of sizes; one that is no whole number is told the
    list's rule."""
    if isinstance(value, int):
        text = _("%(field)s: size %(position)d of the list, %(value)d: %(message)s")
        return text % {"field": label, "position": position, "value": value, "message": message}
    text = _(
        "%(field)s: size %(position)d of the list, “%(value)s”, is not a whole number; write each group's size as a "
        "whole number, the sizes separated by commas, like “5, 2”."
    )
    return text % {"field": label, "position": position, "value": value}


def size_field(state: FormState, name: str, label: str, shown: bool, row: str = "") -> Field:
    """The sizes typed for one component, on the number pad; kept unseen while the zone is tapped in as a grid.
    ``row`` names the component in the errors of its list."""
    kind = "text" if shown else "hidden"
    value, errors = sizes_text(state, name), errors_under(state, name, row or label)
    return Field(name, label, value, errors, kind=kind, inputmode="numeric", pattern=SIZES_PATTERN)


def size_rows(state: FormState, kinds: dict[str, dict[str, str]], modes: list[str]) -> list[Row]:
    """One row per snack and per tablecloth: the sizes of its groups, per player."""
    rows = []
    for kind, named in kinds.items():
        for key, name in named.items():
            label = component_title(kind, name)
            cells = [
                size_field(state, size_name(i, kind, key), f"{label}: {player}", modes[i] == GROUPS, label)
                for i, player in enumerate(state.players)
            ]
            help_text = _("The size of each group, like “5, 2”: groups of 1 or 2 score nothing.") if not rows else ""
            rows.append(Row(label, f"zones.groups.{kind}.{key}", cells, help=help_text))
    return rows


def tags(named: dict[str, str]) -> dict[str, str]:
    """Each component's mark in a square: the rulebook's picture, else the shortest start of its name that no
    other component of its kind shares."""
    if all(key in MARKS for key in named):
        return {key: MARKS[key] for key in named}
    names = {key: name.strip() or key for key, name in named.items()}
    for length in range(1, max(map(len, names.values())) + 1):
        starts = {key: name[:length].capitalize() for key, name in names.items()}
        if len(set(starts.values())) == len(starts):
            return starts
    return {key: name.capitalize() for key, name in names.items()}


def square_text(snack: str, cloth: str, snack_tags: dict[str, str], cloth_tags: dict[str, str]) -> str:
    """A square as a narrow select shows it: ``"🥪🟧"``, or ``"Pi·Az"`` for an edition's own components."""
    separator = "" if snack in MARKS and cloth in MARKS else "·"
    return f"{snack_tags[snack]}{separator}{cloth_tags[cloth]}"


def square_groups(kinds: dict[str, dict[str, str]]) -> list[dict[str, Any]]:
    """The choices of a square grouped by snack (the group named in full), each one short enough for a phone."""
    snack_tags, cloth_tags = tags(kinds["snacks"]), tags(kinds["cloths"])
    return [
        {
            "label": f"{snack_tags[snack]} {snack_name}",
            "options": [
                (f"{snack}/{cloth}", square_text(snack, cloth, snack_tags, cloth_tags)) for cloth in kinds["cloths"]
            ],
        }
        for snack, snack_name in kinds["snacks"].items()
    ]


def zone_legend(kinds: dict[str, dict[str, str]]) -> str:
    """What the marks of a square stand for: "🥪 sandwich · 🍩 donut · … · 🟧 orange · 🟩 green"."""
    return " · ".join(f"{tags(named)[key]} {name}" for named in kinds.values() for key, name in named.items())


def zone_grid(state: FormState, i: int, player: str) -> list[list[Field]]:
    """Player ``i``'s 4 x 4 zone: one select per square."""
    label = _("%(player)s: row %(row)d, column %(column)d")
    return [
        [
            state.field(cell_name(i, r, c), label % {"player": player, "row": r + 1, "column": c + 1}, kind="select")
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
    if not is_tapped(state, i):
        return None
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


def live_points(state: FormState, modes: list[str], kinds: dict[str, dict[str, str]]) -> tuple[str, list[str]]:
    """Each player's points from the groups as typed, or everyone's score once the diet counts, and its name."""
    if is_special_diet(state):
        scores = diet_scores(state)
        if scores:
            return _("Score with the diet"), scores
    points = [grid_points(state, i) if mode == GRID else typed_points(state, i, kinds) for i, mode in enumerate(modes)]
    return _("Points from groups"), ["" if p is None else str(p) for p in points]


# The layout -------------------------------------------------------------------------------------


def shown_paths(state: FormState, rows: list[Row], grids: list[list[list[Field]]]) -> set[str]:
    """The error paths some field shows: its own name, or an item of the list a sizes field is read into."""
    names = {cell.name for row in rows for cell in row.cells if cell.kind != "hidden"}
    names |= {cell.name for grid in grids for line in grid for cell in line}
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


def switch(i: int, mode: str, errors: list[str]) -> Field:
    """Whether player ``i``'s zone is entered as group sizes or as the grid (with the zone's own errors)."""
    choices = [(GROUPS, _("Group sizes")), (GRID, _("Grid"))]
    return Field(f"zones[{i}].mode", _("Entered as"), mode, errors, kind="choice", choices=choices)


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
    """A card per player: the sizes (or, switched, the zone's grid); the special diet: its cards, then grids."""
    kinds = components(state.event)
    grid_only = is_special_diet(state)
    players = state.players
    modes = [zone_mode(state, i) for i in range(len(players))]
    grids = [zone_grid(state, i, player) if modes[i] == GRID else [] for i, player in enumerate(players)]
    rows = [] if grid_only else size_rows(state, kinds, modes)
    shown = shown_paths(state, rows, grids)
    errors = [zone_errors(state, i, shown) for i in range(len(players))]
    label, totals = live_points(state, modes, kinds)
    groups, legend = square_groups(kinds), zone_legend(kinds)
    parts = []
    for i, player in enumerate(players):
        grid_errors, other = errors[i]
        part = Part(progress=DONE if totals[i] else EMPTY)
        if grid_only:
            grid_errors = grid_errors + other
        else:
            part.switch = switch(i, modes[i], other)
        if modes[i] == GRID:
            part.template = ZONE_TEMPLATE
            part.extra = {"index": i, "player": player, "errors": grid_errors, "rows": grids[i], "groups": groups}
            part.extra["legend"] = legend
        parts.append(part)
    zone_paths = tuple(f"zones[{i}]" for i in range(len(players)))
    placed = {path for path in state.errors if path.startswith(zone_paths) or (grid_only and path.startswith("diet"))}
    layout = Layout(rows, totals, placed=placed, parts=parts, total_label=label)
    if grid_only:
        layout.template, layout.extra = DIET_TEMPLATE, diet_extra(state, kinds)
    return layout


def carry_over(state: FormState) -> dict[str, str]:
    """Switching a zone from the grid to sizes: the sizes of the groups its grid shows, the grid let go."""
    values = dict(state.values)
    for i in range(len(state.players)):
        if values.get(f"zones[{i}].mode") != GROUPS or not is_tapped(state, i):
            continue
        try:
            tally = tally_from_grid(grid_rows(state, i))["groups"]
        except scoring.ScoreSheetError:
            continue
        for name in [name for name in values if name.startswith(f"zones[{i}].grid[")]:
            del values[name]
        for kind, named in components(state.event).items():
            for key in named:
                sizes = tally.get(kind, {}).get(key, [])
                values[size_name(i, kind, key)] = ", ".join(map(str, sizes))
    return values


FORM = GameForm(snack_match_layout, ("zones",), normalise, carry_over)
