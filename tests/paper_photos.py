"""Pictures of filled score sheets for tests and benchmarks: a printed page drawn, handwriting written into its boxes,
and what a phone's camera or a flatbed scanner makes of it.

Values are given per table (``TableLayout.table``), each a mapping of form field (``Box.field``) to what a perfect
reader returns for it (``SheetRead.reading()``): a number or None for a number's digit boxes, a count of marks, or
the list of marked values in box order.
"""

from __future__ import annotations

import io
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pypdfium2
from PIL import Image
from scipy import ndimage

from tests.handwriting import font_glyph, held_out, mark, render_digit, stroke_digit
from tournaments.paper.training import HELD_OUT_FONTS
from tournaments.printing.boxes import DIGIT, Box, TableLayout

#: Points an inch.
POINT = 72.0
#: How far inside a box's printed line a hand writes, in points.
WRITE_INSET = 0.7
#: The grey a dark blue-black pen's ink leaves on white paper, darkest and palest.
PEN_GREY = (35.0, 75.0)
#: The hands a sheet may be filled in (see ``fill``).
WRITERS = ("held_out", "strokes", "fonts", "any")
#: Share of number fields left empty on purpose, and of choice boxes marked.
EMPTY_NUMBERS, MARKED_CHOICES = 0.15, 0.4
#: A phone photo: the camera's tilt from straight above (degrees), the page's height in pixels, the blur (sigma, px).
MAX_TILT, PAGE_PIXELS, BLUR = 20.0, (2000, 3000), (0.5, 1.5)
#: JPEG quality of a phone's photo and of a scan; a scan's resolution and its largest skew (degrees).
PHOTO_QUALITY, SCAN_QUALITY, SCAN_DPI, MAX_SKEW = 70, 85, 300, 1.5


def page_picture(pdf_bytes: bytes, page_index: int, dpi: float) -> np.ndarray:
    """Page ``page_index`` (0-based) of a PDF drawn in grey at ``dpi``."""
    document = pypdfium2.PdfDocument(pdf_bytes)
    try:
        bitmap = document[page_index].render(scale=dpi / POINT, grayscale=True)
        return np.array(bitmap.to_pil().convert("L"))
    finally:
        document.close()


def fields(layout: TableLayout) -> dict[str, list[Box]]:
    """The layout's boxes by form field, in its order."""
    by_field: dict[str, list[Box]] = {}
    for box in layout.boxes:
        by_field.setdefault(box.field, []).append(box)
    return by_field


def random_values(layouts: Iterable[TableLayout], rng: np.random.Generator) -> dict[int, dict[str, object]]:
    """Plausible values for every field of each table, keyed by table number: numbers whose digits each box allows
    (some left empty), any count of marks, any choice of values; what a perfect reader returns."""
    values: dict[int, dict[str, object]] = {}
    for layout in layouts:
        table = values.setdefault(layout.table, {})
        for name, boxes in fields(layout).items():
            if boxes[0].kind == DIGIT:
                table[name] = random_number(boxes, rng)
            elif not boxes[0].value:
                table[name] = int(rng.integers(0, len(boxes) + 1))
            else:
                table[name] = [box.value for box in boxes if rng.random() < MARKED_CHOICES]
    return values


def random_number(boxes: Sequence[Box], rng: np.random.Generator) -> int | None:
    """A number each of whose digits its box allows, no leading zero; None now and then."""
    if rng.random() < EMPTY_NUMBERS:
        return None
    allowed = {box.place: box.allowed for box in boxes}
    length = int(rng.integers(1, len(boxes) + 1))
    while length > 1 and not set(allowed[length - 1]) - {"0"}:
        length -= 1
    digits = []
    for place in reversed(range(length)):
        choices = allowed[place].replace("0", "") if place == length - 1 and length > 1 else allowed[place]
        digits.append(choices[int(rng.integers(len(choices)))])
    return int("".join(digits))


def box_values(layout: TableLayout, values: Mapping[str, object]) -> list[tuple[Box, int | bool | None]]:
    """What each box of ``layout`` holds for ``values`` (one table's): a digit or None, marked or not. A number's
    digits are right-aligned; a count marks its first boxes; a choice marks a box for each value chosen."""
    held: dict[Box, int | bool | None] = {}
    for name, boxes in fields(layout).items():
        value = values.get(name)
        if boxes[0].kind == DIGIT:
            text = "" if value is None else str(value)
            if len(text) > len(boxes):
                raise ValueError(f"{name}: {value} has more digits than boxes")
            for box in boxes:
                held[box] = int(text[-1 - box.place]) if box.place < len(text) else None
        elif not boxes[0].value:
            for index, box in enumerate(boxes):
                held[box] = index < int(value or 0)
        else:
            left = Counter(value or [])
            for box in boxes:
                held[box] = left[box.value] > 0
                left[box.value] -= held[box]
    return [(box, held[box]) for box in layout.boxes]


