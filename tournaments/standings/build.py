"""Rebuilding an event's stored standings from the per-seat results (no sheet is re-scored)."""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction
from django.db.models import F

from ..models import Event, Seat, Standing
from .metrics import PRECEDENCE, SeatResult, rank_players


def seat_results(event: Event) -> list[SeatResult]:
    """Every scored seat of the event, read with one query."""
    rows = Seat.objects.filter(round__event=event, round__published=True, placement_points__isnull=False).values_list(
        "player_id", "round__number", "table_id", "placement_points", "score", "tiebreak"
    )
    return [
        SeatResult(player, number, table, points or Decimal(0), score or 0, tiebreak[0] if tiebreak else 0)
        for player, number, table, points, score, tiebreak in rows
    ]


def ranks_after(results: list[SeatResult], players: list[int], number: int) -> dict[int, int]:
    """Each player's rank after round ``number``, for the players who had a result by then."""
    if number < 1:
        return {}
    ranked = rank_players([r for r in results if r.round <= number], players)
    return {r.player: r.rank for r in ranked if r.rounds}


@transaction.atomic
def rebuild_standings(event: Event) -> list[Standing]:
    """Rank every player of the event and store the standings.

    Each player's previous rank is their rank after the round before the latest one with results: while that
    round is played and once it is complete, players see how far they moved since the last complete round.
    """
    Event.objects.select_for_update().filter(pk=event.pk).values_list("pk", flat=True).first()
    players = list(event.players.values_list("pk", flat=True))
    results = seat_results(event)
    previous_round = max((r.round for r in results), default=0) - 1
    previous = ranks_after(results, players, previous_round)
    ranked = rank_players(results, players)
    rows = [
        Standing(
            event=event,
            player_id=r.player,
            rank=r.rank,
            previous_rank=previous.get(r.player),
            previous_round=previous_round if previous_round >= 1 else None,
            rounds_played=r.rounds,
            **{key: r.metrics[key] for key in PRECEDENCE},
        )
        for r in ranked
    ]
    Standing.objects.filter(event=event).delete()
    Standing.objects.bulk_create(rows, batch_size=500)
    Event.objects.filter(pk=event.pk).update(standings_version=F("standings_version") + 1)
    event.refresh_from_db(fields=["standings_version"])
    return rows
