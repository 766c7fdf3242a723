"""Orthogonal groups on a grid: Veggies stands, Snack Match zones, Cheese Rescue boards.

Three views of the same search, each the fastest for its caller: ``find_groups`` returns the cells of
each group of a row-major grid; ``flat_groups`` the (kind, size) of each group of a flattened grid;
``piece_sizes`` the sizes of the connected pieces of a bit set laid out on a framed grid.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import cache

Cell = tuple[int, int]


@dataclass(frozen=True)
class Group:
    """Cells of one kind that touch side by side."""

    kind: Hashable
    cells: frozenset[Cell]

    @property
    def size(self) -> int:
        return len(self.cells)


@cache
def neighbour_table(count: int, width: int) -> tuple[tuple[int, ...], ...]:
    """For each index of a flattened grid of ``count`` cells, ``width`` to a row, its orthogonal neighbours."""
    table = []
    for index in range(count):
        row, col = divmod(index, width)
        around = []
        if row:
            around.append(index - width)
        if col:
            around.append(index - 1)
        if col + 1 < width and index + 1 < count:
            around.append(index + 1)
        if index + width < count:
            around.append(index + width)
        table.append(tuple(around))
    return tuple(table)


def flat_members(cells: Sequence[Hashable | None], width: int) -> list[tuple[Hashable, list[int]]]:
    """Each group of equal, non-None values of a flattened grid: (value, indexes), in reading order."""
    neighbours = neighbour_table(len(cells), width)
    seen = [False] * len(cells)
    groups = []
    for start, value in enumerate(cells):
        if value is None or seen[start]:
            continue
        seen[start] = True
        members = [start]
        stack = [start]
        while stack:
            for other in neighbours[stack.pop()]:
                if not seen[other] and cells[other] == value:
                    seen[other] = True
                    members.append(other)
                    stack.append(other)
        groups.append((value, members))
    return groups


def flat_groups(cells: Sequence[Hashable | None], width: int) -> list[tuple[Hashable, int]]:
    """Each group of equal, non-None values of a flattened grid: (value, size), in reading order."""
    return [(value, len(members)) for value, members in flat_members(cells, width)]


def find_groups(
    grid: Sequence[Sequence[Hashable]],
    kind_of: Callable[[Hashable], Hashable | None] = lambda value: value,
) -> list[Group]:
    """Every orthogonally connected group of cells whose ``kind_of`` is the same and not None.

    Rows may differ in length (missing cells belong to no group). Groups come in reading order of
    their first cell, so results are deterministic.
    """
    width = max((len(row) for row in grid), default=0)
    if not width:
        return []
    flat: list[Hashable | None] = []
    for row in grid:
        flat.extend(kind_of(value) for value in row)
        flat.extend([None] * (width - len(row)))
    return [
        Group(kind, frozenset(divmod(index, width) for index in members)) for kind, members in flat_members(flat, width)
    ]


def piece_of(seed: int, cells: int, stride: int) -> int:
    """The piece of the bit set ``cells`` holding the bit ``seed``, grown one step to every side until it stops.

    Bit i is the cell at index i of a grid framed by empty cells, ``stride`` to a row, so a cell's
    neighbours are the bits 1 and ``stride`` away and nothing grows across the edge of a row.
    """
    piece = seed
    while True:
        grown = (piece | piece << 1 | piece >> 1 | piece << stride | piece >> stride) & cells
        if grown == piece:
            return piece
        piece = grown


def piece_sizes(cells: int, stride: int) -> list[int]:
    """The size of each orthogonally connected piece of the bit set ``cells`` of a framed grid."""
    sizes = []
    while cells:
        piece = piece_of(cells & -cells, cells, stride)
        sizes.append(piece.bit_count())
        cells ^= piece
    return sizes