def misreads(sheet, layout, values: dict) -> tuple[int, int, list, list]:
    """The sheet's boxes against what was written: filled boxes, those read right, empty boxes read as written, and
    boxes read wrong without the reader marking them unsure."""
    held = box_values(layout, values)
    assert [read.box for read in sheet.boxes] == [box for box, _value in held], "the boxes read are those printed"
    filled = right = 0
    empty_written, wrong_sure = [], []
    for (box, value), read in zip(held, sheet.boxes):
        got = read.value if box.kind == DIGIT else bool(read.value)
        written = value is not None and value is not False
        filled += written
        right += written and got == value
        where = (box.field, box.place if box.kind == DIGIT else box.value, value, got, round(read.confidence, 2))
        if not written and got != value:
            empty_written.append(where)
        if got != value and not read.unsure:
            wrong_sure.append(where)
    return filled, right, empty_written, wrong_sure


def fill(
    picture: np.ndarray,
    dpi: float,
    layouts_on_page: Iterable[TableLayout],
    values: Mapping[int, Mapping[str, object]],
    rng: np.random.Generator,
    writer: str = "held_out",
) -> np.ndarray:
    """``picture`` (a page drawn at ``dpi``) with ``values`` (per table) written into the boxes of its tables in a
    dark blue-black pen: digits by a held-out writer of the optdigits data (``"held_out"``), from pen strokes
    (``"strokes"``), in a held-out handwriting font (``"fonts"``, one font a table) or by any of these, a hand a table
    (``"any"``); crosses or ticks in mark boxes."""
    if writer not in WRITERS:
        raise ValueError(f"unknown writer {writer!r}")
    samples: dict[int, list[np.ndarray]] = {}
    for image, label in held_out():
        samples.setdefault(label, []).append(image)
    page = picture.astype(np.float32)
    scale = dpi / POINT
    page_top = picture.shape[0] / scale
    for layout in layouts_on_page:
        pen = rng.uniform(*PEN_GREY)
        mark_kind = "x" if rng.random() < 0.5 else "tick"
        hand = table_hand(writer, rng)
        for box, held in box_values(layout, values[layout.table]):
            if held is None or held is False:
                continue
            left = round((box.x + WRITE_INSET) * scale)
            top = round((page_top - box.y - box.height + WRITE_INSET) * scale)
            width = round((box.x + box.width - WRITE_INSET) * scale) - left
            height = round((page_top - box.y - WRITE_INSET) * scale) - top
            if box.kind != DIGIT:
                ink = mark(mark_kind if box.value else "x", width, height, rng)
            elif hand == "strokes":
                ink = stroke_digit(int(held), width, height, rng)
            elif hand != "held_out":
                ink = font_glyph(str(held), width, height, rng, font=hand)
            else:
                choices = samples[int(held)]
                ink = render_digit(choices[int(rng.integers(len(choices)))], width, height, rng)
            region = page[top : top + height, left : left + width]
            region *= 1.0 - ink[: region.shape[0], : region.shape[1]] * (1.0 - pen / 255.0)
    return page.clip(0, 255).astype(np.uint8)


def table_hand(writer: str, rng: np.random.Generator) -> str:
    """The hand that fills one table's sheet: ``"held_out"``, ``"strokes"`` or a held-out font's name."""
    if writer == "fonts":
        return HELD_OUT_FONTS[int(rng.integers(len(HELD_OUT_FONTS)))]
    if writer == "any":
        hands = ["held_out", "strokes", *HELD_OUT_FONTS]
        return hands[int(rng.integers(len(hands)))]
    return writer


@dataclass(frozen=True)
class Photo:
    """A photo's JPEG bytes, and the map from the page picture's pixels to the photo's (3x3, x right, y down)."""

    jpeg: bytes
    transform: np.ndarray


def four_point_map(source: Sequence[Sequence[float]], target: Sequence[Sequence[float]]) -> np.ndarray:
    """The projective map (3x3) taking four ``source`` points to their ``target``."""
    rows, rhs = [], []
    for (x, y), (u, v) in zip(source, target):
        rows += [[x, y, 1, 0, 0, 0, -u * x, -u * y], [0, 0, 0, x, y, 1, -v * x, -v * y]]
        rhs += [u, v]
    return np.append(np.linalg.solve(np.asarray(rows, float), np.asarray(rhs, float)), 1.0).reshape(3, 3)


