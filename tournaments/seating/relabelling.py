"""Find which player plays which part of a planned schedule: an isomorphism of meeting graphs.

The mixer plans a whole event on player numbers. If the meetings so far are the planned rounds'
meetings under some renaming of the players (for example when round one was seated at random),
the rest of the plan, renamed the same way, still avoids every repeat.
"""

from __future__ import annotations

import time
from collections import Counter

Matrix = list[list[int]]

SEARCH_NODES = 400


def find_relabelling(
    pattern: Matrix, target: Matrix, preferred: list[int], deadline: float = float("inf")
) -> list[int] | None:
    """A bijection ``f`` with ``pattern[u][v] == target[f[u]][f[v]]`` for all ``u, v``, or None.

    Individualisation and refinement: colour both graphs alike, then repeatedly pair one vertex of
    ``pattern`` with a same-coloured vertex of ``target`` and refine, backtracking on a mismatch.
    ``preferred[u]`` is tried first as the image of ``u``, so equal graphs give ``preferred`` back.
    Gives up (None) after a bounded number of tries or at ``deadline`` (``time.monotonic``).
    """
    n = len(pattern)
    if len(target) != n:
        return None
    if is_relabelling(pattern, target, preferred):
        return list(preferred)
    rows = sparse_rows(pattern + target)
    nodes = 0

    def giving_up() -> bool:
        return nodes > SEARCH_NODES or time.monotonic() > deadline

    def search(colours: list[int]) -> list[int] | None:
        nonlocal nodes
        nodes += 1
        if giving_up() or Counter(colours[:n]) != Counter(colours[n:]):
            return None
        classes = Counter(colours[:n])
        open_classes = [c for c, size in classes.items() if size > 1]
        if not open_classes:
            where = {colour: w for w, colour in enumerate(colours[n:])}
            image = [where[colour] for colour in colours[:n]]
            return image if is_relabelling(pattern, target, image) else None
        colour = min(open_classes, key=lambda c: (classes[c], c))
        u = colours.index(colour)
        images = [w for w in range(n) if colours[n + w] == colour]
        images.sort(key=lambda w: w != preferred[u])
        fresh = max(colours) + 1
        for w in images:
            individualised = list(colours)
            individualised[u] = individualised[n + w] = fresh
            found = search(refine(rows, individualised, deadline))
            if found is not None or giving_up():
                return found
        return None

    return search(refine(rows, [0] * 2 * n, deadline))


def is_relabelling(pattern: Matrix, target: Matrix, image: list[int]) -> bool:
    """Whether ``image`` carries ``pattern`` onto ``target``."""
    return all(
        row[v] == target_row[image[v]]
        for row, target_row in ((pattern[u], target[image[u]]) for u in range(len(pattern)))
        for v in range(len(row))
    )


Rows = list[tuple[int, list[tuple[int, int]]]]


def sparse_rows(matrix: Matrix) -> Rows:
    """Each row of ``matrix`` (which may stack the rows of two graphs with the same number of vertices, each row's
    neighbours in its own graph) as its most common weight (the smallest of equally common ones) and its other
    entries, each as (row of the stacked matrix, weight): short whether the graph is
    sparse (early rounds) or nearly complete (late ones)."""
    n = len(matrix[0]) if matrix else 0
    rows = []
    for v, row in enumerate(matrix):
        offset = v - v % n
        counts = Counter(row)
        common = min(counts, key=lambda weight: (-counts[weight], weight))
        rows.append((common, [(offset + u, weight) for u, weight in enumerate(row) if weight != common]))
    return rows


def refine(rows: Rows, colours: list[int], deadline: float = float("inf")) -> list[int]:
    """Colour refinement (1-dimensional Weisfeiler-Leman) of weighted graphs, starting from ``colours``, on rows
    made by ``sparse_rows`` (the colours of stacked graphs stay comparable): a row's colour class and entries other
    than its most common weight tell it apart, its colour class sizes being the same in both graphs. Stops, not
    refined to the end, when ``deadline`` passes."""
    classes = len(set(colours))
    while time.monotonic() <= deadline:
        signatures = [
            (colours[v], common, tuple(sorted((weight, colours[u]) for u, weight in entries)))
            for v, (common, entries) in enumerate(rows)
        ]
        ids = {signature: i for i, signature in enumerate(sorted(set(signatures)))}
        colours = [ids[signature] for signature in signatures]
        if len(ids) == classes:
            break
        classes = len(ids)
    return colours
