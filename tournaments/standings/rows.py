"""The stored standings as the pages list them: best first, ties in alphabetical order, movement since the last
complete round, dropped players marked."""

from __future__ import annotations

from functools import lru_cache

from ..collation import sort_key
from ..models import Event, Standing
from .metrics import METRICS
from .stage import Stage

#: Names and clubs recur on every page view: their collation keys (the costly part of a page) are kept per process.
cached_sort_key = lru_cache(maxsize=8192)(sort_key)


def movement(standing: Standing, stage: Stage) -> int | None:
    """Places gained (positive) or lost since the last complete round; None when there is nothing to compare:
    no round complete before this one, or the player had no result by then."""
    if stage.baseline is None or standing.previous_round != stage.baseline or standing.previous_rank is None:
        return None
    return standing.movement


def standings_rows(event: Event, stage: Stage) -> list[Standing]:
    """The event's standings with what the pages show beside the stored values, read with one query.

    Each row gets ``name_key`` and ``club_key`` (alphabetical order, the same on every database), ``shown_<metric>``
    (each metric as the game counts it, to sort by), ``moved`` (``movement``), ``places`` (how many places it moved,
    up or down) and ``dropped``.
    """
    game = event.game_bundle
    rows = list(Standing.objects.filter(event=event).select_related("player"))
    for row in rows:
        for key, metric in METRICS.items():
            setattr(row, f"shown_{key}", metric.shown_value(getattr(row, key), game))
        row.name_key = cached_sort_key(row.player.name)
        row.club_key = cached_sort_key(row.player.club)
        row.moved = movement(row, stage)
        row.places = abs(row.moved or 0)
        row.dropped = not row.player.active
    rows.sort(key=lambda row: (row.rank, row.name_key))
    return rows
