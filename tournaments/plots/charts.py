"""Three kinds of plot: lines over rounds, dots per group (a strip of every value with its median and range), and
bars. Each returns a ``Plot``: the SVG, and the same numbers as a table for the text alternative."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from . import svg

WIDTH = 360
FONT = 12
#: Lines whose labels would overlap at the right are pushed apart by at least this much.
LABEL_GAP = 13
#: The most labels under an x axis, and the most points of a line drawn with a dot each.
MAX_TICKS, MAX_DOTS = 10, 60
#: Where the dots of a strip spread across their band: a fixed sequence, so the same data draws the same picture.
GOLDEN = 0.6180339887


@dataclass(frozen=True)
class Plot:
    ident: str
    title: str
    description: str
    svg: str
    #: The text alternative: column headings and rows of cells, as shown to screen readers.
    columns: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)


@dataclass(frozen=True)
class Series:
    label: str
    values: Sequence[float | None]
    highlight: bool = False
    muted: bool = False


@dataclass(frozen=True)
class Group:
    label: str
    values: Sequence[float]
    #: Values drawn larger and in the accent colour (a player's own scores).
    marked: Sequence[float] = ()


@dataclass(frozen=True)
class Bar:
    label: str
    value: float


def shown(value: float | None) -> str:
    if value is None:
        return "–"
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def nice_step(span: float, count: int = 4) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving about ``count`` ticks over ``span``."""
    raw = max(span / count, 1e-9)
    power = 10 ** math.floor(math.log10(raw))
    return next(step * power for step in (1, 2, 5, 10) if step * power >= raw)


def ticks(low: float, high: float, whole: bool = True) -> list[float]:
    step = nice_step(high - low)
    if whole:
        step = max(1.0, round(step))
    start = math.ceil(low / step) * step
    values = []
    value = start
    while value <= high + 1e-9:
        values.append(value)
        value += step
    return values


def scale(low: float, high: float, start: float, end: float):
    """Maps ``low..high`` onto ``start..end`` (a single value onto the middle)."""
    if high == low:
        return lambda value: (start + end) / 2
    return lambda value: start + (value - low) / (high - low) * (end - start)


def spread_labels(wanted: list[float], top: float, bottom: float) -> list[float]:
    """Label positions as near as possible to ``wanted`` (sorted), at least ``LABEL_GAP`` apart."""
    placed: list[float] = []
    for y in wanted:
        placed.append(max(y, placed[-1] + LABEL_GAP) if placed else max(y, top))
    overflow = placed[-1] - bottom if placed else 0
    if overflow > 0:
        placed = [y - overflow for y in placed]
    return placed


def short(label: str, length: int = 16) -> str:
    return label if len(label) <= length else label[: length - 1] + "…"


def x_axis(labels: Sequence[str], x, baseline: float) -> list[str]:
    """The labels under the x axis: the non-empty ones, thinned to at most ``MAX_TICKS``."""
    named = [i for i, label in enumerate(labels) if label]
    every = max(1, math.ceil(len(named) / MAX_TICKS))
    return [
        svg.text(x(i), baseline + 14, labels[i], class_="axis", text_anchor="middle", font_size=FONT)
        for i in named[::every]
    ]


def lines(
    ident: str,
    title: str,
    description: str,
    x_labels: Sequence[str],
    series: Sequence[Series],
    heading: str,
    inverted: bool = False,
) -> Plot:
    """A line per series over ``x_labels`` (rounds), labelled at its end; ``inverted`` puts the lowest value on top
    (rank 1). A None value breaks the line."""
    height, left, right, top, bottom = 250, 30, 124, 10, 34
    values = [v for s in series for v in s.values if v is not None]
    low, high = (min(values), max(values)) if values else (0, 1)
    if inverted:
        low = min(low, 1)
    y = scale(low, high, top, height - bottom) if inverted else scale(low, high, height - bottom, top)
    x = scale(0, max(len(x_labels) - 1, 0), left + 6, WIDTH - right)
    body = []
    for tick in sorted({*ticks(low, high), *([low] if inverted else [])}):
        body.append(svg.element("line", x1=float(left), x2=float(WIDTH - right), y1=y(tick), y2=y(tick), class_="grid"))
        body.append(svg.text(left - 4, y(tick) + 4, shown(tick), class_="axis", text_anchor="end", font_size=FONT))
    body.extend(x_axis(x_labels, x, height - bottom))
    ends = []
    order = sorted(range(len(series)), key=lambda i: (series[i].highlight, not series[i].muted))
    for i in order:
        each = series[i]
        kind = "highlight" if each.highlight else "muted" if each.muted else f"series-{i % 8}"
        segment: list[tuple[float, float]] = []
        for j, value in enumerate([*each.values, None]):
            if value is None:
                if len(segment) > 1:
                    body.append(svg.polyline(segment, class_=f"line {kind}", fill="none"))
                segment = []
                continue
            segment.append((x(j), y(value)))
            if len(each.values) <= MAX_DOTS:
                body.append(
                    svg.element("circle", cx=x(j), cy=y(value), r=3.5 if each.highlight else 2.5, class_=f"dot {kind}")
                )
        last = next((v for v in reversed(each.values) if v is not None), None)
        if last is not None and (each.highlight or not each.muted):
            ends.append((y(last), f"{shown(last)} {short(each.label, 12)}", kind))
    ends.sort()
    for (_wanted, label, kind), placed in zip(
        ends, spread_labels([e[0] for e in ends], top + 4, height - bottom), strict=True
    ):
        body.append(svg.text(WIDTH - right + 6, placed + 4, label, class_=f"label {kind}", font_size=FONT))
    columns = [heading, *x_labels]
    rows = [[each.label, *(shown(v) for v in each.values)] for each in series]
    return Plot(ident, title, description, svg.document(WIDTH, height, title, description, ident, body), columns, rows)


