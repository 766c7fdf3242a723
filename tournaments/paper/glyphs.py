"""A handwritten character's ink, normalised: what the reader's classifiers see of a box.

A box's ink is normalised the way the UCI optdigits data was made (NIST's preprocessing): binarised, its specks and
what is left of the printed border dropped, cut to the character's bounding box, scaled to fit 32x32 keeping its
aspect ratio, and centred. Two steps are added, for hands and pens unlike each other: thin strokes are thickened to
a usual width, and the character is stood upright (its slant sheared away). The classifiers look at it two ways: its
pixels (16x16 shares of ink) and its strokes' directions (8 directions counted in 4x4 cells), two opinions that
fail on different characters. ``counts`` are the optdigits features themselves (8x8 counts 0..16).
"""

from __future__ import annotations

import functools

import numpy as np
from scipy import ndimage

#: Pixels touch their eight neighbours.
EIGHT = np.ones((3, 3), bool)
#: The ink level from which a pixel is a stroke's, and the fainter one at which a box may hold a pale digit.
INK, FAINT = 0.5, 0.25
#: The side of the normalised bitmap, and of the blocks counted in it.
SIDE, BLOCK = 32, 4
#: Fractions of the box's size: how far from an edge a fragment of its printed border may start, and how thick it may
#: be (or how far in a long straight line along the edge may reach).
GAP, LINE = 0.04, 0.25
#: Pixels from an edge within which a line is surely the printed border's, even beside a digit or joined to it.
AT_EDGE = 1
#: Fractions of the box's smaller side: ink smaller than this is a speck; a digit's parts lie this near its largest.
SPECK, NEAR = 0.12, 0.15
#: A part kept beside the largest one has at least this share of its pixels.
PART = 0.1
#: Pale ink whose edges fade slower than this (ink per pixel) is a smudge, not a pen's stroke.
SOFT = 0.11
#: The height, as a fraction of the box's, below which ink is no digit, and from which it surely is one.
EMPTY_BELOW, DIGIT_FROM = 0.15, 0.3
#: The confidence of an empty read when ink is there that might be a digit.
MAYBE_EMPTY = 0.3
#: The stroke width (in pixels of the 32x32 bitmap) that thinner strokes are thickened to, as the training writers'
#: strokes mostly are.
THICKEST = 6.0
#: A pixel of the normalised bitmap is on when at least this share of it is covered.
COVERED = 0.4
#: The blur (pixels of the 32x32 bitmap) before the strokes' directions are measured; how many directions; cells a
#: side in which they are counted.
SOFTENED, FACINGS, CELLS = 1.0, 8, 4


def _digit_or_empty(ink: np.ndarray) -> tuple[np.ndarray | None, float]:
    """The digit's strokes cut to their bounding box, or None and how sure the box is empty: pale strokes of a
    digit's size (not a smudge, not light noise) make it unsure."""
    digit, sure = _digit(ink >= INK)
    if digit is None and sure == 1.0:
        pale = ndimage.uniform_filter(ink, 3) >= FAINT
        if _digit(pale)[0] is not None and not _smudge(ink, pale):
            sure = MAYBE_EMPTY
    return digit, sure


def _smudge(ink: np.ndarray, pale: np.ndarray) -> bool:
    """Whether the ``pale`` parts of ``ink`` are smudges: soft-edged, unlike a pen's strokes."""
    edges = pale & ~ndimage.binary_erosion(pale, structure=EIGHT)
    steepness = ndimage.maximum_filter(np.hypot(*np.gradient(ink)), size=3)
    return float(np.median(steepness[edges])) < SOFT


def _sheared(on: np.ndarray, factor: float) -> np.ndarray:
    """``on`` with each row moved left by ``factor`` times its distance below the ink's middle, cut to its bounding
    box."""
    ys, xs = np.nonzero(on)
    xs = xs - np.rint(factor * (ys - ys.mean())).astype(int)
    sheared = np.zeros((ys.max() - ys.min() + 1, xs.max() - xs.min() + 1), bool)
    sheared[ys - ys.min(), xs - xs.min()] = True
    return sheared


def _cut(on: np.ndarray) -> np.ndarray:
    """``on`` cut to its bounding box (``on`` has some ink)."""
    rows, columns = np.flatnonzero(on.any(axis=1)), np.flatnonzero(on.any(axis=0))
    return on[rows[0] : rows[-1] + 1, columns[0] : columns[-1] + 1]


def _digit(on: np.ndarray) -> tuple[np.ndarray | None, float]:
    """The digit's strokes in ``on`` (a box's inked pixels) cut to their bounding box, or None and how sure the box
    is empty."""
    if not on.any():
        return None, 1.0
    on = _strokes(_without_border_lines(on))
    if not on.any():
        return None, 1.0
    digit = _cut(on)
    height = digit.shape[0] / on.shape[0]
    if height < DIGIT_FROM:
        return None, 1.0 if height < EMPTY_BELOW else MAYBE_EMPTY
    return digit, 1.0


