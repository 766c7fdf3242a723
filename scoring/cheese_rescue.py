"""Cheese Rescue: dogs scare cats, cats catch mice, mice eat cheese; players keep what is left.

A sheet gives either each player's tally (cheese points and cheese cards left on the board) or the
final board, from which the engine removes the cards itself (``remove_cards``) and adds up the cheeses.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, partial
from itertools import combinations
from operator import eq
from typing import Any, NamedTuple

from .errors import Problems, at
from .i18n import _
from .registry import GameOutcome, GameRules, PlayerScore, Sheet, TallyField, Variant
from .shape import ANY
from .values import read_int, read_list, read_object

DOG, CAT, MOUSE, START, CHEESE = "D", "C", "M", "S", "Q"

#: The side of the square board, by number of players.
BOARD_SIZES = {2: 5, 3: 6, 4: 7}
#: Start cards on the board, by number of players (with 3 it stays in the box).
START_CARDS = {2: 1, 3: 0, 4: 1}
#: The values of each player's six cheese cards.
SIX_CHEESES = (1, 1, 1, 2, 2, 3)
CHEESE_VALUES = {value: SIX_CHEESES.count(value) for value in sorted(set(SIX_CHEESES))}
#: Each player places 12 cards, at most 9 of them animals: at least 3 cheeses, and at most all six.
MIN_CHEESES_PLACED = 3
MAX_CHEESES_PLACED = len(SIX_CHEESES)
#: A digit string longer than this is no player number or cheese value (and int() stays cheap).
MAX_DIGITS = 6

Cell = tuple[int, int]


class Card(NamedTuple):
    """A card on the board: its kind and, for a cheese, the owner's seat (1-based) and value."""

    kind: str
    player: int = 0
    value: int = 0


class Removals(NamedTuple):
    """The cells removed at each step, in reading order: cats, then mice, then cheeses."""

    cats: list[Cell]
    mice: list[Cell]
    cheeses: list[Cell]


def cheese_sums(cards: int) -> frozenset[int]:
    """Every total that exactly ``cards`` of one player's six cheeses can make."""
    return frozenset(sum(chosen) for chosen in combinations(SIX_CHEESES, cards))


POSSIBLE_POINTS = {cards: cheese_sums(cards) for cards in range(len(SIX_CHEESES) + 1)}


@cache
def cards_for(player_count: int) -> dict[str, Card]:
    """Every cell text a board of ``player_count`` players may hold, with the card it names."""
    cards = {DOG: Card(DOG), CAT: Card(CAT), MOUSE: Card(MOUSE)}
    if START_CARDS[player_count]:
        cards[START] = Card(START)
    for player in range(1, player_count + 1):
        for value in CHEESE_VALUES:
            cards[f"{CHEESE}{player}:{value}"] = Card(CHEESE, player, value)
    return cards


# Removal


def is_cheese(cell: object) -> bool:
    return isinstance(cell, str) and cell.startswith(CHEESE)


IS_CAT = partial(eq, CAT)
IS_MOUSE = partial(eq, MOUSE)


def cells_touching(grid: Sequence[Sequence[object]], wanted: Callable[[object], bool], other: str) -> list[Cell]:
    """The cells for which ``wanted`` holds that have an ``other`` card on a side, in reading order."""
    found: list[Cell] = []
    last = len(grid) - 1
    for r, row in enumerate(grid):
        above = grid[r - 1] if r else ()
        below = grid[r + 1] if r < last else ()
        width = len(row)
        for c, cell in enumerate(row):
            if wanted(cell) and (
                (c and row[c - 1] == other)
                or (c + 1 < width and row[c + 1] == other)
                or (c < len(above) and above[c] == other)
                or (c < len(below) and below[c] == other)
            ):
                found.append((r, c))
    return found


def clear(grid: list[list[object]], cells: list[Cell]) -> None:
    for r, c in cells:
        grid[r][c] = None


def remove_cards(board: Sequence[Sequence[object]]) -> tuple[list[list[object]], Removals]:
    """The board after the end-of-game removals, and the cells removed at each step.

    First every cat next to a dog goes, then every mouse next to a cat still there, then every cheese
    (``Qk:v``) next to a mouse still there. Each step takes its cards all at once, so the result does
    not depend on the order cells are looked at. Removed cells become None; ``board`` is not changed.
    """
    after = [list(row) for row in board]
    cats = cells_touching(after, IS_CAT, DOG)
    clear(after, cats)
    mice = cells_touching(after, IS_MOUSE, CAT)
    clear(after, mice)
    cheeses = cells_touching(after, is_cheese, MOUSE)
    clear(after, cheeses)
    return after, Removals(cats, mice, cheeses)


# Reading a board


