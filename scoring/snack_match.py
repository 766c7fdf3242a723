"""Snack Match: groups of identical snacks and tablecloths in each picnic zone, and the special diet."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import Component, Problems, ScoreSheetError, at, components
from .grid import flat_groups
from .i18n import _
from .registry import GameOutcome, GameRules, PlayerScore, Sheet, TallyField, Variant
from .shape import ANY
from .values import read_int, read_list, read_object, read_str

KEY = "snack-match"
STANDARD = "standard"
SPECIAL_DIET = "special-diet"

GRID_SIZE = 4
MAX_SQUARES = GRID_SIZE * GRID_SIZE
#: The card on top of a zone is never covered, so every zone shows at least its three squares.
MIN_SQUARES = 3
MAX_NAME_LENGTH = 40
SMALLEST_SCORING_GROUP = 3

#: The two kinds of component, in breakdown order, with the tally key that lists each.
KINDS = ("snack", "cloth")
TALLY_KEYS = {"snack": "snacks", "cloth": "cloths"}

#: Squares of the flattened 4 x 4 zone: its corners, its four middle squares, its rows and columns.
CORNERS = (0, 3, 12, 15)
CENTRE = (5, 6, 9, 10)
LINES = tuple(tuple(range(r * GRID_SIZE, (r + 1) * GRID_SIZE)) for r in range(GRID_SIZE)) + tuple(
    tuple(range(c, MAX_SQUARES, GRID_SIZE)) for c in range(GRID_SIZE)
)


Square = tuple[str, str]
#: A zone grid flattened row by row: square ``GRID_SIZE * row + column``, None where there is no card.
Grid = list[Square | None]
#: Where a diet component is on a flattened zone: True on its squares, None elsewhere.
Mask = list[bool | None]
GroupSize = tuple[str, str, int]


@dataclass(frozen=True)
class Zone:
    """A picnic zone as read: every group known (kind, component, size), and the grid when given."""

    groups: list[GroupSize]
    grid: Grid | None


@dataclass(frozen=True)
class DietCard:
    """One component card combined with one modifier card.

    A component card shows one snack or one tablecloth; ``kind`` says which when the sheet tells.
    """

    component: str
    modifier: str
    kind: str | None = None


# Reading the document ---------------------------------------------------------------------------


def read_name(value: Any, path: str, problems: Problems) -> str | None:
    """A snack or tablecloth name, trimmed, or None after reporting."""
    if not isinstance(value, str) or not value.strip():
        problems.add(path, _("A snack or tablecloth name is expected here."))
        return None
    name = value.strip()
    if len(name) > MAX_NAME_LENGTH:
        problems.add(path, _("A snack or tablecloth name has at most {maximum} characters."), maximum=MAX_NAME_LENGTH)
        return None
    return name


def parse_square(value: Any) -> Square | None | str:
    """A square ``"snack/cloth"`` as a pair of names, None for no card, or the message saying what is wrong."""
    if value is None:
        return None
    if isinstance(value, str):
        snack, slash, cloth = value.partition("/")
        snack, cloth = snack.strip(), cloth.strip()
        if slash and snack and cloth and "/" not in cloth:
            if len(snack) <= MAX_NAME_LENGTH and len(cloth) <= MAX_NAME_LENGTH:
                return snack, cloth
            return _("A snack or tablecloth name has at most {maximum} characters.")
    return _("Write a square as 'snack/tablecloth', like 'sandwich/green', or null where there is no card.")


def parse_squares(row: list, known: dict[str, Square | str]) -> list[Square | None | str]:
    """``parse_square`` for each value of a row; ``known`` remembers the texts already parsed in this document."""
    squares: list[Square | None | str] = []
    for value in row:
        if isinstance(value, str):
            square = known.get(value)
            if square is None:
                square = known[value] = parse_square(value)  # type: ignore[assignment]
        else:
            square = parse_square(value)
        squares.append(square)
    return squares


def read_row(
    value: Any, path: str, problems: Problems, full: bool, known: dict[str, Square | str]
) -> list[Square | None] | None:
    """One row of a zone grid: at most 4 squares, exactly 4 when ``full``."""
    row = read_list(value, path, problems)
    if row is None:
        return None
    if full and len(row) != GRID_SIZE:
        problems.add(
            path,
            _("Each row of a full 4 x 4 grid has 4 squares, null where there is no card; this row has {count}."),
            count=len(row),
        )
        return None
    if len(row) > GRID_SIZE:
        problems.add(path, _("A picnic zone is at most 4 squares wide; this row has {count}."), count=len(row))
        return None
    squares = parse_squares(row, known)
    if str in map(type, squares):  # a square that is a message is a square that could not be read
        for c, square in enumerate(squares):
            if isinstance(square, str):
                problems.add(at(path, c), square, maximum=MAX_NAME_LENGTH)
        return None
    squares.extend([None] * (GRID_SIZE - len(squares)))
    return squares  # type: ignore[return-value]


def read_grid(
    value: Any, path: str, problems: Problems, full: bool = False, known: dict[str, Square | str] | None = None
) -> Grid | None:
    """A zone grid of at most 4 x 4 squares (exactly 4 x 4 when ``full``), flattened row by row to 16 squares."""
    rows = read_list(value, path, problems)
    if rows is None:
        return None
    if full and len(rows) != GRID_SIZE:
        problems.add(
            path,
            _("The special diet needs a full 4 x 4 grid, null where there is no card; this grid has {count} rows."),
            count=len(rows),
        )
        return None
    if len(rows) > GRID_SIZE:
        problems.add(path, _("A picnic zone is at most 4 rows high; this grid has {count}."), count=len(rows))
        return None
    known = {} if known is None else known
    grid: Grid = []
    ok = True
    for r, row in enumerate(rows):
        squares = read_row(row, at(path, r), problems, full, known)
        if squares is None:
            ok = False
        else:
            grid.extend(squares)
    if not ok:
        return None
    grid.extend([None] * (MAX_SQUARES - len(grid)))
    shown = MAX_SQUARES - grid.count(None)
    if shown < MIN_SQUARES:
        problems.add(
            path,
            _("A picnic zone shows at least the 3 squares of the card on top; this grid shows {count}."),
            count=shown,
        )
        return None
    return grid


def read_sizes(value: Any, path: str, problems: Problems) -> list[int]:
    """The group sizes of one component; an empty list after reporting."""
    sizes = read_list(value, path, problems)
    if sizes is None:
        return []
    if len(sizes) > MAX_SQUARES:
        problems.add(path, _("A picnic zone has at most 16 squares; this lists {count} groups."), count=len(sizes))
        return []
    read = [read_int(size, at(path, i), problems, minimum=1, maximum=MAX_SQUARES) for i, size in enumerate(sizes)]
    return [size for size in read if size is not None]


def read_kind_tally(value: Any, path: str, kind: str, problems: Problems) -> list[GroupSize]:
    """The groups of one kind (snacks or tablecloths) in a tally, by component name."""
    named = read_object(value, path, problems)
    if named is None:
        return []
    if len(named) > MAX_SQUARES:
        problems.add(
            path,
            _("A picnic zone has 16 squares, so at most 16 different names of one kind; this lists {count}."),
            count=len(named),
        )
        return []
    groups: list[GroupSize] = []
    for key, sizes in named.items():
        component = read_name(key, path, problems)
        if component is not None:
            groups.extend((kind, component, size) for size in read_sizes(sizes, at(path, key), problems))
    total = sum(size for _kind, _component, size in groups)
    if total > MAX_SQUARES:
        problems.add(
            path,
            _("The groups of one kind cover at most the 16 squares of a picnic zone; these add up to {total}."),
            total=total,
        )
    return groups


def read_tally(value: Any, path: str, problems: Problems) -> list[GroupSize] | None:
    """A tally ``{"snacks": {name: [sizes]}, "cloths": {...}}``; either kind may be left out."""
    tally = read_object(value, path, problems)
    if tally is None:
        return None
    before = len(problems)
    groups: list[GroupSize] = []
    for kind in KINDS:
        key = TALLY_KEYS[kind]
        if tally.get(key) is not None:
            groups.extend(read_kind_tally(tally[key], at(path, key), kind, problems))
    return None if len(problems) > before else groups


def read_zone(
    value: Any, path: str, problems: Problems, full_grid: bool, known: dict[str, Square | str]
) -> Zone | None:
    """One picnic zone, as a tally (``groups``) or as a ``grid``; only full grids when ``full_grid``."""
    zone = read_object(value, path, problems)
    if zone is None:
        return None
    has_tally = zone.get("groups") is not None
    has_grid = zone.get("grid") is not None
    if has_tally and has_grid:
        problems.add(path, _("Give this picnic zone either as its groups or as its grid, not both."))
        return None
    if has_grid:
        grid = read_grid(zone["grid"], at(path, "grid"), problems, full_grid, known)
        return None if grid is None else Zone(grid_groups(grid), grid)
    if not has_tally:
        problems.add(path, _("Give this picnic zone as its groups or as its grid."))
        return None
    if full_grid:
        problems.add(
            at(path, "groups"),
            _("The special diet needs every picnic zone as a full 4 x 4 grid, so that corners and centre are known."),
        )
        return None
    groups = read_tally(zone["groups"], at(path, "groups"), problems)
    return None if groups is None else Zone(groups, None)


def read_zones(document: dict, count: int, problems: Problems, full_grid: bool) -> list[Zone] | None:
    """One picnic zone per player, in seat order."""
    if document.get("zones") is None:
        problems.add("zones", _("List one picnic zone per player, in seat order."))
        return None
    zones = read_list(document["zones"], "zones", problems, length=count)
    if zones is None:
        return None
    known: dict[str, Square | str] = {}
    read = [read_zone(zone, at("zones", i), problems, full_grid, known) for i, zone in enumerate(zones)]
    if any(zone is None for zone in read):
        return None
    return read  # type: ignore[return-value]


def read_diet_card(value: Any, path: str, problems: Problems) -> DietCard | None:
    card = read_object(value, path, problems)
    if card is None:
        return None
    component = read_name(card.get("component"), at(path, "component"), problems)
    modifiers = components(KEY, "modifier", MODIFIERS)
    modifier = read_str(card.get("modifier"), at(path, "modifier"), problems, choices=modifiers)
    kind = card.get("kind")
    if kind is not None:
        kind = read_str(kind, at(path, "kind"), problems, choices=components(KEY, "kind", KINDS))
        if kind is None:
            return None
    if component is None or modifier is None:
        return None
    return DietCard(component, modifier, kind)


def read_diet(document: dict, variant: str, problems: Problems) -> list[DietCard] | None:
    """The two diet cards of the special diet; none in the standard game."""
    value = document.get("diet")
    if variant != SPECIAL_DIET:
        if value is not None:
            problems.add(
                "diet", _("Only the special-diet variant has a diet; choose that variant or leave the diet out.")
            )
            return None
        return []
    if value is None:
        problems.add("diet", _("The special diet needs its two extra cards, each a component and a modifier."))
        return None
    cards = read_list(value, "diet", problems)
    if cards is None:
        return None
    if len(cards) != 2:
        problems.add(
            "diet", _("The special diet uses exactly two extra cards; this diet has {count}."), count=len(cards)
        )
        return None
    read = [read_diet_card(card, at("diet", i), problems) for i, card in enumerate(cards)]
    if read[0] is None or read[1] is None:
        return None
    if read[0].modifier == read[1].modifier:
        problems.add(
            at(at("diet", 1), "modifier"),
            _("The two extra cards are different modifier cards; '{modifier}' is chosen twice."),
            modifier=Component(KEY, "modifier", read[1].modifier),
        )
        return None
    return read  # type: ignore[return-value]


# Scoring ----------------------------------------------------------------------------------------


def layer_groups(layer: list[Any]) -> list[tuple[Any, int]]:
    """Each group of equal, non-None values on a flattened 4 x 4 layer: (value, size), in reading order."""
    return flat_groups(layer, GRID_SIZE)


def grid_groups(grid: Grid) -> list[GroupSize]:
    """Every group of identical snacks and of identical tablecloths in a grid, single squares included."""
    snacks = [None if square is None else square[0] for square in grid]
    cloths = [None if square is None else square[1] for square in grid]
    return [("snack", name, size) for name, size in layer_groups(snacks)] + [
        ("cloth", name, size) for name, size in layer_groups(cloths)
    ]


def tally_from_grid(grid: Any) -> dict[str, Any]:
    """The tally form of a zone grid: ``{"groups": {"snacks": {name: sizes}, "cloths": {...}}}``.

    Every group is listed, single squares included, largest first. Raises ScoreSheetError (paths
    starting at ``grid``) when ``grid`` is not a valid zone grid.
    """
    problems = Problems()
    squares = read_grid(grid, "grid", problems)
    if squares is None:
        raise ScoreSheetError(problems.items)
    tally: dict[str, dict[str, list[int]]] = {key: {} for key in TALLY_KEYS.values()}
    for kind, component, size in grid_groups(squares):
        tally[TALLY_KEYS[kind]].setdefault(component, []).append(size)
    for named in tally.values():
        for sizes in named.values():
            sizes.sort(reverse=True)
    return {"groups": tally}


def match_mask(grid: Grid, card: DietCard) -> Mask:
    """Where the card's component is: among the snacks, or among the tablecloths, never both."""
    side = KINDS.index(card.kind or KINDS[0])
    return [True if square is not None and square[side] == card.component else None for square in grid]


