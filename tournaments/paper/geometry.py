"""Plane geometry of a photographed page: the homography that takes sheet points to picture pixels."""

from __future__ import annotations

from collections.abc import Sequence

import numpy
from scipy import ndimage

Point = tuple[float, float]


def homography(source: Sequence[Point], target: Sequence[Point]) -> numpy.ndarray:
    """The 3x3 projective map taking each ``source`` point to its ``target`` (least squares over four or more)."""
    src, dst = numpy.asarray(source, float), numpy.asarray(target, float)
    src_n, src_t = normalising(src)
    dst_n, dst_t = normalising(dst)
    rows = []
    for (x, y), (u, v) in zip(src_n, dst_n):
        rows.append([-x, -y, -1, 0, 0, 0, u * x, u * y, u])
        rows.append([0, 0, 0, -x, -y, -1, v * x, v * y, v])
    _u, _s, vt = numpy.linalg.svd(numpy.asarray(rows))
    h = vt[-1].reshape(3, 3)
    h = numpy.linalg.inv(dst_t) @ h @ src_t
    return h / h[2, 2]


def affine(source: Sequence[Point], target: Sequence[Point]) -> numpy.ndarray:
    """The 3x3 affine map (no perspective) closest to taking each ``source`` point to its ``target``: steadier than
    a homography when the points are few and close together."""
    src, dst = numpy.asarray(source, float), numpy.asarray(target, float)
    design = numpy.c_[src, numpy.ones(len(src))]
    solution, *_rest = numpy.linalg.lstsq(design, dst, rcond=None)
    return numpy.vstack([solution.T, [0.0, 0.0, 1.0]])


def normalising(points: numpy.ndarray) -> tuple[numpy.ndarray, numpy.ndarray]:
    """The points moved to their centroid and scaled to a mean distance of sqrt(2), and that similarity."""
    centre = points.mean(axis=0)
    spread = numpy.sqrt(((points - centre) ** 2).sum(axis=1)).mean() or 1.0
    s = numpy.sqrt(2) / spread
    t = numpy.array([[s, 0, -s * centre[0]], [0, s, -s * centre[1]], [0, 0, 1]])
    return (points - centre) * s, t


def project(h: numpy.ndarray, points) -> numpy.ndarray:
    """``points`` (n x 2) mapped by ``h``."""
    p = numpy.asarray(points, float).reshape(-1, 2)
    return numpy.stack(mapped(h, p[:, 0], p[:, 1]), axis=1)


def mapped(h: numpy.ndarray, x: numpy.ndarray, y: numpy.ndarray) -> tuple[numpy.ndarray, numpy.ndarray]:
    """The points (``x``, ``y``), arrays of any shape, mapped by ``h``: their new x and y."""
    w = h[2, 0] * x + h[2, 1] * y + h[2, 2]
    return (h[0, 0] * x + h[0, 1] * y + h[0, 2]) / w, (h[1, 0] * x + h[1, 1] * y + h[1, 2]) / w


def jacobian(h: numpy.ndarray, points) -> numpy.ndarray:
    """The derivative of ``h`` at each of ``points`` (n x 2 x 2): the affine map it is like close to each point, which
    a small shape there goes through (slanted, shrunk or turned as the perspective has it there)."""
    p = numpy.asarray(points, float).reshape(-1, 2)
    q = numpy.c_[p, numpy.ones(len(p))] @ h.T
    mapped = q[:, :2] / q[:, 2:3]
    return (h[None, :2, :2] - mapped[:, :, None] * h[None, 2:3, :2]) / q[:, 2, None, None]


def sample(picture: numpy.ndarray, h: numpy.ndarray, rect: Sequence[float], per_point: float) -> numpy.ndarray:
    """The part of ``picture`` (grey, float) that the sheet rectangle ``rect`` (left, bottom, right, top, in points)
    covers, set straight at ``per_point`` pixels a point: row 0 at the top, as a picture. Outside is white."""
    left, bottom, right, top = rect
    columns = max(2, round((right - left) * per_point))
    rows = max(2, round((top - bottom) * per_point))
    xs = numpy.linspace(left, right, columns)[None, :]
    ys = numpy.linspace(top, bottom, rows)[:, None]
    x, y = mapped(h, xs, ys)
    return ndimage.map_coordinates(picture, [y, x], order=1, mode="constant", cval=255.0)
