"""Reading one handwritten digit from the inside of a printed write-in box.

A box's ink is normalised the way the UCI optdigits data was made (NIST's preprocessing): binarised, its specks and
what is left of the printed border dropped, cut to the digit's bounding box, scaled to fit 32x32 keeping its aspect
ratio, centred, and counted in 4x4 blocks: 64 counts in 0..16. Two steps are added, for hands and pens unlike the
data's: thin strokes are thickened to the data writers' usual width, and the digit is stood upright (its slant
sheared away).

The classifier learns from scikit-learn's bundled copy of that data (13 writers, the last two held out): each 8x8
image turned back into a bitmap, distorted a little the ways hands differ, and sent through the same ``features``
the app reads with. It is a support vector machine calibrated on writers it was not fitted on, voting with nearest
neighbours, trained on first use, once a process. A box is read as written and turned a little either way, and the
three reads' chances averaged: a digit read the same in all is surely read right.
"""

from __future__ import annotations

import functools

import numpy as np
from scipy import ndimage

#: The ``load_digits`` indices never trained on (the last two writers' digits), for tests and benchmarks.
HELD_OUT = slice(1521, None)
#: A read whose confidence is below this is marked unsure, for a person to check.
UNSURE_BELOW = 0.85
ANY_DIGIT = "0123456789"

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
#: The reading's views of a digit: as written and turned (degrees).
TURNS = (0.0, 6.0, -6.0)
#: Distorted copies of each training digit; the random seed that makes them; the writers trained on.
VARIANTS, SEED, WRITERS = 2, 20260, 11
#: The margin around a training digit's 32x32 bitmap, room to turn it in.
MARGIN = 6
#: The width of the support vector machine's kernel, for counts 0..16; the share of the neighbours' vote.
GAMMA, NEIGHBOURS_SHARE = 0.01 / 16, 0.3


def features(ink: np.ndarray) -> np.ndarray | None:
    """The 64 optdigits counts (0..16) of the digit in ``ink`` (the inside of a box, 2-D, 0 paper .. 1 full ink),
    normalised as the module says; None when the box is empty."""
    digit, _ = _digit(np.asarray(ink, dtype=float) >= INK)
    return None if digit is None else _counts(_thickened(digit))


def read_digit(ink: np.ndarray, allowed: str = ANY_DIGIT) -> tuple[int | None, float]:
    """The digit written in ``ink``, one of ``allowed``, and how sure that is (0..1); None for an empty box."""
    return read_digits([(ink, allowed)])[0]


def read_digits(items: list[tuple[np.ndarray, str]]) -> list[tuple[int | None, float]]:
    """``read_digit`` of every (ink, allowed) pair, classified in one batch."""
    found = [_digit_or_empty(np.asarray(ink, dtype=float)) for ink, _ in items]
    reads: list[tuple[int | None, float]] = [(None, sure) for _, sure in found]
    written = [index for index, (digit, _) in enumerate(found) if digit is not None]
    if not written:
        return reads
    model = _classifier()
    views = np.array([counts for index in written for counts in _views(found[index][0])])
    chances = model.predict_proba(views).reshape(len(written), len(TURNS), -1).mean(axis=1)
    classes = [int(label) for label in model.classes_]
    for index, row in zip(written, chances):
        reads[index] = _best(row, classes, items[index][1])
    return reads


def _best(chances: np.ndarray, classes: list[int], allowed: str) -> tuple[int | None, float]:
    """The likeliest allowed digit and its chance among the allowed ones; less sure when the ink looks like none of
    them."""
    allowed_chances = [(chances[place], digit) for place, digit in enumerate(classes) if str(digit) in allowed]
    if not allowed_chances:
        return None, 0.0
    chance, digit = max(allowed_chances)
    total = sum(share for share, _ in allowed_chances)
    return digit, float(min(1.0, chance / max(total, 0.5)))


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


def _views(digit: np.ndarray) -> list[np.ndarray]:
    """The counts of ``digit`` as written and turned a little either way: a digit read the same in all is surely
    read right."""
    thick = _thickened(digit)
    return [_counts(_turned(thick, degrees)) for degrees in TURNS]


def _turned(on: np.ndarray, degrees: float) -> np.ndarray:
    """``on`` turned by ``degrees`` in three shears of whole pixels (none lost or doubled)."""
    if not degrees:
        return on
    half_tangent, sine = np.tan(np.radians(degrees) / 2), np.sin(np.radians(degrees))
    return _sheared(_sheared(_sheared(on, half_tangent).T, -sine).T, half_tangent)


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


