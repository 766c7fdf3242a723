"""Veggies: market stands scored for every good that makes some player's biggest group."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from itertools import combinations
from typing import Any, NamedTuple, cast

from .errors import AND, Component, Listing, Problems, at, components
from .grid import piece_of, piece_sizes
from .i18n import _
from .registry import GameOutcome, GameRules, PlayerScore, Sheet, TallyField, TeamScore, Variant
from .shape import ANY, Each
from .values import read_int, read_list, read_object

KEY = "veggies"
#: The goods in the order every list of goods is given.
GOODS = ("strawberries", "bananas", "grapes", "carrots", "mushrooms")
#: The goods as a message lists them.
ALL_GOODS = components(KEY, "good", GOODS)
GOOD_SET = frozenset(GOODS)
GOOD_OF_CELL = {"S": "strawberries", "B": "bananas", "G": "grapes", "C": "carrots", "M": "mushrooms"}
EMPTY = "E"
MOUSE = "X"
NO_CARD = " "
#: What a space of a grid may hold, in the order a form offers them: goods, an empty space, a mouse.
CELL_CODES = (*GOOD_OF_CELL, EMPTY, MOUSE)
GRID_CELLS = frozenset((*CELL_CODES, NO_CARD))


class BinaryDigits(dict):
    """A ``str.translate`` table to the digits of a binary number: a character it does not name is 0."""

    def __missing__(self, key: int) -> str:
        return "0"


def binary_digits(ones: str) -> BinaryDigits:
    """The table that makes the characters ``ones`` 1 and every other character 0."""
    return BinaryDigits({ord(cell): "1" if cell in ones else "0" for cell in GRID_CELLS})


#: A grid as binary digits: 1 where a card shows, 0 where there is none.
CARD_BITS = binary_digits("SBGCMEX")
#: For each good, a grid as binary digits: 1 where that good shows, 0 elsewhere.
GOOD_BITS = {good: binary_digits(cell) for cell, good in GOOD_OF_CELL.items()}

CARD_SPACES = 6
#: Eight cards of six spaces: no stand shows more.
MAX_SPACES = 8 * CARD_SPACES
#: Eight cards of three spaces laid end to end: no stand spans further.
MAX_SIDE = 24
MOUSE_POINTS = -2

#: How many goods each player declares, by variant.
DECLARED_COUNT = {"standard": 1, "two-player": 2, "teams": 1}

#: A stand's goods: good -> {"largest": n, "groups": m}, only goods present, in the order of GOODS.
GoodsTally = dict[str, dict[str, int]]


class BiggestGoods(NamedTuple):
    """The declarations a stand allows: all of ``forced``, plus ``picks`` goods out of ``tied``."""

    forced: tuple[str, ...]
    tied: tuple[str, ...]
    picks: int

    @property
    def size(self) -> int:
        """How many goods a declaration names."""
        return len(self.forced) + self.picks

    @property
    def is_choice(self) -> bool:
        """True when goods tie and the player must say which they declare."""
        return len(self.tied) > self.picks

    def declarations(self) -> list[tuple[str, ...]]:
        """Every valid declaration, each in the order of GOODS."""
        return [in_goods_order(self.forced + chosen) for chosen in combinations(self.tied, self.picks)]

    def allows(self, declared: Collection[str]) -> bool:
        """True when ``declared`` (distinct goods) is one of the valid declarations."""
        return (
            len(declared) == self.size
            and all(good in declared for good in self.forced)
            and all(good in self.forced or good in self.tied for good in declared)
        )


def in_goods_order(goods: Collection[str]) -> tuple[str, ...]:
    return tuple(good for good in GOODS if good in goods)


def good_named(key: str) -> Component:
    """A good as a message names it."""
    return Component(KEY, "good", key)


def biggest_goods(goods: Mapping[str, Mapping[str, int]], count: int) -> BiggestGoods:
    """The goods a stand may declare as its ``count`` biggest groups (fewer when it has fewer kinds).

    A declaration is valid when no undeclared good has a larger group than a declared one.
    """
    largest = {good: goods[good].get("largest", 0) for good in GOODS if good in goods}
    ranked = sorted((size for size in largest.values() if size >= 1), reverse=True)
    picked = min(count, len(ranked))
    if not picked:
        return BiggestGoods((), (), 0)
    threshold = ranked[picked - 1]
    forced = tuple(good for good, size in largest.items() if size > threshold)
    tied = tuple(good for good, size in largest.items() if size == threshold)
    return BiggestGoods(forced, tied, picked - len(forced))


def tally_from_grid(rows: Sequence[str]) -> dict[str, Any]:
    """The tally of a stand's grid: {"goods": {good: {"largest", "groups"}}, "mice": k}.

    Characters other than goods and mice count as nothing; the caller bounds the grid's size.
    """
    return tally_of(*framed(rows))


def framed(rows: Sequence[str]) -> tuple[str, int]:
    """The rows as one string with a blank after each row and a blank row above and below, and its stride.

    Cell (r, c) is at ``(r + 1) * stride + c``; its four neighbours are at -1, +1, -stride and +stride,
    and the blanks make every neighbour of a cell a valid index that never wraps to another row.
    """
    stride = max(map(len, rows), default=0) + 1
    border = NO_CARD * stride
    return border + "".join(row.ljust(stride) for row in rows) + border, stride


def tally_of(flat: str, stride: int) -> dict[str, Any]:
    """The largest group and number of groups of each good, and the mice, of a framed grid.

    Each good's spaces become the bits of an integer whose groups are split off one at a time
    (``grid.piece_sizes``): several times faster than ``grid.find_groups`` on a stand.
    """
    backwards = flat[::-1]
    goods: GoodsTally = {}
    for good, bits in GOOD_BITS.items():
        sizes = piece_sizes(int(backwards.translate(bits), 2), stride)
        if sizes:
            goods[good] = {"largest": max(sizes), "groups": len(sizes)}
    return {"goods": goods, "mice": flat.count(MOUSE)}


def is_one_piece(flat: str, stride: int) -> bool:
    """True when the cards of a framed grid form one orthogonally connected piece."""
    cards = int(flat[::-1].translate(CARD_BITS), 2)
    return piece_of(cards & -cards, cards, stride) == cards


class Stand(NamedTuple):
    """One player's market stand, checked: its goods, mice and declared goods."""

    goods: GoodsTally
    mice: int
    declared: tuple[str, ...]
    grid_tally: dict[str, Any] | None


