"""A player's standing in words and numbers: each metric's heading and value as the event's game counts it."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.utils import formats

from ..formatting import hundredths
from ..models import Standing
from .metrics import Metric, shown_metrics


@dataclass(frozen=True)
class Figure:
    key: str
    label: str
    text: str


def number_text(value) -> str:
    """A metric's value in the reader's number format, decimals to the hundredth (rounded half up) without trailing
    zeros."""
    return formats.number_format(hundredths(value).normalize() if isinstance(value, Decimal) else value)


def figure(metric: Metric, standing: Standing, game) -> Figure:
    value = metric.shown_value(getattr(standing, metric.key), game)
    return Figure(metric.key, metric.heading_for(game), number_text(value))


def metrics_of(game, keys: tuple[str, ...] | None = None) -> list[Metric]:
    """The metrics the game shows (only ``keys`` when given), in order of precedence."""
    return [metric for metric in shown_metrics(game) if keys is None or metric.key in keys]


def figures(standing: Standing, game, keys: tuple[str, ...] | None = None) -> list[Figure]:
    """The standing's metrics the game shows (only ``keys`` when given), in order of precedence."""
    return [figure(metric, standing, game) for metric in metrics_of(game, keys)]
