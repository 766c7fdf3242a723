"""The stored standings as the pages list them: best first, ties in alphabetical order, movement since the last
complete round, dropped players marked."""

from __future__ import annotations

from functools import lru_cache
from types import SimpleNamespace

from ..collation import sort_key
from ..models import Event, Standing
from .build import STORED
from .metrics import METRICS
from .stage import Stage

#: Names and clubs recur on every page view: their collation keys (the costly part of a page) are kept per process.
cached_sort_key = lru_cache(maxsize=8192)(sort_key)


class ListedPlayer(SimpleNamespace):
    """What the standings show of a player: ``name``, ``club`` and ``active``."""


class ListedStanding(SimpleNamespace):
    """A stored standing as the pages list it: its stored values (``STORED``), ``player_id`` and ``player``
    (``ListedPlayer``), ``movement`` as ``Standing.movement``, and what ``standings_rows`` adds.

    Read as plain values rather than as model instances: a page of the live standings sorts all the rows to show a
    hundred of them, and building two model instances a player cost more than the rest of the page.
    """


def movement(standing: Standing | ListedStanding, stage: Stage) -> int | None:
    """Places gained (positive) or lost since the last complete round; None when there is nothing to compare:
    no round complete before this one, or the player had no result by then."""
    if stage.baseline is None or standing.previous_round != stage.baseline or standing.previous_rank is None:
        return None
    return standing.movement


def standings_rows(event: Event, stage: Stage) -> list[ListedStanding]:
    """The event's standings with what the pages show beside the stored values, read with one query.

    Each row gets ``name_key`` and ``club_key`` (alphabetical order, the same on every database), ``shown_<metric>``
    (each metric as the game counts it, to sort by), ``moved`` (``movement``), ``places`` (how many places it moved,
    up or down) and ``dropped``.
    """
    game = event.game_bundle
    stored = Standing.objects.filter(event=event).order_by()
    rows = []
    for *values, player_id, name, club, active in stored.values_list(
        *STORED, "player_id", "player__name", "player__club", "player__active"
    ):
        row = ListedStanding(**dict(zip(STORED, values, strict=True)), player_id=player_id)
        row.player = ListedPlayer(name=name, club=club, active=active)
        row.movement = Standing.movement.fget(row)
        for key, metric in METRICS.items():
            setattr(row, f"shown_{key}", metric.shown_value(getattr(row, key), game))
        row.name_key = cached_sort_key(row.player.name)
        row.club_key = cached_sort_key(row.player.club)
        row.moved = movement(row, stage)
        row.places = abs(row.moved or 0)
        row.dropped = not row.player.active
        rows.append(row)
    rows.sort(key=lambda row: (row.rank, row.name_key))
    return rows