def score_sheet(document: dict, sheet: Sheet, problems: Problems) -> GameOutcome | None:
    before = len(problems)
    count = DECLARED_COUNT[sheet.variant]
    teams = None
    if sheet.variant == "teams":
        teams = read_teams(document.get("teams"), sheet.players, problems)
    elif document.get("teams") is not None:
        problems.add("teams", _('Teams are scored only in the "teams" variant; name that variant or leave teams out.'))
    values = read_list(document.get("stands"), "stands", problems, length=len(sheet.players))
    stands = [read_stand(value, at("stands", i), count, problems) for i, value in enumerate(values or ())]
    if values is None or len(problems) > before or None in stands:
        return None
    checked = cast(list[Stand], stands)
    scored = in_goods_order({good for stand in checked for good in stand.declared})
    players = [score_stand(stand, scored) for stand in checked]
    team_scores = None if teams is None else score_teams(teams, sheet.players, players, checked)
    return GameOutcome(players, team_scores)


def score_stand(stand: Stand, scored: tuple[str, ...]) -> PlayerScore:
    """largest * groups for each scored good, then -2 per mouse."""
    goods: dict[str, dict[str, int]] = {}
    for good in scored:
        entry = stand.goods.get(good)
        largest, groups = (entry["largest"], entry["groups"]) if entry else (0, 0)
        goods[good] = {"largest": largest, "groups": groups, "points": largest * groups}
    penalty = MOUSE_POINTS * stand.mice
    breakdown: dict[str, Any] = {
        "declared": list(stand.declared),
        "scored_goods": list(scored),
        "goods": goods,
        "mice": stand.mice,
        "mouse_penalty": penalty,
    }
    if stand.grid_tally is not None:
        breakdown["tally"] = stand.grid_tally
    total = sum(entry["points"] for entry in goods.values()) + penalty
    return PlayerScore(total, (-stand.mice,), breakdown)


