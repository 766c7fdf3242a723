"""Reading a picture of printed score sheets: each table's QR code names it and places it, its four corner marks set
the picture straight, then every box of its layout is read (digits by a classifier, marks by their ink)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy
import zxingcpp
from scipy import ndimage

from ..printing.boxes import DIGIT, LETTER, Box, Square, TableLayout
from . import digits, letters
from .geometry import affine, homography, jacobian, project, sample

#: Pixels a point at which boxes are looked at, and at which the sheet's picture is kept.
BOX_RESOLUTION = 4.0
PICTURE_RESOLUTION = 2.0
#: How far (points) from where the guess puts a corner mark it may be: at least this, or this share of its distance
#: from the nearest point the guess rests on (a guess drifts as it goes).
MARK_SEARCH, DRIFT = 30.0, 0.4
#: A corner mark is looked for in a picture shrunk until it is about this many pixels wide.
MARK_PIXELS = 12
#: The solid squares kept in a picture: their area between these shares of a corner mark's at the QR code's scale (a
#: mark nearer the camera than the code looks larger, a farther one smaller), and their spread about their centre
#: between these shares of a square's of that area, whatever the slant (a ring, such as a QR code's finder, spreads
#: more).
MARK_AREA, MARK_SPREAD = (0.15, 6.0), (0.75, 1.35)
#: A solid square may be a corner mark where a guess, setting it straight, makes it about as wide one way as the other
#: (its narrower spread at least this share of its wider: a letter's stroke is not) and of about a mark's area
#: (between these shares). A guess only nears the perspective: these are loose.
MARK_EVEN, MARK_SIZE = 0.5, (0.4, 2.5)
#: How many solid squares, the nearest to where the guesses put it, are tried as each corner mark.
MARK_OPTIONS = 6
#: Maps through the marks checked against the printed box outlines (the likeliest first), how many boxes, how far
#: (points) inside a box's line its paper is looked at, and how much darker the lines must be than that paper.
CHECKED_FITS, OUTLINE_BOXES, OUTLINE_GAP, OUTLINE_CONTRAST = 12, 40, 1.6, 0.3
#: How far (a share of the QR code's side) a mark or a corner of the QR code may be from where the map through them
#: all puts it.
QR_TOLERANCE = 0.08
#: Cut from each side of a box before reading inside it: its printed line and a little more.
DIGIT_INSET, MARK_INSET = 0.6, 1.4
#: The share of a mark box's inside that ink covers when it is marked; between the two others, the reader is unsure.
MARKED, SURELY_BLANK, SURELY_MARKED = 0.05, 0.02, 0.08
#: How much ink a pixel of a mark box must hold to count as covered.
INKED = 0.25
#: Darkness, as a share of the paper's brightness near a box, that counts as full ink.
INK_CONTRAST = 0.55
#: A picture's longer side is brought down to this many pixels before looking for QR codes.
CODE_SEARCH_SIDE = 2400


@dataclass
class BoxRead:
    """One box as read: a digit or a letter (or None, empty) or whether it is marked, how sure, and whether to ask."""

    box: Box
    value: int | bool | str | None
    confidence: float
    unsure: bool


@dataclass
class SheetRead:
    """One table's sheet found in a picture: its layout, the slot's picture set straight, its boxes as read."""

    layout: TableLayout
    picture: numpy.ndarray
    boxes: list[BoxRead]
    marks_found: int
    problems: list[str] = field(default_factory=list)

    def fields(self) -> dict[str, list[BoxRead]]:
        """Each form field's boxes as read (``Box.field``), in the layout's order."""
        by_field: dict[str, list[BoxRead]] = {}
        for read in self.boxes:
            by_field.setdefault(read.box.field, []).append(read)
        return by_field

    def reading(self) -> dict[str, object]:
        """Each field's value: a number from its digits (None if all are empty), a count of its marks, or the
        values of its marked boxes."""
        return {name: path_value(reads) for name, reads in self.fields().items()}

    def unsure(self) -> list[str]:
        """The fields any of whose boxes the reader is not sure of, in the layout's order."""
        return [name for name, reads in self.fields().items() if any(read.unsure for read in reads)]

    def box_in_picture(self, box: Box) -> tuple[float, float, float, float]:
        """Where ``box`` is in ``picture``: left, top, width, height, in its pixels."""
        left, _bottom, _right, top = picture_rect(self.layout)
        r = PICTURE_RESOLUTION
        return ((box.x - left) * r, (top - box.y - box.height) * r, box.width * r, box.height * r)


