"""Seating a round: who sits where, from who is checked in, the event's method and the meetings so far."""

from __future__ import annotations

import dataclasses
from collections import Counter

from django.db import transaction
from django.utils.translation import gettext

from .. import seating
from ..models import AuditEntry, Event, Manche, Round, Seat, Table
from ..models.rounds import RoundStatus
from .clock import carried_length


class SeatingRefused(Exception):
    """The next round cannot be seated yet; the message says why."""


def chosen(players: list[tuple[int, bool, bool]]) -> set[int]:
    """Who a draw seats, of ``players`` given as (id, active, checked in): the active players who are checked in,
    or every active player while nobody is (the organiser does not use check-in)."""
    active = [(pk, checked_in) for pk, is_active, checked_in in players if is_active]
    checked = {pk for pk, checked_in in active if checked_in}
    return checked or {pk for pk, _ in active}


def players_to_seat(event: Event) -> list[int]:
    """The ids of the players a draw of the event seats now (see ``chosen``), in order."""
    return sorted(chosen(list(event.players.values_list("pk", "active", "checked_in"))))


def meeting_history(event: Event, before: int | None = None) -> tuple[Counter, dict[int, Counter]]:
    """How often each pair of players met, and how often each player sat in each position, in every round
    (or, with ``before``, in the rounds numbered below it)."""
    history: Counter = Counter()
    positions: dict[int, Counter] = {}
    tables: dict[int, list[int]] = {}
    seats = Seat.objects.filter(round__event=event).order_by()
    if before is not None:
        seats = seats.filter(round__number__lt=before)
    for table_id, player_id, position in seats.values_list("table_id", "player_id", "position"):
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


def table_sizes(event: Event, player_count: int) -> list[int] | None:
    """The tables ``player_count`` players sit at in this event, largest first; None when they cannot be seated."""
    try:
        return seating.plan_table_sizes(player_count, event.table_size, min_table_size(event))
    except ValueError:
        return None


def draw(event: Event, number: int, method: str, standings: list[int] | None, seed: int | str) -> list[list[int]]:
    """The tables of round ``number`` for the players to seat, by ``method``, against the meetings of earlier rounds."""
    players = players_to_seat(event)
    history, positions = meeting_history(event, before=number)
    try:
        return seating.seat_round(
            method,
            players,
            table_size=event.table_size,
            min_size=min_table_size(event),
            history=history,
            round_number=number,
            rounds_total=max(event.rounds_planned, number),
            seed=seed,
            standings=standings or players,
            position_counts=positions,
        )
    except ValueError as error:
        raise SeatingRefused(str(error)) from error


def earlier_rounds(event: Event, before: int) -> list[list[list[int]]]:
    """The tables of the event's rounds numbered below ``before``, in order, each a list of player ids."""
    rounds: dict[int, dict[int, list[int]]] = {}
    seats = Seat.objects.filter(round__event=event, round__number__lt=before).order_by()
    for number, table_id, player_id in seats.values_list("round__number", "table_id", "player_id"):
        rounds.setdefault(number, {}).setdefault(table_id, []).append(player_id)
    return [list(tables.values()) for _, tables in sorted(rounds.items())]


def store_quality(round_: Round, tables: list[list[int]]) -> None:
    quality = seating.seating_quality(tables, earlier_rounds(round_.event, round_.number))
    round_.seating_quality = dataclasses.asdict(quality)


@transaction.atomic
def seat_next_round(event: Event, method: str | None = None, standings: list[int] | None = None) -> Round:
    """Create the next round's tables, seats and empty manches, seated by ``method`` (default: random for the
    first round, the event's after)."""
    rounds = list(event.rounds.select_for_update().order_by("number"))
    if any(r.status != RoundStatus.COMPLETE for r in rounds):
        raise SeatingRefused(gettext("The next round is seated only once every earlier round is complete."))
    method = method or (event.seating_method if rounds else "random")
    number = len(rounds) + 1
    tables = draw(event, number, method, standings, event.seed)
    new_round = Round(event=event, number=number, seating_method=method, clock_seconds=carried_length(event, rounds))
    store_quality(new_round, tables)
    new_round.save()
    create_tables(new_round, tables, event.manches_per_round)
    return new_round


@transaction.atomic
def redraw_round(round_: Round, method: str, standings: list[int] | None, seed: int | str) -> Round:
    """Seat ``round_`` again from scratch: new tables (with new links), seats and empty manches.

    The audit entries about the old tables stay, attached to the round instead.
    """
    event = round_.event
    tables = draw(event, round_.number, method, standings, seed)
    AuditEntry.objects.filter(table__round=round_).update(table=None, manche=None, round=round_)
    round_.tables.all().delete()
    round_.seating_method = method
    store_quality(round_, tables)
    round_.save(update_fields=["seating_method", "seating_quality"])
    create_tables(round_, tables, event.manches_per_round)
    return round_


def create_tables(round_: Round, tables: list[list[int]], manches: int) -> None:
    created = Table.objects.bulk_create(Table(round=round_, number=i + 1) for i in range(len(tables)))
    Seat.objects.bulk_create(
        Seat(table=table, round=round_, player_id=player, position=p + 1)
        for table, players in zip(created, tables)
        for p, player in enumerate(players)
    )
    Manche.objects.bulk_create(Manche(table=table, number=n + 1) for table in created for n in range(manches))