def score_teams(
    teams: list[tuple[str, ...]], names: tuple[str, ...], players: list[PlayerScore], stands: list[Stand]
) -> list[TeamScore]:
    """Each team scores the sum of its members' scores; fewer mice in the team breaks a tie."""
    seat = {name: i for i, name in enumerate(names)}
    return [
        TeamScore(
            team,
            sum(players[seat[name]].score for name in team),
            (-sum(stands[seat[name]].mice for name in team),),
        )
        for team in teams
    ]


def read_teams(value: Any, players: tuple[str, ...], problems: Problems) -> list[tuple[str, ...]] | None:
    """The two teams of two; seats 1 and 3 against seats 2 and 4 when the sheet names none."""
    if value is None:
        return [(players[0], players[2]), (players[1], players[3])]
    if not isinstance(value, list) or len(value) != 2:
        problems.add("teams", _("List two teams, each a list of two player names."))
        return None
    teams: list[tuple[str, ...]] = []
    seen: set[str] = set()
    for t, team in enumerate(value):
        path = at("teams", t)
        if not isinstance(team, list) or len(team) != 2:
            problems.add(path, _("A team is a list of two player names."))
            continue
        for j, name in enumerate(team):
            if not isinstance(name, str) or name not in players:
                problems.add(at(path, j), _("Name a player at this table: {players}."), players=", ".join(players))
            elif name in seen:
                problems.add(at(path, j), _("{name} is already in a team; each player is in exactly one."), name=name)
            else:
                seen.add(name)
        teams.append(tuple(team))
    return teams if len(seen) == len(players) else None


def read_stand(value: Any, path: str, count: int, problems: Problems) -> Stand | None:
    """A stand given as a tally or as a grid, with the goods it declares."""
    stand = read_object(value, path, problems)
    if stand is None:
        return None
    has_grid = "grid" in stand
    has_tally = "goods" in stand or "mice" in stand
    tally: dict[str, Any] | None = None
    if has_grid and has_tally:
        problems.add(path, _("A stand is given as a tally (goods and mice) or as a grid, not both."))
    elif has_grid:
        tally = read_grid(stand["grid"], at(path, "grid"), problems)
    elif has_tally:
        tally = read_tally(stand, path, problems)
    else:
        problems.add(path, _("Give this stand as a tally (goods and mice) or as a grid."))
    goods = None if tally is None else tally["goods"]
    declared = read_declared(stand.get("declared"), at(path, "declared"), goods, count, problems)
    if tally is None or declared is None:
        return None
    return Stand(tally["goods"], tally["mice"], declared, tally if has_grid else None)


def read_tally(stand: dict, path: str, problems: Problems) -> dict[str, Any] | None:
    """The goods and mice a player counted; what they imply must fit in eight cards."""
    goods = read_goods(stand.get("goods"), at(path, "goods"), problems)
    mice = read_int(stand.get("mice"), at(path, "mice"), problems, minimum=0, maximum=MAX_SPACES)
    if goods is None or mice is None:
        return None
    spaces = sum(entry["largest"] + entry["groups"] - 1 for entry in goods.values()) + mice
    if spaces > MAX_SPACES:
        problems.add(
            path,
            _("This tally needs at least {spaces} visible spaces; a stand of 8 cards shows at most {maximum}."),
            spaces=spaces,
            maximum=MAX_SPACES,
        )
        return None
    return {"goods": goods, "mice": mice}


def read_goods(value: Any, path: str, problems: Problems) -> GoodsTally | None:
    """The goods of a tally; a good left out (or with no groups) is not in the stand."""
    entries = read_object(value, path, problems)
    if entries is None:
        return None
    before = len(problems)
    if len(entries) > len(GOODS):
        problems.add(
            path,
            _("There are only {count} goods: {goods}; this lists {actual}."),
            count=len(GOODS),
            goods=ALL_GOODS,
            actual=len(entries),
        )
        return None
    for key in entries:
        if key not in GOOD_SET:
            problems.add(
                at(path, str(key)),
                _("'{value}' is not a good; the goods are: {goods}."),
                value=str(key)[:40],
                goods=ALL_GOODS,
            )
    goods: GoodsTally = {}
    for good in GOODS:
        if good in entries:
            entry = read_good(entries[good], at(path, good), problems)
            if entry is not None and entry["groups"]:
                goods[good] = entry
    return None if len(problems) > before else goods