def path_value(reads: list[BoxRead]) -> object:
    box = reads[0].box
    if box.kind == LETTER:
        return box.meaning(reads[0].value)
    if box.kind == DIGIT:
        written = [str(read.value) for read in sorted(reads, key=lambda r: -r.box.place) if read.value is not None]
        return int("".join(written)) if written else None
    if not box.value:
        return sum(1 for read in reads if read.value)
    return [read.box.value for read in reads if read.value]


@dataclass(frozen=True)
class Code:
    """A QR code found in a picture: its text and its corners (top left, top right, bottom right, bottom left)."""

    text: str
    corners: numpy.ndarray


def codes(picture: numpy.ndarray) -> list[Code]:
    """The QR codes in ``picture``, their corners in its pixels."""
    scale = min(1.0, CODE_SEARCH_SIDE / max(picture.shape))
    small = picture
    if scale < 1.0:
        small = ndimage.zoom(picture, scale, order=1, prefilter=False)
    found = zxingcpp.read_barcodes(numpy.ascontiguousarray(small, numpy.uint8), formats=zxingcpp.BarcodeFormat.QRCode)
    result = []
    for code in found:
        p = code.position
        corners = [(c.x / scale, c.y / scale) for c in (p.top_left, p.top_right, p.bottom_right, p.bottom_left)]
        result.append(Code(code.text, numpy.asarray(corners, float)))
    return result


def read_sheet(grey: numpy.ndarray, code: Code, layout: TableLayout, squares: dict | None = None) -> SheetRead:
    """One table's sheet: placed by its QR code, set straight by its corner marks, its boxes read (``squares``: the
    picture's solid squares, found once for all its sheets)."""
    h, found = placed(grey, code, layout, {} if squares is None else squares)
    boxes = read_boxes(grey, h, layout.boxes, sure=found >= 3)
    straight = evened(sample(grey, h, picture_rect(layout), PICTURE_RESOLUTION))
    return SheetRead(layout, straight, boxes, found)


def evened(picture: numpy.ndarray) -> numpy.ndarray:
    """The sheet's picture with its light made even: the paper white everywhere, shadows lifted, ink kept dark."""
    window = int(12 * PICTURE_RESOLUTION) | 1
    paper = ndimage.uniform_filter(ndimage.maximum_filter(picture, size=window), size=window)
    return (picture / numpy.maximum(paper, 1.0) * 255.0).clip(0, 255).astype(numpy.uint8)


def placed(grey: numpy.ndarray, code: Code, layout: TableLayout, squares: dict) -> tuple[numpy.ndarray, int]:
    """The map from the sheet's points to the picture's pixels, and how many corner marks it rests on.

    The QR code alone places the sheet roughly (it is small, so far from it the guess drifts). Each corner mark may
    be one of the few solid squares nearest to where the guess puts it (the other table's marks on the page, a bold
    letter or a blot of ink may be near), the guess resting on the marks taken before it too (``mark_choices``). Of
    the ways to choose them whose map through the marks and the QR code's corners puts each of them where it was
    found, four marks before three (a finger over one), the first that puts the printed boxes' outlines on the
    picture's lines wins. Without one, the QR code alone places the sheet, and nothing read is sure."""
    page = [tuple(corner) for corner in layout.qr.corners()]
    image = [tuple(corner) for corner in code.corners]
    per_point = float(numpy.linalg.norm(code.corners[0] - code.corners[1])) / layout.qr.side
    if "found" not in squares:
        squares["found"] = solid_squares(grey, layout.marks[0].side * per_point)
    tolerance = QR_TOLERANCE * layout.qr.side * per_point
    checked = 0
    for missing in (0, 1):
        choices = mark_choices(squares["found"], layout, code, per_point, tolerance, missing)
        choices = sorted(
            (choice for choice in choices if choice.count == len(layout.marks) - missing), key=lambda c: c.error
        )
        for choice in choices[: CHECKED_FITS - checked]:
            if outlined(grey, choice.h, layout.boxes):
                return choice.h, choice.count
        checked += len(choices)
    return homography(page, image), 0