def apply(h: np.ndarray, points) -> np.ndarray:
    p = np.asarray(points, float).reshape(-1, 2)
    q = np.c_[p, np.ones(len(p))] @ h.T
    return q[:, :2] / q[:, 2:3]


def warp(image: Image.Image, h: np.ndarray, size: tuple[int, int], fill: int) -> Image.Image:
    """``image`` moved by ``h`` (its pixels to the result's) onto a ``size`` canvas of grey ``fill``."""
    inverse = np.linalg.inv(h)
    inverse /= inverse[2, 2]
    return image.transform(
        size, Image.Transform.PERSPECTIVE, tuple(inverse.ravel()[:8]), Image.Resampling.BILINEAR, fillcolor=fill
    )


def camera_corners(
    width: float,
    height: float,
    rng: np.random.Generator,
    turn: float | None = None,
    tilt: float | None = None,
    away: float | None = None,
) -> np.ndarray:
    """Where a page's corners (top left, top right, bottom right, bottom left; its ``width`` x ``height`` pixels)
    land in a pinhole camera tilted up to ``MAX_TILT`` from straight above (``tilt`` degrees when given), the page's
    side ``away`` degrees clockwise from its top the farthest from the camera (any side when None: 0 the top, 90 the
    right, 180 the bottom), turned ``turn`` degrees (any when None), one page height tall. The same numbers are
    drawn from ``rng`` whichever are given."""
    drawn = rng.uniform(0, MAX_TILT)
    axis = rng.uniform(0, 2 * math.pi)
    tilt = math.radians(drawn if tilt is None else tilt)
    if away is not None:
        axis = math.radians(away) + math.pi
    ux, uy = math.cos(axis), math.sin(axis)
    c, s = math.cos(tilt), math.sin(tilt)
    rotation = np.array(
        [
            [c + ux * ux * (1 - c), ux * uy * (1 - c), uy * s],
            [ux * uy * (1 - c), c + uy * uy * (1 - c), -ux * s],
            [-uy * s, ux * s, c],
        ]
    )
    flat = np.array([[0, 0], [width, 0], [width, height], [0, height]], float) - [width / 2, height / 2]
    points = np.c_[flat / height, np.zeros(4)] @ rotation.T
    distance = rng.uniform(1.1, 1.8)
    projected = points[:, :2] / (points[:, 2:3] + distance)
    turn = rng.uniform(0, 2 * math.pi) if turn is None else math.radians(turn)
    turned = projected @ np.array([[math.cos(turn), math.sin(turn)], [-math.sin(turn), math.cos(turn)]])
    sides = np.linalg.norm(turned[3] - turned[0]) + np.linalg.norm(turned[2] - turned[1])
    return turned / (sides / 2)