def read_good(value: Any, path: str, problems: Problems) -> dict[str, int] | None:
    """{"largest": n, "groups": m} with n >= 1 exactly when m >= 1."""
    entry = read_object(value, path, problems)
    if entry is None:
        return None
    largest = read_int(entry.get("largest"), at(path, "largest"), problems, minimum=0, maximum=MAX_SPACES)
    groups = read_int(entry.get("groups"), at(path, "groups"), problems, minimum=0, maximum=MAX_SPACES)
    if largest is None or groups is None:
        return None
    if groups and not largest:
        problems.add(
            at(path, "largest"),
            _("With {groups} groups, the largest group has at least 1 space."),
            groups=groups,
        )
        return None
    if largest and not groups:
        problems.add(
            at(path, "groups"),
            _("A largest group of {largest} spaces makes at least 1 group."),
            largest=largest,
        )
        return None
    return {"largest": largest, "groups": groups}


def read_grid(value: Any, path: str, problems: Problems) -> dict[str, Any] | None:
    """The tally of a grid of visible spaces, once the grid is known to be a plausible stand."""
    rows = read_grid_rows(value, path, problems)
    if rows is None:
        return None
    flat, stride = framed(rows)
    spaces = len(flat) - flat.count(NO_CARD)
    if spaces > MAX_SPACES:
        problems.add(
            path,
            _("This grid shows {spaces} spaces; a stand of 8 cards shows at most {maximum}."),
            spaces=spaces,
            maximum=MAX_SPACES,
        )
        return None
    if spaces < CARD_SPACES:
        problems.add(
            path,
            _("This grid shows {spaces} spaces; the top card alone shows {minimum}."),
            spaces=spaces,
            minimum=CARD_SPACES,
        )
        return None
    if not is_one_piece(flat, stride):
        problems.add(path, _("The cards of a stand touch one another; this grid is in separate pieces."))
        return None
    return tally_of(flat, stride)


def read_grid_rows(value: Any, path: str, problems: Problems) -> list[str] | None:
    """Rows of equal length, at most 24 by 24, of the characters S B G C M E X and space."""
    if not isinstance(value, list) or not value:
        problems.add(path, _('A grid is a list of rows, each a text such as "SSGG  ".'))
        return None
    if len(value) > MAX_SIDE:
        problems.add(
            path,
            _("A stand spans at most {maximum} rows; this grid has {count}."),
            maximum=MAX_SIDE,
            count=len(value),
        )
        return None
    before = len(problems)
    width = None
    for r, row in enumerate(value):
        if not isinstance(row, str):
            problems.add(at(path, r), _('Each row of a grid is a text such as "SSGG  ".'))
        elif len(row) > MAX_SIDE:
            problems.add(
                at(path, r),
                _("A stand spans at most {maximum} spaces; this row has {count}."),
                maximum=MAX_SIDE,
                count=len(row),
            )
        elif not GRID_CELLS.issuperset(row):
            bad = next(char for char in row if char not in GRID_CELLS)
            problems.add(
                at(path, r),
                _("'{char}' is not a space of a stand; use S, B, G, C, M (goods), E (empty), X (mouse) or a blank."),
                char=bad,
            )
        elif width is None:
            width = len(row)
        elif len(row) != width:
            problems.add(
                at(path, r),
                _("All rows of a grid have the same length; this one has {length}, the first has {width}."),
                length=len(row),
                width=width,
            )
    return None if len(problems) > before else value


def read_declared(
    value: Any, path: str, goods: GoodsTally | None, count: int, problems: Problems
) -> tuple[str, ...] | None:
    """The goods a player declares as their biggest groups; left out, the unambiguous ones."""
    if value is None:
        return default_declaration(goods, count, path, problems)
    if not isinstance(value, list):
        problems.add(path, _('List the goods this player declares, such as ["grapes"].'))
        return None
    if len(value) > len(GOODS):
        problems.add(
            path,
            _("A player declares at most {maximum} goods; this lists {count}."),
            maximum=len(GOODS),
            count=len(value),
        )
        return None
    names = read_declared_names(value, path, goods, problems)
    if names is None or goods is None:
        return None
    choice = biggest_goods(goods, count)
    if len(names) != choice.size:
        problems.add(
            path,
            _("Declare exactly {expected} of this stand's goods (its biggest groups); it declares {actual}."),
            expected=choice.size,
            actual=len(names),
        )
        return None
    if not choice.allows(names):
        report_invalid_declaration(names, choice, goods, path, problems)
        return None
    return in_goods_order(names)


