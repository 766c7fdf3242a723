"""Building an event's stored standings from the per-seat results (no sheet is re-scored).

``compute_standings`` reads the results and ranks the players; ``store_standings`` writes only the rows that differ
from the stored ones. ``rebuild_standings`` does both at once; ``refresh.py`` decides when, and who.
"""

from __future__ import annotations

from django.db.models import F, IntegerField, Value
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast, Coalesce

from .. import games
from ..games import Game
from ..models import Event, Player, Seat, Standing
from ..sql import update_rows
from .metrics import METRIC_KEYS, SeatResult, rank_tally, tally

#: The stored columns of a standing besides its event and player, in the order of a computed row.
STORED = ("rank", "previous_rank", "previous_round", *METRIC_KEYS, "rounds_played")


def pk_of(event: Event | int) -> int:
    return event if isinstance(event, int) else event.pk


def result_rows(event: Event | int):
    """Every scored seat of the event's published rounds as plain tuples, in ``SeatResult``'s order (one query)."""
    first_tiebreak = Cast(KeyTextTransform("0", "tiebreak"), IntegerField())
    return (
        Seat.objects.filter(round__event_id=pk_of(event), round__published=True, placement_points__isnull=False)
        .order_by()
        .values_list(
            "player_id",
            "round__number",
            "table_id",
            "placement_points",
            Coalesce("score", Value(0)),
            Coalesce(first_tiebreak, Value(0)),
        )
    )


def players_and_ranking(event: Event | int) -> tuple[list[int], tuple[str, ...]]:
    """The event's players and what its game ranks its standings by (``Game.ranking``), read with one query."""
    rows = list(Player.objects.filter(event_id=pk_of(event)).order_by().values_list("pk", "event__game"))
    key = event.game if isinstance(event, Event) else rows[0][1] if rows else None
    game = games.find_game(key)
    return [pk for pk, _game in rows], (game or Game).ranking


def seat_results(event: Event | int) -> list[SeatResult]:
    """Every scored seat of the event, read with one query."""
    return [SeatResult._make(row) for row in result_rows(event)]


def compute_standings(event: Event | int) -> dict[int, tuple]:
    """Each player's standing as the stored columns (``STORED``) would hold it, by player id.

    Each player's previous rank is their rank after the round before the latest one with results: while that
    round is played and once it is complete, players see how far they moved since the last complete round. The
    results are summed once: the earlier rounds' tally is ranked, then the latest round is added to it.
    """
    players, ranking = players_and_ranking(event)
    results = list(result_rows(event))
    latest = max((r[1] for r in results), default=0)
    counted = tally((r for r in results if r[1] < latest), players)
    previous = {r.player: r.rank for r in rank_tally(counted, ranking) if r.rounds} if latest > 1 else {}
    tally((r for r in results if r[1] == latest), (), into=counted)
    previous_round = latest - 1 if latest > 1 else None
    return {
        r.player: (r.rank, previous.get(r.player), previous_round, *r.metrics.values(), r.rounds)
        for r in rank_tally(counted, ranking)
    }


def stored_rows(event: Event | int) -> dict[int, tuple[int, tuple]]:
    """The stored standings by player id: each row's id and its columns (``STORED``)."""
    rows = Standing.objects.filter(event_id=pk_of(event)).order_by().values_list("pk", "player_id", *STORED)
    return {player: (pk, tuple(values)) for pk, player, *values in rows}


def store_standings(event: Event | int, computed: dict[int, tuple]) -> int:
    """Write the rows of ``computed`` that differ from the stored ones; returns how many rows were written.

    Changed rows are updated in one statement, new ones inserted, those of players no longer computed deleted.
    Decimals compare by value, so 3 and 3.00 are the same.
    """
    stored = stored_rows(event)
    changed, added = [], []
    for player, values in computed.items():
        row = stored.pop(player, None)
        if row is None:
            added.append(Standing(event_id=pk_of(event), player_id=player, **dict(zip(STORED, values))))
        elif row[1] != values:
            changed.append((row[0], *values))
    update_rows(Standing, STORED, changed)
    if added:
        Standing.objects.bulk_create(added, batch_size=500)
    if stored:
        Standing.objects.filter(pk__in=[pk for pk, _values in stored.values()]).delete()
    return len(changed) + len(added) + len(stored)


def rebuild_standings(event: Event | int) -> int:
    """Rank every player of the event and store what changed (its standings version then moves); returns how many
    rows were written. The caller keeps other writers of the event's standings away (``refresh.rebuild_now`` does).
    """
    written = store_standings(event, compute_standings(event))
    if written:
        Event.objects.filter(pk=pk_of(event)).update(standings_version=F("standings_version") + 1)
        if isinstance(event, Event):
            event.refresh_from_db(fields=["standings_version"])
    return written