def _without_border_lines(on: np.ndarray) -> np.ndarray:
    """``on`` less the long straight lines along its edges and touching them: the box's printed border, where a
    digit's stroke runs into it."""
    height, width = on.shape
    rows, columns = max(2, round(LINE * height)), max(2, round(LINE * width))
    across, down = np.ones((1, max(3, width // 3)), bool), np.ones((max(3, height // 3), 1), bool)
    edges = [
        (np.s_[:rows, :], np.s_[: AT_EDGE + 1, :], across, 0, True),
        (np.s_[-rows:, :], np.s_[-AT_EDGE - 1 :, :], across, 0, False),
        (np.s_[:, :columns], np.s_[:, : AT_EDGE + 1], down, 1, True),
        (np.s_[:, -columns:], np.s_[:, -AT_EDGE - 1 :], down, 1, False),
    ]
    cleaned = on
    for zone, edge, line, axis, first in edges:
        if 2 * np.count_nonzero(on[edge]) >= line.size:
            cleaned = cleaned.copy() if cleaned is on else cleaned
            lines = _touching(ndimage.binary_opening(on[zone], structure=line), axis, first)
            # With the pixels beside them: the steps of a line drawn a little askew.
            cleaned[zone] &= ~ndimage.binary_dilation(lines, structure=EIGHT)
    return cleaned


def _touching(lines: np.ndarray, axis: int, first: bool) -> np.ndarray:
    """The parts of ``lines`` (a zone along an edge) at that edge (the zone's first or last pixels along ``axis``)."""
    labels, count = ndimage.label(lines, structure=EIGHT)
    size = labels.shape[axis]
    reach = min(AT_EDGE + 1, size)
    outer = labels.take(range(reach) if first else range(size - reach, size), axis=axis)
    touching = np.zeros(count + 1, bool)
    touching[outer[outer > 0]] = True
    return touching[labels]


def _reach(size: int) -> int:
    """How far from an edge of a box ``size`` pixels across a fragment of its border may start."""
    return max(2, round(GAP * size))


def _strokes(on: np.ndarray) -> np.ndarray:
    """The parts of ``on`` that are a digit's: its largest part and those near it, not much smaller; no specks, no
    fragments of the printed border (thin parts along an edge, at it or near it and long)."""
    labels, count = ndimage.label(on, structure=EIGHT)
    parts = ndimage.find_objects(labels)
    if count == 1:
        return np.zeros_like(on) if _speck(parts[0], on.shape) or _border(parts[0], on.shape) else on
    areas = np.bincount(labels.ravel(), minlength=count + 1)[1:]
    specks = np.array([_speck(part, on.shape) for part in parts], bool)
    borders = np.array([_border(part, on.shape) for part in parts], bool)
    body = ~specks & ~borders
    if not body.any():
        return np.zeros_like(on)
    largest = int(np.argmax(np.where(body, areas, -1)))
    kept = ~specks & (areas >= PART * areas[largest])
    kept &= np.array([_near(part, parts[largest], on.shape) for part in parts], bool)
    # A thin stroke along an edge beside the digit is the digit's (a 5's flag near the top) unless it is at the edge.
    kept &= ~np.array([border and _border(part, on.shape, reach=AT_EDGE) for part, border in zip(parts, borders)], bool)
    return np.concatenate([[False], kept])[labels]


def _speck(part: tuple[slice, slice], shape: tuple[int, int]) -> bool:
    """Whether ``part`` (its rows and columns) is too small to be a stroke in a box of ``shape``."""
    rows, columns = part
    return max(rows.stop - rows.start, columns.stop - columns.start) < SPECK * min(shape)


def _border(part: tuple[slice, slice], shape: tuple[int, int], reach: int | None = None) -> bool:
    """Whether ``part`` (its rows and columns) is thin and runs along an edge of a box of ``shape``, within
    ``reach`` pixels of it (by default as far as the border may be left)."""
    (rows, columns), (height, width) = part, shape
    tall, wide = rows.stop - rows.start, columns.stop - columns.start
    near_rows = _reach(height) if reach is None else reach
    near_columns = _reach(width) if reach is None else reach
    along_top = rows.start <= near_rows or rows.stop >= height - near_rows
    along_side = columns.start <= near_columns or columns.stop >= width - near_columns
    flat = tall <= LINE * height and wide >= 2 * tall
    narrow = wide <= LINE * width and tall >= 2 * wide
    return (along_top and flat) or (along_side and narrow)


def _near(part: tuple[slice, slice], largest: tuple[slice, slice], shape: tuple[int, int]) -> bool:
    """Whether ``part`` lies within reach of the ``largest`` part, as a digit's other strokes do."""
    reach = NEAR * min(shape)
    return all(
        mine.start < theirs.stop + reach and mine.stop > theirs.start - reach for mine, theirs in zip(part, largest)
    )


@functools.lru_cache(maxsize=4096)
def _resampling(size: int, new_size: int) -> np.ndarray:
    """The (new_size, size) matrix that averages ``size`` pixels into ``new_size`` by the share each covers."""
    edges = np.linspace(0.0, size, new_size + 1)
    pixels = np.arange(size)
    overlap = np.minimum(edges[1:, None], pixels + 1) - np.maximum(edges[:-1, None], pixels)
    return np.clip(overlap, 0.0, None) * (new_size / size)


def _stroke_width(on: np.ndarray) -> float:
    """The mean width of the strokes of ``on``, in pixels: twice their area over their edge pixels (those with a
    side that is paper or the edge of ``on``)."""
    inside = on[1:-1, 1:-1] & on[:-2, 1:-1] & on[2:, 1:-1] & on[1:-1, :-2] & on[1:-1, 2:]
    area = np.count_nonzero(on)
    return 2.0 * area / max(1, area - np.count_nonzero(inside))


def _thickened(digit: np.ndarray) -> np.ndarray:
    """``digit`` (its bounding box) with strokes drawn at least as thick, for its size, as the training writers'."""
    width = _stroke_width(digit)
    wanted = THICKEST * max(digit.shape) / SIDE
    if width >= wanted:
        return digit
    radius = (wanted - width) / 2
    margin = int(np.ceil(radius)) + 1
    return _cut(ndimage.distance_transform_edt(~np.pad(digit, margin)) <= radius)


def _upright(digit: np.ndarray) -> np.ndarray:
    """``digit`` with its rows moved across so that its strokes lean neither way (its pixels' x and y
    uncorrelated)."""
    ys, xs = np.nonzero(digit)
    rise = ys - ys.mean()
    lean = float(np.dot(rise, xs) / max(np.dot(rise, rise), 1.0))
    return _sheared(digit, lean) if abs(lean) >= 0.05 else digit


def _counts(digit: np.ndarray) -> np.ndarray:
    """The 8x8 block counts of ``digit`` (its bounding box, strokes thickened) normalised to 32x32."""
    return _bitmap(digit).reshape(SIDE // BLOCK, BLOCK, SIDE // BLOCK, BLOCK).sum(axis=(1, 3)).ravel()


def _bitmap(digit: np.ndarray) -> np.ndarray:
    """``digit`` (its bounding box) upright, scaled to fit 32x32, centred."""
    digit = _upright(digit)
    height, width = digit.shape
    scale = SIDE / max(height, width)
    new_height, new_width = max(1, round(height * scale)), max(1, round(width * scale))
    covered = _resampling(height, new_height) @ digit.astype(float) @ _resampling(width, new_width).T
    bitmap = np.zeros((SIDE, SIDE), bool)
    top, left = (SIDE - new_height) // 2, (SIDE - new_width) // 2
    bitmap[top : top + new_height, left : left + new_width] = covered >= COVERED
    return bitmap


def written(ink: np.ndarray) -> tuple[np.ndarray | None, float]:
    """The normalised 32x32 bitmap of the character in ``ink`` (a box's inside, 2-D, 0 paper .. 1 full ink), or None
    and how sure the box is empty."""
    character, sure = _digit_or_empty(np.asarray(ink, dtype=float))
    return (None, sure) if character is None else (_bitmap(_thickened(character)), 1.0)


def counts(ink: np.ndarray) -> np.ndarray | None:
    """The 64 optdigits counts (0..16) of the character in ``ink``; None when the box is empty."""
    character, _ = _digit(np.asarray(ink, dtype=float) >= INK)
    return None if character is None else _counts(_thickened(character))


def pixels(bitmap: np.ndarray) -> np.ndarray:
    """The share of ink in each 2x2 block of a normalised bitmap: 256 values 0..1."""
    return bitmap.reshape(SIDE // 2, 2, SIDE // 2, 2).mean(axis=(1, 3)).ravel()


def directions(bitmap: np.ndarray) -> np.ndarray:
    """How much of a normalised bitmap's outline faces each of 8 directions, in each cell of a 4x4 grid: 128 values,
    their sum 1."""
    soft = ndimage.gaussian_filter(bitmap.astype(float), SOFTENED)
    dy, dx = ndimage.sobel(soft, axis=0), ndimage.sobel(soft, axis=1)
    strength = np.hypot(dx, dy)
    facing = (np.rint(np.arctan2(dy, dx) / (2 * np.pi) * FACINGS).astype(int)) % FACINGS
    cell = SIDE // CELLS
    cells = (np.arange(SIDE)[:, None] // cell) * CELLS + np.arange(SIDE)[None, :] // cell
    counted = np.bincount((cells * FACINGS + facing).ravel(), strength.ravel(), CELLS * CELLS * FACINGS)
    return counted / max(float(counted.sum()), 1e-9)