def default_declaration(goods: GoodsTally | None, count: int, path: str, problems: Problems) -> tuple[str, ...] | None:
    """The stand's biggest goods when there is no choice to make; otherwise a problem naming the choices."""
    if goods is None:
        return None
    choice = biggest_goods(goods, count)
    if choice.is_choice:
        problems.add(
            path,
            _("Goods tie for this stand's biggest groups, so the player declares which: {choices}."),
            choices=describe_choices(choice),
        )
        return None
    return in_goods_order(choice.forced + choice.tied)


def read_declared_names(value: list, path: str, goods: GoodsTally | None, problems: Problems) -> list[str] | None:
    """Distinct good names, each present in the stand when its goods are known."""
    names: list[str] = []
    ok = True
    for j, name in enumerate(value):
        if not isinstance(name, str) or name not in GOOD_SET:
            problems.add(at(path, j), _("Declare one of the goods: {goods}."), goods=ALL_GOODS)
            ok = False
        elif name in names:
            problems.add(at(path, j), _("{good} is declared twice."), good=good_named(name))
            ok = False
        elif goods is not None and name not in goods:
            problems.add(at(path, j), _("There are no {good} in this stand to declare."), good=good_named(name))
            ok = False
        else:
            names.append(name)
    return names if ok else None


def report_invalid_declaration(
    names: list[str], choice: BiggestGoods, goods: GoodsTally, path: str, problems: Problems
) -> None:
    """Say which declared good is not among the biggest, or which bigger good is left out."""
    choices = describe_choices(choice)
    outsiders = [j for j, name in enumerate(names) if name not in choice.forced and name not in choice.tied]
    for j in outsiders:
        problems.add(
            at(path, j),
            _("{good} (largest group {size}) is not among this stand's biggest groups; the choices are: {choices}."),
            good=good_named(names[j]),
            size=goods[names[j]]["largest"],
            choices=choices,
        )
    if not outsiders:
        missing = next(good for good in choice.forced if good not in names)
        problems.add(
            path,
            _("{good} has a bigger group than a declared good, so it must be declared; the choices are: {choices}."),
            good=good_named(missing),
            choices=choices,
        )


def describe_choices(choice: BiggestGoods) -> Listing:
    """The valid declarations as players say them: "strawberries / grapes", "bananas and grapes / ..."."""
    return Listing(
        tuple(components(KEY, "good", declaration, last=AND) for declaration in choice.declarations()),
        separator=" / ",
    )


#: The keys of a sheet the rules read (``shape``): a stand is a tally (goods by name, mice) or a grid.
DOCUMENT = {
    "teams": ANY,
    "stands": [{"declared": ANY, "grid": ANY, "goods": Each({"largest": ANY, "groups": ANY}), "mice": ANY}],
}


def default_variant(count: int) -> str:
    return "two-player" if count == 2 else "standard"


RULES = GameRules(
    key=KEY,
    name="Veggies",
    variants=(
        Variant("standard", _("Standard"), (3, 4)),
        Variant("two-player", _("Two players"), (2,)),
        Variant("teams", _("Teams"), (4,)),
    ),
    tally_fields=(
        TallyField("declared", _("Declared good"), _("The good of your biggest group, as you told the table.")),
        TallyField("largest", _("Largest group"), _("The spaces of your biggest group of this good.")),
        TallyField("groups", _("Groups"), _("How many separate groups of this good your stand has.")),
        TallyField("mice", _("Mice"), _("Mice visible in your stand: -2 points each.")),
    ),
    scorer=score_sheet,
    document=DOCUMENT,
    default_variant=default_variant,
    table_sizes=(2, 3, 4),
    tiebreak_label=_("fewest mice"),
)