def strips(
    ident: str,
    title: str,
    description: str,
    groups: Sequence[Group],
    headings: Sequence[str],
) -> Plot:
    """Every value of each group as a dot, with a line from the lowest to the highest and a bar at the median.

    ``headings`` name the text alternative's columns: group, count, lowest, median, highest (and marked values).
    """
    height, left, right, top, bottom = 230, 40, 10, 10, 34
    values = [v for g in groups for v in g.values]
    low, high = (min(values), max(values)) if values else (0, 1)
    y = scale(low, high, height - bottom, top)
    band = (WIDTH - left - right) / max(len(groups), 1)
    x = lambda i: left + band * (i + 0.5)  # noqa: E731
    body = []
    for tick in ticks(low, high, whole=False):
        body.append(svg.element("line", x1=float(left), x2=float(WIDTH - right), y1=y(tick), y2=y(tick), class_="grid"))
        body.append(svg.text(left - 4, y(tick) + 4, shown(tick), class_="axis", text_anchor="end", font_size=FONT))
    body.extend(x_axis([g.label for g in groups], x, height - bottom))
    rows = []
    for i, group in enumerate(groups):
        if not group.values:
            rows.append([group.label, "0", "–", "–", "–", *(["–"] if len(headings) > 5 else [])])
            continue
        centre, lowest, highest = x(i), min(group.values), max(group.values)
        middle = statistics.median(group.values)
        body.append(svg.element("line", x1=centre, x2=centre, y1=y(lowest), y2=y(highest), class_="range"))
        for k, value in enumerate(sorted(group.values)):
            offset = ((k * GOLDEN) % 1 - 0.5) * band * 0.5
            body.append(svg.element("circle", cx=centre + offset, cy=y(value), r=2.2, class_="dot spread"))
        body.append(
            svg.element(
                "line", x1=centre - band * 0.3, x2=centre + band * 0.3, y1=y(middle), y2=y(middle), class_="median"
            )
        )
        for value in group.marked:
            body.append(svg.element("circle", cx=centre, cy=y(value), r=4.5, class_="dot highlight"))
        row = [group.label, str(len(group.values)), shown(lowest), shown(middle), shown(highest)]
        if len(headings) > 5:
            row.append(", ".join(shown(v) for v in group.marked) or "–")
        rows.append(row)
    document = svg.document(WIDTH, height, title, description, ident, body)
    return Plot(ident, title, description, document, list(headings), rows)


def bars(ident: str, title: str, description: str, items: Sequence[Bar], headings: Sequence[str]) -> Plot:
    """A horizontal bar per item, its value at its end; negative values run left of the zero line."""
    row, top = 24, 6
    height = top * 2 + row * max(len(items), 1)
    left, right = 130, 36
    values = [item.value for item in items]
    low, high = min([0, *values]), max([0, *values])
    x = scale(low, high if high > low else 1, left, WIDTH - right)
    body = [svg.element("line", x1=x(0), x2=x(0), y1=float(top), y2=float(height - top), class_="axis-line")]
    for i, item in enumerate(items):
        middle = top + row * i + row / 2
        start, end = sorted((x(0), x(item.value)))
        body.append(
            svg.text(left - 6, middle + 4, short(item.label, 19), class_="axis", text_anchor="end", font_size=FONT)
        )
        body.append(svg.element("rect", x=start, y=middle - 8, width=max(end - start, 0.5), height=16.0, class_="bar"))
        anchor, at = ("start", end + 4) if item.value >= 0 else ("end", start - 4)
        body.append(svg.text(at, middle + 4, shown(item.value), class_="label", text_anchor=anchor, font_size=FONT))
    document = svg.document(WIDTH, height, title, description, ident, body)
    return Plot(
        ident, title, description, document, list(headings), [[item.label, shown(item.value)] for item in items]
    )
