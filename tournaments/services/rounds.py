"""A round's life on the organiser's desk: seat it, swap seats, publish, start, complete."""

from __future__ import annotations

import dataclasses

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .. import seating
from ..models import Event, Manche, Round, Seat, Standing
from ..models.event import EventStatus, SeatingMethod
from ..models.rounds import RoundStatus
from .seating import SeatingRefused, seat_next_round


class RoundRefused(Exception):
    """A change to a round that its status does not allow; the message says why."""


def unfinished_rounds(event: Event) -> list[int]:
    """Numbers of the event's rounds that are not complete yet."""
    return list(event.rounds.exclude(status=RoundStatus.COMPLETE).order_by("number").values_list("number", flat=True))


def next_round_method(event: Event, rounds_so_far: int) -> str:
    """The seating method offered for the next round: random for the first, the event's after."""
    return SeatingMethod.RANDOM if rounds_so_far == 0 else event.seating_method


def standings_order(event: Event) -> list[int]:
    """Active players by their place in the standings; players without one follow, by name."""
    ranked = list(
        Standing.objects.filter(event=event, player__active=True)
        .order_by("rank", "player__name")
        .values_list("player_id", flat=True)
    )
    seen = set(ranked)
    rest = event.players.filter(active=True).order_by("name").values_list("pk", flat=True)
    return ranked + [pk for pk in rest if pk not in seen]


def seat_round(event: Event, method: str | None = None) -> Round:
    """Seat the event's next round by ``method`` once every earlier round is complete."""
    waiting = unfinished_rounds(event)
    if waiting:
        raise SeatingRefused(
            ngettext(
                "Round %(numbers)s is not complete yet: the next round is seated once it is.",
                "Rounds %(numbers)s are not complete yet: the next round is seated once they are.",
                len(waiting),
            )
            % {"numbers": ", ".join(str(n) for n in waiting)}
        )
    if not event.players.filter(active=True).exists():
        raise SeatingRefused(_("There is no active player to seat."))
    new_round = seat_next_round(event, method=method, standings=standings_order(event))
    refresh_quality(new_round)
    return new_round


def round_quality(round_: Round) -> dict[str, int]:
    """Repeated meetings of ``round_`` and of every round up to it, with the lower bound for its shape."""
    rows = Seat.objects.filter(round__event=round_.event, round__number__lte=round_.number).values_list(
        "round__number", "table_id", "player_id"
    )
    rounds: dict[int, dict[int, list[int]]] = {}
    for number, table, player in rows:
        rounds.setdefault(number, {}).setdefault(table, []).append(player)
    earlier = [list(tables.values()) for number, tables in sorted(rounds.items()) if number < round_.number]
    current = list(rounds.get(round_.number, {}).values())
    history = seating.meetings_of_rounds(earlier)
    quality = seating.seating_quality(current, history, table_size=round_.event.table_size, round_number=round_.number)
    return dataclasses.asdict(quality)


def refresh_quality(round_: Round) -> dict[str, int]:
    """Store the round's seating quality as it is now."""
    round_.seating_quality = round_quality(round_)
    round_.save(update_fields=["seating_quality"])
    return round_.seating_quality


def locked_round(round_: Round) -> Round:
    """The round read again under a row lock, so two organisers' clicks do not cross."""
    return Round.objects.select_for_update().select_related("event").get(pk=round_.pk)


def can_swap(round_: Round) -> bool:
    """Seats may change only while the round is seated and nobody has seen it yet."""
    return round_.status == RoundStatus.SEATED and not round_.published


