"""Handwriting made up for tests and benchmarks: digits, crosses and ticks as a pen leaves them in a box.

Ink arrays are (height, width) floats, 0 paper .. 1 full ink. ``render_digit`` writes a real writer's digit from
the optdigits data (the held-out ones the reader never trained on); ``stroke_digit`` draws digits from pen strokes
made here, a second kind of hand that owes nothing to that data; ``font_glyph`` writes any character in one of the
handwriting fonts the reader's training holds out (``training.HELD_OUT_FONTS``), with a pen's width and slant.
"""

from __future__ import annotations

import functools

import numpy as np
from PIL import Image, ImageDraw, ImageFont
from scipy import ndimage

from tournaments.paper.digits import HELD_OUT
from tournaments.paper.training import HELD_OUT_FONTS, fonts

#: Drawings are made this many times finer, then averaged down: soft edges.
FINE = 4
#: The width of a font's strokes as a pen draws them, a share of the character's height.
PEN_WIDTH = (0.06, 0.13)
#: Pixels between a drawing and the box's edges, at the least (nearer, the writing touches the printed border).
MARGIN = 2


@functools.lru_cache(maxsize=1)
def _held_out() -> tuple[tuple[np.ndarray, int], ...]:
    from sklearn.datasets import load_digits

    data = load_digits()
    return tuple(zip(data.images[HELD_OUT], (int(label) for label in data.target[HELD_OUT])))


def held_out() -> list[tuple[np.ndarray, int]]:
    """The held-out 8x8 optdigits images (counts 0..16) with their labels."""
    return list(_held_out())


def render_digit(image8: np.ndarray, width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """``image8`` (8x8 counts) written by hand in a box of ``width`` x ``height`` pixels: smoothed up, slanted a
    little, cut to strokes along its ridges (a pen's width, some thinner, some thicker), 60-90 % of the box's height,
    placed about the middle of the box."""
    density = ndimage.zoom(np.pad(image8 / 16.0, 1), 8, order=3, mode="grid-constant", grid_mode=True)
    slant = rng.uniform(-0.2, 0.2)
    rows = density.shape[0]
    sheared = ndimage.affine_transform(
        density, [[1, 0], [-slant, 1]], offset=(0, (slant - 1) * rows / 2), output_shape=(rows, rows * 2), order=1
    )
    ridge = ndimage.maximum_filter(sheared, size=9)
    strokes = _cut((sheared >= 0.25) & (sheared >= rng.uniform(0.5, 0.8) * ridge))
    return _placed(strokes, rng.uniform(0.6, 0.9) * height, width, height, rng)


@functools.lru_cache(maxsize=16)
def _font(name: str) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(fonts()[name]), 40 * FINE)


def font_glyph(
    character: str, width: int, height: int, rng: np.random.Generator, font: str | None = None
) -> np.ndarray:
    """``character`` written in a box of ``width`` x ``height`` pixels in a held-out handwriting font (``font``, or
    one chosen at random), slanted a little, with a pen of its own width (``PEN_WIDTH``), 60-90 % of the box's
    height."""
    name = font or HELD_OUT_FONTS[int(rng.integers(len(HELD_OUT_FONTS)))]
    canvas = Image.new("L", (120 * FINE, 100 * FINE), 0)
    ImageDraw.Draw(canvas).text((30 * FINE, 20 * FINE), character, font=_font(name), fill=255)
    slant = rng.uniform(-0.2, 0.2)
    canvas = canvas.transform(canvas.size, Image.Transform.AFFINE, (1, slant, -slant * 50 * FINE, 0, 1, 0))
    on = _cut(np.asarray(canvas) >= 128)
    change = (rng.uniform(*PEN_WIDTH) * on.shape[0] - _stroke_width(on)) / 2
    thinner = ndimage.distance_transform_edt(on) > -change
    if change >= 0 or thinner.sum() < 0.5 * on.sum():
        on = ndimage.distance_transform_edt(~np.pad(on, int(max(change, 0)) + 1)) <= max(change, 0)
    else:
        on = thinner
    return _placed(_cut(on), rng.uniform(0.6, 0.9) * height, width, height, rng)