def resolve_kinds(grids: list[Grid], diet: list[DietCard], problems: Problems) -> list[DietCard] | None:
    """Each diet card with the kind of its component: as the sheet says, else as the zones show it.

    A snack and a tablecloth are never the same component, even when an edition gives them one name:
    a card naming a component that is both a snack and a tablecloth at this table must say which.
    """
    shown = {kind: {square[side] for grid in grids for square in grid if square} for side, kind in enumerate(KINDS)}
    before = len(problems)
    resolved = []
    for i, card in enumerate(diet):
        kinds = [kind for kind in KINDS if card.component in shown[kind]]
        if card.kind is None and len(kinds) > 1:
            problems.add(
                at(at("diet", i), "kind"),
                _("'{component}' is both a snack and a tablecloth at this table; say which the card shows."),
                component=Component(KEY, "component", card.component),
            )
        resolved.append(card if card.kind else DietCard(card.component, card.modifier, (kinds or KINDS)[0]))
    return None if len(problems) > before else resolved


def mask_group_sizes(mask: Mask) -> list[int]:
    return [size for _value, size in layer_groups(mask)]


def count_at(mask: Mask, squares: tuple[int, ...]) -> int:
    return sum(1 for index in squares if mask[index])


def complete_lines(mask: Mask) -> int:
    return sum(all(mask[index] for index in line) for line in LINES)