@dataclass(frozen=True)
class MarkChoice:
    """Some of a sheet's corner marks taken for solid squares of the picture (their pixels, by the marks' index),
    the map through them and the QR code's corners, and how far (pixels) it puts the farthest off of them."""

    taken: dict[int, tuple[float, float]]
    h: numpy.ndarray
    error: float

    @property
    def count(self) -> int:
        return len(self.taken)


def mark_choices(
    squares: numpy.ndarray, layout: TableLayout, code: Code, per_point: float, tolerance: float, missing: int
) -> list[MarkChoice]:
    """Every way to take each corner mark for one of the solid squares near where the QR code and the marks taken
    before it put it, or for none (``missing`` at most: a finger over one), whose map puts each within
    ``tolerance`` pixels of where it was found. The marks are taken nearest the QR code first: each one taken widens
    what the guess rests on, so the next, farther one is looked for where it is better guessed. Resting on the QR
    code alone, the guess is made with perspective and without (through four close points, the perspective may be
    far off where an affine map, which does not tilt, is not, or the other way round)."""
    page = [tuple(corner) for corner in layout.qr.corners()]
    image = [tuple(corner) for corner in code.corners]
    marks = layout.marks
    order = sorted(range(len(marks)), key=lambda i: numpy.hypot(*numpy.subtract(marks[i].centre, layout.qr.centre)))
    choices = [MarkChoice({}, homography(page, image), 0.0)]
    for looked_at, index in enumerate(order):
        grown = []
        for choice in choices:
            sources = page + [marks[i].centre for i in choice.taken]
            targets = image + list(choice.taken.values())
            guesses = [choice.h] if choice.taken else [choice.h, affine(page, image)]
            drift = float(numpy.hypot(*(numpy.asarray(sources) - marks[index].centre).T).min())
            for at in mark_options(squares, marks[index], guesses, drift, per_point):
                if at in choice.taken.values():
                    continue
                h, error = fitted([*sources, marks[index].centre], [*targets, at])
                if error <= tolerance:
                    grown.append(MarkChoice({**choice.taken, index: at}, h, error))
            if looked_at - choice.count < missing:
                grown.append(choice)
        choices = grown
    return choices


def fitted(sources: list, targets: list) -> tuple[numpy.ndarray, float]:
    """The map through ``sources`` (sheet points) to ``targets`` (pixels), and how far (pixels) it puts the farthest
    off of them from its target."""
    h = homography(sources, targets)
    return h, float(numpy.hypot(*(project(h, sources) - numpy.asarray(targets)).T).max())


def mark_options(
    squares: numpy.ndarray, mark: Square, guesses: list[numpy.ndarray], drift: float, per_point: float
) -> list[tuple[float, float]]:
    """The solid squares that may be ``mark``, by turns nearest where each of ``guesses`` (maps from sheet points to
    pixels) puts it: as far as the guess may have drifted over ``drift`` points from the nearest point it rests on,
    among those it sets straight as squares."""
    near = []
    for guess in guesses:
        at = project(guess, [mark.centre])[0]
        scale = max(per_point, float(numpy.sqrt(abs(numpy.linalg.det(jacobian(guess, [mark.centre])[0])))))
        reach = max(MARK_SEARCH, DRIFT * drift) * scale
        within = squares[numpy.hypot(squares[:, 0] - at[0], squares[:, 1] - at[1]) <= reach]
        near.append(nearest(straight_squares(within, guess, mark.side), at, reach))
    options = [at for pair in itertools.zip_longest(*near) for at in pair if at is not None]
    return list(dict.fromkeys(options))[:MARK_OPTIONS]