# Training ------------------------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _classifier():
    """The digit classifier, trained on the digits not held out and distorted copies of them."""
    from sklearn.datasets import load_digits

    data = load_digits()
    trained = np.ones(len(data.target), bool)
    trained[HELD_OUT] = False
    inputs, labels, writers = _training_set(data.images[trained], data.target[trained])
    return _model(writers).fit(inputs, labels)


def _model(writers: np.ndarray):
    """A support vector machine whose chances are calibrated on writers it was not fitted on, voting with the
    nearest neighbours, who give a second opinion on digits unlike any trained on."""
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.ensemble import VotingClassifier
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.svm import SVC

    folds = [(np.flatnonzero(writers % 3 != fold), np.flatnonzero(writers % 3 == fold)) for fold in range(3)]
    machine = CalibratedClassifierCV(SVC(C=10.0, gamma=GAMMA), cv=folds, method="isotonic")
    neighbours = KNeighborsClassifier(n_neighbors=10, weights="distance")
    votes = [1 - NEIGHBOURS_SHARE, NEIGHBOURS_SHARE]
    return VotingClassifier([("machine", machine), ("neighbours", neighbours)], voting="soft", weights=votes)


def _training_set(images: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The features of ``images`` (8x8 optdigits counts, in writer order) and of distorted copies, with their labels
    and writers."""
    rng = np.random.default_rng(SEED)
    writers = np.arange(len(labels)) * WRITERS // len(labels)
    density = _densities(images)
    bitmaps = [density >= 0.5, *(_distorted(density, rng) for _ in range(VARIANTS))]
    rows, targets, hands = [], [], []
    for bitmap_set in bitmaps:
        for bitmap, label, writer in zip(bitmap_set, labels, writers):
            counts = features(bitmap)
            if counts is not None:
                rows.append(counts)
                targets.append(label)
                hands.append(writer)
    return np.array(rows), np.array(targets), np.array(hands)


def _densities(images: np.ndarray) -> np.ndarray:
    """The 8x8 count images smoothed up to 32x32 ink densities (0..1), in a margin of paper."""
    up = _upsampling(images.shape[-1], BLOCK, MARGIN)
    return np.clip(up @ (images / 16.0) @ up.T, 0.0, 1.0)


def _upsampling(size: int, factor: int, margin: int) -> np.ndarray:
    """The matrix that smooths ``size`` pixels up ``factor`` times (cubic convolution), with ``margin`` pixels of
    paper each side."""
    centres = (np.arange(size * factor + 2 * margin) - margin + 0.5) / factor - 0.5
    distance = np.abs(centres[:, None] - np.arange(size))
    near, far = distance < 1, (distance >= 1) & (distance < 2)
    return np.where(near, 1.5 * distance**3 - 2.5 * distance**2 + 1, 0) + np.where(
        far, -0.5 * distance**3 + 2.5 * distance**2 - 4 * distance + 2, 0
    )


def _distorted(density: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Bitmaps of ``density`` turned, sheared, slanted, stretched, shifted, and cut at a random level (strokes
    thicker or thinner)."""
    count, height, width = density.shape
    angle = np.radians(rng.uniform(-12, 12, count))
    slant, shear = rng.uniform(-0.3, 0.3, count), rng.uniform(-0.15, 0.15, count)
    stretch = rng.uniform(0.85, 1.15, (2, count))
    shift = rng.uniform(-2, 2, (2, count))
    cos, sin = np.cos(angle), np.sin(angle)
    # Output (y, x) -> input: rotation, then shears, then stretch, about the centre.
    ones = np.ones(count)
    turns = np.stack([np.stack([cos, -sin], -1), np.stack([sin, cos], -1)], -2)
    shears = np.stack([np.stack([ones, shear], -1), np.stack([slant, ones], -1)], -2)
    matrices = turns @ shears / stretch.T[:, :, None]
    centre = np.array([(height - 1) / 2, (width - 1) / 2])
    ys, xs = np.mgrid[:height, :width]
    grid = np.stack([ys, xs], -1).reshape(-1, 2) - centre
    points = matrices @ grid.T + (centre + shift.T)[:, :, None]
    # One tall image of all the digits, each kept to its own tile (whose edges are paper).
    rows = np.clip(points[:, 0], 0, height - 1) + (np.arange(count) * height)[:, None]
    columns = np.clip(points[:, 1], 0, width - 1)
    moved = ndimage.map_coordinates(density.reshape(-1, width), np.stack([rows, columns]), order=1)
    return moved.reshape(count, height, width) >= rng.uniform(0.35, 0.65, count)[:, None, None]