#: Each modifier's points for one player: (their mask, their count, everyone's counts) -> points.
ModifierRule = Callable[[Mask, int, list[int]], int]

MODIFIERS: dict[str, ModifierRule] = {
    "fewest": lambda mask, own, counts: 3 if own == min(counts) else 0,
    "corners": lambda mask, own, counts: count_at(mask, CORNERS),
    "groups": lambda mask, own, counts: len(mask_group_sizes(mask)),
    "lines": lambda mask, own, counts: 2 * complete_lines(mask),
    "most": lambda mask, own, counts: -3 if own >= 1 and own == max(counts) else 0,
    "isolated": lambda mask, own, counts: -2 * mask_group_sizes(mask).count(1),
    "center": lambda mask, own, counts: -2 * count_at(mask, CENTRE),
    "pairs": lambda mask, own, counts: -2 * mask_group_sizes(mask).count(2),
}


def diet_points(grids: list[Grid], diet: list[DietCard]) -> list[list[int]]:
    """Each player's points from each diet card, in diet order."""
    points: list[list[int]] = [[] for _grid in grids]
    for card in diet:
        masks = [match_mask(grid, card) for grid in grids]
        counts = [MAX_SQUARES - mask.count(None) for mask in masks]
        rule = MODIFIERS[card.modifier]
        for player, mask in enumerate(masks):
            points[player].append(rule(mask, counts[player], counts))
    return points