def outlined(grey: numpy.ndarray, h: numpy.ndarray, boxes: list[Box]) -> bool:
    """Whether ``h`` puts the sheet's printed box outlines on dark lines of the picture: along their edges it is
    darker than just inside them (a map off by a box or a mark is not)."""
    step = max(1, len(boxes) // OUTLINE_BOXES)
    edges, inside = [], []
    for box in boxes[::step]:
        x0, y0, x1, y1 = box.rect
        for t in (0.3, 0.5, 0.7):
            x, y = x0 + t * (x1 - x0), y0 + t * (y1 - y0)
            edges += [(x, y0), (x, y1), (x0, y), (x1, y)]
            inside += [(x, y0 + OUTLINE_GAP), (x, y1 - OUTLINE_GAP), (x0 + OUTLINE_GAP, y), (x1 - OUTLINE_GAP, y)]
    where = project(h, edges + inside)
    values = ndimage.map_coordinates(grey, [where[:, 1], where[:, 0]], order=1, mode="constant", cval=255.0)
    line, paper = values[: len(edges)], values[len(edges) :]
    contrast = float(numpy.mean((paper - line) / numpy.maximum(paper, 1.0)))
    return contrast >= OUTLINE_CONTRAST


def nearest(squares: numpy.ndarray, point, reach: float, count: int = MARK_OPTIONS) -> list[tuple[float, float]]:
    """The ``count`` squares nearest ``point`` within ``reach`` pixels, nearest first."""
    if not len(squares):
        return []
    distances = numpy.hypot(squares[:, 0] - point[0], squares[:, 1] - point[1])
    order = [i for i in numpy.argsort(distances)[:count] if distances[i] <= reach]
    return [(float(squares[i, 0]), float(squares[i, 1])) for i in order]


def solid_squares(grey: numpy.ndarray, side: float) -> numpy.ndarray:
    """The solid dark squares of the picture that may be corner marks, about ``side`` pixels wide at the QR code's
    scale, whatever their turn and slant: a row each of their centre (x, y), area and spread (xx, xy, yy), in
    pixels. A square's spread about its centre is just what its area implies, slanted or not (a ring, such as a QR
    code's finder, spreads more); whether it is as wide one way as the other is for a guess of the perspective to
    tell (``straight_squares``)."""
    step = max(1, int(side / MARK_PIXELS))
    small = grey[::step, ::step] if step > 1 else grey
    side /= step
    window = max(3, int(side * 3) | 1)
    paper = ndimage.uniform_filter(ndimage.maximum_filter(small, size=window), size=window)
    dark = small < paper * 0.5
    labels, _count = ndimage.label(dark)
    area = numpy.bincount(labels.ravel())
    keep = (area >= MARK_AREA[0] * side**2) & (area <= MARK_AREA[1] * side**2)
    keep[0] = False
    if not keep.any():
        return numpy.empty((0, 6))
    rows, columns = numpy.nonzero(keep[labels])
    owners = labels[rows, columns]
    index = numpy.flatnonzero(keep)
    area = area[index].astype(numpy.float64)

    def mean(values: numpy.ndarray) -> numpy.ndarray:
        return numpy.bincount(owners, weights=values, minlength=len(keep))[index] / area

    rows, columns = rows.astype(numpy.float64), columns.astype(numpy.float64)
    my, mx = mean(rows), mean(columns)
    syy, sxx, sxy = mean(rows**2) - my**2, mean(columns**2) - mx**2, mean(rows * columns) - mx * my
    spread = 12 * numpy.sqrt(numpy.maximum(sxx * syy - sxy**2, 0.0)) / area
    compact = (spread >= MARK_SPREAD[0]) & (spread <= MARK_SPREAD[1])
    return numpy.c_[mx, my, area, sxx, sxy, syy][compact] * [step, step, step**2, step**2, step**2, step**2]


def straight_squares(squares: numpy.ndarray, h: numpy.ndarray, side: float) -> numpy.ndarray:
    """Those of ``squares`` (rows of ``solid_squares``) that the map ``h`` (sheet points to pixels), set straight
    where each lies, makes squares of about ``side`` points: about as wide one way as the other (a letter's stroke
    is not) and of about a corner mark's area."""
    if not len(squares):
        return squares
    k = jacobian(numpy.linalg.inv(h), squares[:, :2])
    spread = k @ squares[:, [3, 4, 4, 5]].reshape(-1, 2, 2) @ k.transpose(0, 2, 1)
    narrow, wide = numpy.linalg.eigvalsh(spread).T
    area = squares[:, 2] * numpy.abs(numpy.linalg.det(k)) / side**2
    return squares[(narrow >= MARK_EVEN * wide) & (area >= MARK_SIZE[0]) & (area <= MARK_SIZE[1])]


def picture_rect(layout: TableLayout) -> tuple[float, float, float, float]:
    """The part of the page kept as the sheet's picture: its slot and corner marks."""
    xs = [layout.frame[0], layout.frame[2]] + [m.x for m in layout.marks] + [m.x + m.side for m in layout.marks]
    ys = [layout.frame[1], layout.frame[3]] + [m.y for m in layout.marks] + [m.y + m.side for m in layout.marks]
    return (min(xs) - 2, min(ys) - 2, max(xs) + 2, max(ys) + 2)


def ink(grey: numpy.ndarray, h: numpy.ndarray, box: Box, inset: float) -> numpy.ndarray:
    """How much ink covers each pixel inside ``box`` (0 paper, 1 ink), against the paper's brightness around it."""
    x0, y0, x1, y1 = box.rect
    around = sample(grey, h, (x0 - 3, y0 - 3, x1 + 3, y1 + 3), BOX_RESOLUTION / 2)
    paper = max(float(numpy.percentile(around, 92)), 1.0)
    inside = sample(grey, h, (x0 + inset, y0 + inset, x1 - inset, y1 - inset), BOX_RESOLUTION)
    return numpy.clip((paper - inside) / (paper * INK_CONTRAST), 0.0, 1.0)


def read_boxes(grey: numpy.ndarray, h: numpy.ndarray, boxes: list[Box], sure: bool) -> list[BoxRead]:
    """Each box read; every one unsure when the sheet could not be set straight by its corner marks."""
    digit_boxes = [box for box in boxes if box.kind == DIGIT]
    inks = [(ink(grey, h, box, DIGIT_INSET), box.allowed) for box in digit_boxes]
    digit_reads = dict(zip((id(box) for box in digit_boxes), digits.read_digits(inks)))
    letter_boxes = [box for box in boxes if box.kind == LETTER]
    written = [(ink(grey, h, box, DIGIT_INSET), box.allowed) for box in letter_boxes]
    letter_reads = dict(zip((id(box) for box in letter_boxes), letters.read_letters(written) if written else []))
    reads = []
    for box in boxes:
        if box.kind == DIGIT:
            value, confidence = digit_reads[id(box)]
            unsure = confidence < digits.UNSURE_BELOW
        elif box.kind == LETTER:
            value, confidence = letter_reads[id(box)]
            unsure = confidence < letters.UNSURE_BELOW
        else:
            covered = float((ink(grey, h, box, MARK_INSET) > INKED).mean())
            value = covered >= MARKED
            confidence = min(1.0, abs(covered - MARKED) / MARKED)
            unsure = SURELY_BLANK < covered < SURELY_MARKED
        reads.append(BoxRead(box, value, confidence, unsure or not sure))
    return reads