def read_board(value: Any, player_count: int, problems: Problems) -> list[list[str]] | None:
    """The board of a finished game, every cell a known card, or None after reporting."""
    rows = read_list(value, "board", problems)
    if rows is None:
        return None
    size = BOARD_SIZES[player_count]
    if len(rows) != size:
        problems.add(
            "board",
            _("With {players} players the board is {size} by {size} cards; this board has {rows} rows."),
            players=player_count,
            size=size,
            rows=len(rows),
        )
        return None
    cards = cards_for(player_count)
    ok = True
    for r, row in enumerate(rows):
        path = at("board", r)
        if not isinstance(row, list) or len(row) != size:
            report_bad_row(row, path, player_count, problems)
            ok = False
            continue
        for c, cell in enumerate(row):
            if not (isinstance(cell, str) and cell in cards):
                report_bad_cell(cell, at(path, c), player_count, problems)
                ok = False
    if not ok:
        return None
    check_start_cards(rows, player_count, problems)
    check_cheeses_placed(rows, player_count, problems)
    return rows


def report_bad_row(row: Any, path: str, player_count: int, problems: Problems) -> None:
    size = BOARD_SIZES[player_count]
    if not isinstance(row, list):
        problems.add(path, _("A row of the board is a list of {size} cards."), size=size)
    else:
        problems.add(
            path,
            _("With {players} players each row of the board has {size} cards; this row has {count}."),
            players=player_count,
            size=size,
            count=len(row),
        )


def report_bad_cell(cell: Any, path: str, player_count: int, problems: Problems) -> None:
    """Say why ``cell`` is not a card of this board."""
    if cell is None or (isinstance(cell, str) and not cell.strip()):
        problems.add(path, _("This square is empty; at the end of the game every square of the board holds a card."))
    elif not isinstance(cell, str):
        problems.add(
            path,
            _(
                "A square holds a card written as text: D (dog), C (cat), M (mouse), S (start card) "
                "or Qk:v (a cheese of player k worth v)."
            ),
        )
    elif cell == START:
        problems.add(path, _("With 3 players the start card stays in the box; this square must hold another card."))
    elif not report_bad_cheese(cell, path, player_count, problems):
        problems.add(
            path,
            _(
                "'{value}' is not a card; a square holds D (dog), C (cat), M (mouse), S (start card) "
                "or Qk:v (a cheese of player k worth v)."
            ),
            value=cell[:20],
        )


def report_bad_cheese(cell: str, path: str, player_count: int, problems: Problems) -> bool:
    """Report a cheese ``Qk:v`` whose player or value is out of range; False if nothing was reported."""
    parts = parse_cheese(cell)
    if parts is None:
        return False
    player, value = parts
    before = len(problems)
    if not 1 <= player <= player_count:
        problems.add(
            path,
            _("Cheeses belong to players 1 to {count}; this one says player {player}."),
            count=player_count,
            player=player,
        )
    if value not in CHEESE_VALUES:
        problems.add(path, _("A cheese is worth 1, 2 or 3 points; this one says {value}."), value=value)
    return len(problems) > before


def parse_cheese(cell: str) -> tuple[int, int] | None:
    """The numbers k and v of a text of the form ``Qk:v`` (ASCII digits), else None."""
    if not cell.startswith(CHEESE):
        return None
    player, colon, value = cell[1:].partition(":")
    if not colon or not is_small_number(player) or not is_small_number(value):
        return None
    return int(player), int(value)


def is_small_number(text: str) -> bool:
    return 0 < len(text) <= MAX_DIGITS and all("0" <= ch <= "9" for ch in text)


def check_start_cards(rows: list[list[str]], player_count: int, problems: Problems) -> None:
    """With 2 and 4 players exactly one start card lies on the board (3 players: checked per cell)."""
    expected = START_CARDS[player_count]
    found = sum(row.count(START) for row in rows)
    if expected and found != expected:
        problems.add(
            "board",
            _("With {players} players the board holds exactly one start card; this board has {count}."),
            players=player_count,
            count=found,
        )


def check_cheeses_placed(rows: list[list[str]], player_count: int, problems: Problems) -> None:
    """Each player's cheeses on the board: 3 to 6 of them, and values from their six."""
    cards = cards_for(player_count)
    placed: list[list[int]] = [[] for _seat in range(player_count)]
    for row in rows:
        for cell in row:
            card = cards[cell]
            if card.kind == CHEESE:
                placed[card.player - 1].append(card.value)
    for player, values in enumerate(placed, start=1):
        check_player_cheeses(player, values, problems)


def check_player_cheeses(player: int, values: list[int], problems: Problems) -> None:
    if len(values) < MIN_CHEESES_PLACED:
        problems.add(
            "board",
            _(
                "Player {player} has too few cheeses on the board ({count}); each player places 12 cards "
                "and at most 9 of them are animals, so at least 3 are cheeses."
            ),
            player=player,
            count=len(values),
        )
        return
    if len(values) > MAX_CHEESES_PLACED:
        problems.add(
            "board",
            _("Player {player} has {count} cheeses on the board; each player has only six."),
            player=player,
            count=len(values),
        )
        return
    for value, available in CHEESE_VALUES.items():
        count = values.count(value)
        if count > available:
            problems.add(
                "board",
                _("Player {player} has {count} cheeses worth {value}; their six cheeses are 1, 1, 1, 2, 2 and 3."),
                player=player,
                count=count,
                value=value,
            )