def group_order(group: GroupSize) -> tuple[int, int, str]:
    kind, component, size = group
    return KINDS.index(kind), -size, component


def player_score(zone: Zone, diet: list[DietCard], modifier_points: list[int]) -> PlayerScore:
    scoring = sorted((g for g in zone.groups if g[2] >= SMALLEST_SCORING_GROUP), key=group_order)
    groups = [
        {"kind": kind, "component": component, "size": size, "points": size - 2} for kind, component, size in scoring
    ]
    groups_points = sum(group["points"] for group in groups)
    modifiers = [
        {"component": card.component, "modifier": card.modifier, "points": points}
        for card, points in zip(diet, modifier_points, strict=True)
    ]
    modifiers_points = sum(modifier_points)
    largest = max((size for _kind, _component, size in zone.groups), default=0)
    breakdown = {
        "groups": groups,
        "groups_points": groups_points,
        "modifiers": modifiers,
        "modifiers_points": modifiers_points,
        "largest_group": largest,
    }
    return PlayerScore(groups_points + modifiers_points, (largest,), breakdown)


def score_sheet(document: dict, sheet: Sheet, problems: Problems) -> GameOutcome | None:
    """Each player's group points, plus the special diet's modifiers when that variant is played."""
    diet = read_diet(document, sheet.variant, problems)
    zones = read_zones(document, len(sheet.players), problems, full_grid=sheet.variant == SPECIAL_DIET)
    if diet is None or zones is None:
        return None
    grids: list[Grid] = [zone.grid for zone in zones]  # type: ignore[misc]
    diet = resolve_kinds(grids, diet, problems) if diet else diet
    if diet is None:
        return None
    points = diet_points(grids, diet)
    return GameOutcome([player_score(zone, diet, own) for zone, own in zip(zones, points, strict=True)])


#: The keys of a sheet the rules read (``shape``): a zone is its groups by component name, or its grid.
DOCUMENT = {
    "diet": [{"component": ANY, "modifier": ANY, "kind": ANY}],
    "zones": [{"groups": {"snacks": ANY, "cloths": ANY}, "grid": ANY}],
}

PLAYER_COUNTS = tuple(range(2, 10))

RULES = GameRules(
    key=KEY,
    name="Snack Match",
    variants=(
        Variant(STANDARD, _("Standard"), PLAYER_COUNTS),
        Variant(SPECIAL_DIET, _("Special diet"), PLAYER_COUNTS),
    ),
    tally_fields=(
        TallyField(
            "snacks",
            _("Snack groups"),
            _("The size of each group of identical snacks, per snack; groups of 1 or 2 may be left out."),
        ),
        TallyField(
            "cloths",
            _("Tablecloth groups"),
            _("The size of each group of identical tablecloths, per tablecloth; groups of 1 or 2 may be left out."),
        ),
    ),
    scorer=score_sheet,
    document=DOCUMENT,
    default_variant=lambda count: STANDARD,
    table_sizes=(2, 3, 4),
    tiebreak_label=_("largest group"),
)
