"""The printed standings' charts as ReportLab drawings: the leaders' rank after each round, and every score of each
round with its median. They take plain series and groups (``tournaments.plots``), as the pages' SVG does."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from reportlab.graphics.shapes import Circle, Drawing, Line, PolyLine, String
from reportlab.lib import colors

from ..plots import Group, Series
from ..plots.charts import GOLDEN, scale, shown, ticks
from .common import GREY, INK
from .fonts import REGULAR

#: The pages' palette, so a printed line has the colour its player has on screen.
PALETTE = [
    colors.HexColor(c) for c in ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#7a5195", "#57606a")
]
LIGHT = colors.Color(0.85, 0.85, 0.85)
SIZE = 7


def movement_drawing(rounds: Sequence[str], series: Sequence[Series], width: float, height: float) -> Drawing:
    """A line per player of their rank after each round, rank 1 on top, labelled at its end."""
    drawing = Drawing(width, height)
    left, right, top, bottom = 18, 92, 6, 14
    values = [v for s in series for v in s.values if v is not None]
    high = max(values, default=1)
    y = scale(1, high, height - top, bottom)
    x = scale(0, max(len(rounds) - 1, 0), left + 4, width - right)
    for tick in sorted({1, *ticks(1, high)}):
        drawing.add(Line(left, y(tick), width - right, y(tick), strokeColor=LIGHT, strokeWidth=0.5))
        drawing.add(
            String(
                left - 3, y(tick) - 2.5, shown(tick), fontName=REGULAR, fontSize=SIZE, fillColor=GREY, textAnchor="end"
            )
        )
    for i, label in enumerate(rounds):
        drawing.add(String(x(i), 3, label, fontName=REGULAR, fontSize=SIZE, fillColor=GREY, textAnchor="middle"))
    placed: list[float] = []
    for i, each in enumerate(series):
        colour = PALETTE[i % len(PALETTE)]
        points = [(x(j), y(v)) for j, v in enumerate(each.values) if v is not None]
        if len(points) > 1:
            drawing.add(PolyLine([c for point in points for c in point], strokeColor=colour, strokeWidth=1.4))
        for px, py in points:
            drawing.add(Circle(px, py, 1.6, fillColor=colour, strokeColor=None))
        if points:
            label_y = points[-1][1] - 2.5
            while any(abs(label_y - other) < SIZE + 1 for other in placed):
                label_y -= 1
            placed.append(label_y)
            last = next(v for v in reversed(each.values) if v is not None)
            text = f"{shown(last)} {each.label}"[:24]
            drawing.add(String(width - right + 4, label_y, text, fontName=REGULAR, fontSize=SIZE, fillColor=colour))
    return drawing


def scores_drawing(groups: Sequence[Group], width: float, height: float) -> Drawing:
    """Every score of each round as a dot, a line from the lowest to the highest and a bar at the median."""
    drawing = Drawing(width, height)
    left, right, top, bottom = 26, 6, 6, 14
    values = [v for g in groups for v in g.values]
    low, high = min(values, default=0), max(values, default=1)
    y = scale(low, high, bottom, height - top)
    band = (width - left - right) / max(len(groups), 1)
    for tick in ticks(low, high, whole=False):
        drawing.add(Line(left, y(tick), width - right, y(tick), strokeColor=LIGHT, strokeWidth=0.5))
        drawing.add(
            String(
                left - 3, y(tick) - 2.5, shown(tick), fontName=REGULAR, fontSize=SIZE, fillColor=GREY, textAnchor="end"
            )
        )
    for i, group in enumerate(groups):
        centre = left + band * (i + 0.5)
        drawing.add(
            String(centre, 3, group.label, fontName=REGULAR, fontSize=SIZE, fillColor=GREY, textAnchor="middle")
        )
        if not group.values:
            continue
        drawing.add(Line(centre, y(min(group.values)), centre, y(max(group.values)), strokeColor=GREY, strokeWidth=0.8))
        for k, value in enumerate(sorted(group.values)):
            offset = ((k * GOLDEN) % 1 - 0.5) * band * 0.5
            drawing.add(Circle(centre + offset, y(value), 1.3, fillColor=PALETTE[0], strokeColor=None))
        middle = y(statistics.median(group.values))
        drawing.add(Line(centre - band * 0.3, middle, centre + band * 0.3, middle, strokeColor=INK, strokeWidth=1.8))
    return drawing