def _stroke_width(on: np.ndarray) -> float:
    """The mean width of the strokes of ``on``, in pixels: twice their area over their edge pixels."""
    inside = ndimage.binary_erosion(on)
    area = np.count_nonzero(on)
    return 2.0 * area / max(1, area - np.count_nonzero(inside))


def stroke_digit(digit: int, width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """``digit`` drawn with a pen in a box of ``width`` x ``height`` pixels, from jittered strokes of its shape."""
    aspect = rng.uniform(0.5, 0.75)
    slant = rng.uniform(-0.25, 0.25)
    strokes = []
    for stroke in _SHAPES[digit](rng):
        points = np.asarray(stroke, float) + rng.normal(0, 0.025, (len(stroke), 2))
        points[:, 0] = (points[:, 0] + slant * (0.5 - points[:, 1])) * aspect
        strokes.append(points)
    return _pen(strokes, rng.uniform(0.6, 0.9) * height, rng.uniform(0.06, 0.12), width, height, rng)


def mark(kind: str, width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """A hand-drawn cross (``"x"``) or tick (``"tick"``) filling a mark box of ``width`` x ``height`` pixels."""
    shapes = {
        "x": [[(0.0, 0.0), (1.0, 1.0)], [(1.0, 0.0), (0.0, 1.0)]],
        "tick": [[(0.0, 0.55), (0.35, 1.0), (1.0, 0.0)]],
    }
    strokes = [
        (np.asarray(stroke) + rng.normal(0, 0.05, (len(stroke), 2))) * [width / height, 1] for stroke in shapes[kind]
    ]
    return _pen(strokes, rng.uniform(0.6, 0.9) * height, rng.uniform(0.06, 0.12), width, height, rng)


def _cut(on: np.ndarray) -> np.ndarray:
    """``on`` cut to its bounding box."""
    rows, columns = np.flatnonzero(on.any(axis=1)), np.flatnonzero(on.any(axis=0))
    if not len(rows):
        return on[:1, :1]
    return on[rows[0] : rows[-1] + 1, columns[0] : columns[-1] + 1]


def _placed(strokes: np.ndarray, size: float, width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """``strokes`` (a fine bitmap) scaled to ``size`` pixels high (less if the box is too narrow), averaged down to
    soft edges and put about the middle of a box of ``width`` x ``height``, in ink of a pen's darkness."""
    fine_height, fine_width = strokes.shape
    scale = min(size / fine_height, (width - 2 * MARGIN) / fine_width, (height - 2 * MARGIN) / fine_height)
    shape = (max(1, round(fine_width * scale * FINE)), max(1, round(fine_height * scale * FINE)))
    picture = Image.fromarray(strokes.astype(np.float32)).resize(shape, Image.Resampling.BILINEAR)
    left, top = _corner(width, shape[0] / FINE, rng) * FINE, _corner(height, shape[1] / FINE, rng) * FINE
    canvas = Image.new("F", (width * FINE, height * FINE))
    canvas.paste(picture, (round(left), round(top)))
    return _down(canvas, width, height) * rng.uniform(0.8, 1.0)


def _corner(room: float, span: float, rng: np.random.Generator) -> float:
    """Where a drawing ``span`` pixels long starts in a box ``room`` long: about the middle, moved at most 15 % of the
    box either way, never nearer its edges than ``MARGIN`` pixels."""
    free = max(0.0, room - span - 2 * MARGIN)
    return MARGIN + free / 2 + rng.uniform(-1, 1) * min(free / 2, 0.15 * room)


def _down(canvas: Image.Image, width: int, height: int) -> np.ndarray:
    return np.clip(np.asarray(canvas.resize((width, height), Image.Resampling.BOX)), 0.0, 1.0)


def _pen(strokes, size: float, pen: float, width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """Polylines (x and y down, in any unit) drawn ``size`` pixels high with a pen ``pen`` x ``size`` wide (smaller
    if the box is too small), placed about the middle of a box of ``width`` x ``height`` pixels."""
    every = np.concatenate(strokes)
    low, high = every.min(axis=0), every.max(axis=0)
    radius = pen * size / 2
    fits = np.array([width - 2 * MARGIN, min(size, height - 2 * MARGIN)]) - 2 * radius
    scale = min(fits / np.maximum(high - low, 1e-6))
    extent = (high - low) * scale + 2 * radius
    corner = np.array([_corner(room, span, rng) for room, span in zip((width, height), extent)])
    canvas = Image.new("F", (width * FINE, height * FINE))
    draw = ImageDraw.Draw(canvas)
    r = radius * FINE
    for stroke in strokes:
        points = [tuple(((point - low) * scale + radius + corner) * FINE) for point in stroke]
        draw.line(points, fill=1.0, width=max(1, round(2 * r)), joint="curve")
        for x, y in points:
            draw.ellipse((x - r, y - r, x + r, y + r), fill=1.0)
    return _down(canvas, width, height) * rng.uniform(0.8, 1.0)


def _arc(cx: float, cy: float, rx: float, ry: float, start: float, end: float, steps: int = 16) -> list:
    """Points of an ellipse's arc from angle ``start`` to ``end`` (degrees; 0 right, 90 down)."""
    angles = np.radians(np.linspace(start, end, steps))
    return list(zip(cx + rx * np.cos(angles), cy + ry * np.sin(angles)))


# Each digit's pen strokes in a unit box (x right, y down), some written more than one way.


def _one(rng):
    stem = [(0.3, 0.2), (0.55, 0.0), (0.52, 1.0)] if rng.random() < 0.6 else [(0.55, 0.0), (0.52, 1.0)]
    return [stem, [(0.3, 1.0), (0.75, 1.0)]] if rng.random() < 0.2 else [stem]


def _four(rng):
    if rng.random() < 0.5:
        return [[(0.62, 0.0), (0.05, 0.65), (0.95, 0.65)], [(0.72, 0.25), (0.72, 1.0)]]
    return [[(0.15, 0.0), (0.1, 0.55), (0.95, 0.55)], [(0.75, 0.05), (0.72, 1.0)]]


def _seven(rng):
    bar = [[(0.3, 0.5), (0.8, 0.5)]] if rng.random() < 0.2 else []
    return [[(0.05, 0.05), (0.95, 0.02), (0.4, 1.0)], *bar]


_SHAPES = {
    0: lambda rng: [_arc(0.5, 0.5, 0.45, 0.5, -90, 280, 28)],
    1: _one,
    2: lambda rng: [[*_arc(0.5, 0.28, 0.42, 0.28, 195, 400), (0.05, 1.0), (0.95, 1.0)]],
    3: lambda rng: [[*_arc(0.5, 0.26, 0.38, 0.26, 215, 460), *_arc(0.5, 0.74, 0.42, 0.26, -110, 140)]],
    4: _four,
    5: lambda rng: [[(0.9, 0.02), (0.25, 0.02), (0.2, 0.45), *_arc(0.5, 0.68, 0.42, 0.3, -150, 150)]],
    6: lambda rng: [[(0.8, 0.02), (0.45, 0.15), (0.2, 0.4), *_arc(0.5, 0.72, 0.4, 0.28, 180, -180, 24)]],
    7: _seven,
    8: lambda rng: [_arc(0.5, 0.26, 0.32, 0.25, 90, 450, 24), _arc(0.5, 0.74, 0.4, 0.26, -90, 270, 24)],
    9: lambda rng: [_arc(0.45, 0.28, 0.38, 0.28, 0, 360, 24), [(0.83, 0.25), (0.8, 0.6), (0.7, 1.0)]],
}