def phone_photo(
    picture: np.ndarray,
    rng: np.random.Generator,
    turn: float | None = None,
    tilt: float | None = None,
    away: float | None = None,
) -> Photo:
    """What a phone makes of a page picture: laid on a darker table, photographed tilted up to ``MAX_TILT`` (``tilt``
    degrees when given, its side ``away`` degrees clockwise from its top the farthest: see ``camera_corners``) and
    turned ``turn`` degrees clockwise (any way when None), the page ``PAGE_PIXELS`` tall, blurred a little, lit
    unevenly, part of it in a soft shadow, with sensor noise, saved as a JPEG of quality ``PHOTO_QUALITY``."""
    height, width = picture.shape
    target = rng.uniform(*PAGE_PIXELS)
    image = Image.fromarray(picture)
    shrink = height / target
    pre = np.eye(3)
    if shrink > 1.2:
        small = (round(width / shrink), round(height / shrink))
        image = image.resize(small, Image.Resampling.LANCZOS)
        pre = np.diag([small[0] / width, small[1] / height, 1.0])
    corners = camera_corners(width, height, rng, turn, tilt, away) * target
    margin = rng.uniform(0.04, 0.15, 4) * target
    corners -= corners.min(axis=0) - margin[:2]
    size = (int(corners[:, 0].max() + margin[2]), int(corners[:, 1].max() + margin[3]))
    page_corners = [(0, 0), (width, 0), (width, height), (0, height)]
    truth = four_point_map(page_corners, corners)
    h = truth @ np.linalg.inv(pre)
    paper = np.asarray(warp(image, h, size, 0), np.float32)
    inside = np.asarray(warp(Image.new("L", image.size, 255), h, size, 0), np.float32) / 255.0
    table = table_surface(size, rng)
    photo = paper * inside + table * (1.0 - inside)
    photo *= lighting(size, rng) * shadow(size, corners, rng) * rng.uniform(0.78, 0.92)
    photo = ndimage.gaussian_filter(photo, rng.uniform(*BLUR))
    photo += rng.normal(0.0, rng.uniform(1.5, 4.0), photo.shape).astype(np.float32)
    tint = np.array([1.0, rng.uniform(0.95, 1.0), rng.uniform(0.86, 0.96)], np.float32)
    colour = (photo[..., None] * tint).clip(0, 255).astype(np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(colour, "RGB").save(buffer, "JPEG", quality=PHOTO_QUALITY)
    return Photo(buffer.getvalue(), truth)


def table_surface(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A darker table top: a mid grey with a wood-like grain along a random direction."""
    width, height = size
    side = max(width, height)
    grain = ndimage.zoom(rng.normal(0, 1, (side // 64 + 2, side // 8 + 2)).astype(np.float32), (64, 8), order=1)
    if rng.random() < 0.5:
        grain = grain.T
    return rng.uniform(60, 140) + rng.uniform(4, 12) * grain[:height, :width]


def across(size: tuple[int, int], origin, angle: float) -> np.ndarray:
    """Each pixel's distance from ``origin`` along the direction ``angle`` (radians; x right, y down)."""
    width, height = size
    xs = (np.arange(width, dtype=np.float32) - origin[0]) * np.float32(math.cos(angle))
    ys = (np.arange(height, dtype=np.float32) - origin[1]) * np.float32(math.sin(angle))
    return ys[:, None] + xs[None, :]


def lighting(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """Light falling off across the picture in a random direction, by up to a third."""
    angle = rng.uniform(0, 2 * math.pi)
    along = across(size, (0.0, 0.0), angle)
    along -= along.min()
    return 1.0 - rng.uniform(0.1, 0.33) * along / max(float(along.max()), 1e-6)


def shadow(size: tuple[int, int], corners: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A soft shadow (a hand's, the phone's) over the part of the picture beyond a line crossing the page."""
    centre = corners.mean(axis=0)
    through = centre + (corners[int(rng.integers(4))] - centre) * rng.uniform(0.3, 0.9)
    angle = rng.uniform(0, 2 * math.pi)
    distance = across(size, through, angle)
    softness = rng.uniform(20, 120)
    dark = rng.uniform(0.15, 0.4)
    return 1.0 - np.float32(dark) / (1.0 + np.exp(-distance / np.float32(softness)))


def scanned(picture: np.ndarray, rng: np.random.Generator, dpi: float = SCAN_DPI) -> np.ndarray:
    """A page picture drawn at ``dpi`` as a flatbed scanner gives it back: skewed up to ``MAX_SKEW``, shifted a
    little on the glass, a touch soft, the paper a little grey, with slight noise."""
    image = Image.fromarray(picture)
    shift = rng.uniform(-0.1, 0.1, 2) * dpi
    turned = image.rotate(
        rng.uniform(-MAX_SKEW, MAX_SKEW),
        Image.Resampling.BILINEAR,
        translate=tuple(shift),
        fillcolor=int(rng.uniform(235, 252)),
    )
    scan = ndimage.gaussian_filter(np.asarray(turned, np.float32), rng.uniform(0.3, 0.7))
    scan = scan * rng.uniform(0.92, 0.98) + rng.normal(0.0, rng.uniform(1.0, 2.5), scan.shape)
    return scan.clip(0, 255).astype(np.uint8)


def scan(picture: np.ndarray, rng: np.random.Generator) -> bytes:
    """A page picture drawn at ``SCAN_DPI`` as a flatbed scan (see ``scanned``), a JPEG."""
    buffer = io.BytesIO()
    Image.fromarray(scanned(picture, rng)).save(buffer, "JPEG", quality=SCAN_QUALITY, dpi=(SCAN_DPI, SCAN_DPI))
    return buffer.getvalue()


def pdf_of_scans(pictures: Sequence[np.ndarray | bytes], dpi: float = SCAN_DPI) -> bytes:
    """Scanned pages (grey arrays or picture files) bundled as a PDF, a page each, ``dpi`` a page's resolution."""
    images = [Image.open(io.BytesIO(p)).convert("L") if isinstance(p, bytes) else Image.fromarray(p) for p in pictures]
    buffer = io.BytesIO()
    images[0].save(buffer, "PDF", save_all=True, append_images=images[1:], resolution=dpi)
    return buffer.getvalue()