@transaction.atomic
def swap_seats(round_: Round, player_a: int | None, player_b: int | None) -> Round:
    """Exchange the tables and positions of two players of a round that is seated and not published."""
    current = locked_round(round_)
    if not can_swap(current):
        raise RoundRefused(_("Seats can be swapped only before the round is published."))
    if player_a == player_b:
        raise RoundRefused(_("Choose two different players to swap."))
    seats = {s.player_id: s for s in Seat.objects.filter(round=current, player_id__in=[player_a, player_b])}
    if len(seats) != 2:
        raise RoundRefused(_("Both players must be seated in this round."))
    if Manche.objects.filter(table__round=current, document__isnull=False).exists():
        raise RoundRefused(_("A sheet is already entered in this round: its seats can no longer be swapped."))
    a, b = seats[player_a], seats[player_b]
    free = (Seat.objects.filter(table_id=a.table_id).aggregate(top=Max("position"))["top"] or 0) + 1
    Seat.objects.filter(pk=a.pk).update(position=free)
    Seat.objects.filter(pk=b.pk).update(table_id=a.table_id, position=a.position)
    Seat.objects.filter(pk=a.pk).update(table_id=b.table_id, position=b.position)
    refresh_quality(current)
    round_.seating_quality = current.seating_quality
    return current


@transaction.atomic
def publish_round(round_: Round) -> Round:
    """Show the round's seating on the public event page and open its tables' links."""
    current = locked_round(round_)
    if not current.published:
        current.published = True
        current.save(update_fields=["published"])
    round_.published = True
    return current


@transaction.atomic
def start_round(round_: Round) -> Round:
    """Put a seated round in play (publishing it if it was not) and mark the event as running."""
    current = locked_round(round_)
    if current.status != RoundStatus.SEATED:
        raise RoundRefused(_("Only a seated round can be started; this one is %(status)s.") % status_of(current))
    current.status = RoundStatus.IN_PLAY
    current.published = True
    current.save(update_fields=["status", "published"])
    Event.objects.filter(pk=current.event_id).exclude(status=EventStatus.RUNNING).update(status=EventStatus.RUNNING)
    round_.status, round_.published = current.status, current.published
    return current


def tables_missing_sheets(round_: Round) -> list[int]:
    """Numbers of the round's tables with a manche that has no scored sheet yet."""
    missing = Manche.objects.filter(table__round=round_, result__isnull=True).values_list("table__number", flat=True)
    return sorted(set(missing))


def tables_unconfirmed(round_: Round) -> list[int]:
    """Numbers of the round's tables with a sheet that no second player confirmed."""
    waiting = Manche.objects.filter(table__round=round_, confirmed_at__isnull=True).values_list(
        "table__number", flat=True
    )
    return sorted(set(waiting))


@transaction.atomic
def complete_round(round_: Round) -> list[str]:
    """Close a round in play once every manche of every table has a sheet; returns warnings to show.

    Unconfirmed sheets do not stop it, but when the event asks for confirmation they are listed.
    """
    current = locked_round(round_)
    if current.status != RoundStatus.IN_PLAY:
        raise RoundRefused(_("Only a round in play can be completed; this one is %(status)s.") % status_of(current))
    missing = tables_missing_sheets(current)
    if missing:
        raise RoundRefused(
            ngettext(
                "Table %(tables)s still misses score sheets: the round is complete once every table has them.",
                "Tables %(tables)s still miss score sheets: the round is complete once every table has them.",
                len(missing),
            )
            % {"tables": ", ".join(str(n) for n in missing)}
        )
    current.status = RoundStatus.COMPLETE
    current.save(update_fields=["status"])
    event = current.event
    if current.number >= event.rounds_planned:
        Event.objects.filter(pk=event.pk).update(status=EventStatus.FINISHED)
    round_.status = current.status
    warnings = []
    unconfirmed = tables_unconfirmed(current) if event.confirmation_required else []
    if unconfirmed:
        warnings.append(
            ngettext(
                "Table %(tables)s has sheets that no second player confirmed.",
                "Tables %(tables)s have sheets that no second player confirmed.",
                len(unconfirmed),
            )
            % {"tables": ", ".join(str(n) for n in unconfirmed)}
        )
    return warnings


def status_of(round_: Round) -> dict[str, str]:
    return {"status": str(round_.get_status_display()).lower()}