# Scoring


def score_board(rows: list[list[str]], player_count: int) -> GameOutcome:
    """Remove the cards, then each player scores the cheeses they have left."""
    cards = cards_for(player_count)
    after, removed = remove_cards(rows)
    points = [0] * player_count
    kept = [0] * player_count
    lost: list[list[int]] = [[] for _seat in range(player_count)]
    for row in after:
        for cell in row:
            if cell is not None:
                card = cards[cell]
                if card.kind == CHEESE:
                    points[card.player - 1] += card.value
                    kept[card.player - 1] += 1
    for r, c in removed.cheeses:
        card = cards[rows[r][c]]
        lost[card.player - 1].append(card.value)
    counts = {"cats": len(removed.cats), "mice": len(removed.mice), "cheeses": len(removed.cheeses)}
    return GameOutcome(
        [
            PlayerScore(
                points[seat],
                (kept[seat],),
                {
                    "removed": dict(counts),
                    "cheese_cards": kept[seat],
                    "cheese_points": points[seat],
                    "lost_cheeses": sorted(lost[seat], reverse=True),
                    "board_after": [list(row) for row in after],
                },
            )
            for seat in range(player_count)
        ]
    )


def read_tally(value: Any, path: str, problems: Problems) -> PlayerScore | None:
    """One player's tally: cheese cards left (0 to 6) and the points some of their six cheeses make."""
    tally = read_object(value, path, problems)
    if tally is None:
        return None
    cards_path, points_path = at(path, "cheese_cards"), at(path, "cheese_points")
    cards = read_int(tally.get("cheese_cards"), cards_path, problems, minimum=0, maximum=len(SIX_CHEESES))
    points = read_int(tally.get("cheese_points"), points_path, problems, minimum=0, maximum=sum(SIX_CHEESES))
    if cards is None or points is None:
        return None
    if points not in POSSIBLE_POINTS[cards]:
        report_impossible_points(cards, points, points_path, problems)
        return None
    return PlayerScore(points, (cards,), {"cheese_cards": cards, "cheese_points": points})


def report_impossible_points(cards: int, points: int, path: str, problems: Problems) -> None:
    possible = POSSIBLE_POINTS[cards]
    low, high = min(possible), max(possible)
    if cards == 0:
        problems.add(path, _("A player with no cheese cards left has 0 points, not {points}."), points=points)
    elif low == high:
        problems.add(
            path,
            _("{points} points cannot come from {cards} of the cheeses 1, 1, 1, 2, 2 and 3, only {low}."),
            points=points,
            cards=cards,
            low=low,
        )
    else:
        problems.add(
            path,
            _("{points} points cannot come from {cards} of the cheeses 1, 1, 1, 2, 2 and 3, only {low} to {high}."),
            points=points,
            cards=cards,
            low=low,
            high=high,
        )


def score_tallies(value: Any, player_count: int, problems: Problems) -> GameOutcome | None:
    entries = read_list(value, "tallies", problems, length=player_count)
    if entries is None:
        return None
    scores = [read_tally(entry, at("tallies", i), problems) for i, entry in enumerate(entries)]
    if any(s is None for s in scores):
        return None
    return GameOutcome(scores)  # type: ignore[arg-type]


def score_sheet(document: dict, sheet: Sheet, problems: Problems) -> GameOutcome | None:
    """Score the tallies, or the final board, of one game of Cheese Rescue."""
    player_count = len(sheet.players)
    tallies, board = document.get("tallies"), document.get("board")
    if tallies is not None and board is not None:
        problems.add("", _("Give either the tallies or the final board, not both."))
        return None
    if board is not None:
        before = len(problems)
        rows = read_board(board, player_count, problems)
        return None if rows is None or len(problems) > before else score_board(rows, player_count)
    if tallies is not None:
        return score_tallies(tallies, player_count, problems)
    problems.add(
        "", _("Give either the tallies (each player's cheese points and cheese cards left) or the final board.")
    )
    return None


#: The keys of a sheet the rules read (``shape``): each player's tally, or the final board.
DOCUMENT = {"tallies": [{"cheese_points": ANY, "cheese_cards": ANY}], "board": ANY}

RULES = GameRules(
    key="cheese-rescue",
    name="Cheese Rescue",
    variants=(Variant("standard", _("Standard"), (2, 3, 4)),),
    tally_fields=(
        TallyField("cheese_points", _("Cheese points"), _("The points of your cheeses left on the board.")),
        TallyField("cheese_cards", _("Cheese cards"), _("How many of your cheeses are left on the board.")),
    ),
    scorer=score_sheet,
    document=DOCUMENT,
    default_variant=lambda count: "standard",
    table_sizes=(2, 3, 4),
    tiebreak_label=_("most cheese cards left"),
)
