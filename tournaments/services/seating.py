"""Seating a round: who sits where, from the event's method and the meetings so far."""

from __future__ import annotations

import dataclasses
from collections import Counter

from django.db import transaction

from .. import seating
from ..models import Event, Manche, Round, Seat, Table
from ..models.rounds import RoundStatus


class SeatingRefused(Exception):
    """The next round cannot be seated yet; the message says why."""


def meeting_history(event: Event) -> tuple[Counter, dict[int, Counter]]:
    """How often each pair of players met, and how often each player sat in each position."""
    history: Counter = Counter()
    positions: dict[int, Counter] = {}
    tables: dict[int, list[int]] = {}
    for table_id, player_id, position in Seat.objects.filter(round__event=event).values_list(
        "table_id", "player_id", "position"
    ):
        tables.setdefault(table_id, []).append(player_id)
        positions.setdefault(player_id, Counter())[position] += 1
    for players in tables.values():
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                history[frozenset((a, b))] += 1
    return history, positions


def min_table_size(event: Event) -> int:
    variant = event.rules.variant(event.effective_variant)
    return min(variant.player_counts) if variant else min(event.rules.table_sizes)


@transaction.atomic
def seat_next_round(event: Event, method: str | None = None, standings: list[int] | None = None) -> Round:
    """Create the next round's tables, seats and empty manches, seated by ``method`` (default: the event's)."""
    rounds = list(event.rounds.select_for_update().order_by("number"))
    if any(r.status != RoundStatus.COMPLETE for r in rounds):
        raise SeatingRefused("The next round is seated only once every earlier round is complete.")
    players = list(event.players.filter(active=True).order_by("pk").values_list("pk", flat=True))
    method = method or ("random" if not rounds else event.seating_method)
    history, positions = meeting_history(event)
    number = len(rounds) + 1
    try:
        tables = seating.seat_round(
            method,
            players,
            table_size=event.table_size,
            min_size=min_table_size(event),
            history=history,
            round_number=number,
            rounds_total=max(event.rounds_planned, number),
            seed=event.seed,
            standings=standings or players,
            position_counts=positions,
        )
    except ValueError as error:
        raise SeatingRefused(str(error)) from error
    quality = seating.seating_quality(tables, history, table_size=event.table_size, round_number=number)
    new_round = Round.objects.create(
        event=event, number=number, seating_method=method, seating_quality=dataclasses.asdict(quality)
    )
    create_tables(new_round, tables, event.manches_per_round)
    return new_round


def create_tables(round_: Round, tables: list[list[int]], manches: int) -> None:
    created = Table.objects.bulk_create(Table(round=round_, number=i + 1) for i in range(len(tables)))
    Seat.objects.bulk_create(
        Seat(table=table, round=round_, player_id=player, position=p + 1)
        for table, players in zip(created, tables)
        for p, player in enumerate(players)
    )
    Manche.objects.bulk_create(Manche(table=table, number=n + 1) for table in created for n in range(manches))
