"""A round's life on the organiser's desk up to its start: seat it (from who is checked in), swap seats, publish,
start; and the ways back while they harm nobody (unpublish, seat again). Every step is kept in the audit trail.
Completing and reopening a round are in ``round_end``."""

from __future__ import annotations

import dataclasses

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .. import seating
from ..collation import alphabetical, sort_key
from ..models import AuditEntry, Event, Manche, Round, Seat, SheetRevision, Standing
from ..models.audit import Action
from ..models.event import EventStatus
from ..models.rounds import RoundStatus
from ..models.sheets import Via
from .audit import Author, record
from .seat_preview import preview_lines, seat_preview
from .seating import SeatingRefused, redraw_round, seat_next_round

#: Who a change is recorded as when the caller names nobody (a script, the demo, a test).
DESK = Author(via=Via.ORGANISER)


class RoundRefused(Exception):
    """A change to a round that its status does not allow; the message says why."""


def unfinished_rounds(event: Event) -> list[int]:
    """Numbers of the event's rounds that are not complete yet."""
    return list(event.rounds.exclude(status=RoundStatus.COMPLETE).order_by("number").values_list("number", flat=True))


def next_round_method(event: Event, rounds_so_far: int) -> str:
    """The seating method offered for the next round: the event's, from the first round on."""
    return event.seating_method


def standings_order(event: Event) -> list[int]:
    """Active players by their place in the standings, tied places alphabetically; players without one follow,
    alphabetically. Names are ordered by the collation, so every database gives the same order."""
    standings = Standing.objects.filter(event=event, player__active=True).values_list(
        "player_id", "rank", "player__name"
    )
    ranked = [pk for pk, _rank, _name in sorted(standings, key=lambda row: (row[1], sort_key(row[2])))]
    seen = set(ranked)
    rest = alphabetical(event.players.filter(active=True).values_list("pk", "name"), key=lambda row: row[1])
    return ranked + [pk for pk, _name in rest if pk not in seen]


def numbers(values) -> str:
    return ", ".join(str(n) for n in values)


def seat_refusal(event: Event) -> str | None:
    """Why the next round cannot be seated now, or None."""
    waiting = unfinished_rounds(event)
    if waiting:
        return ngettext(
            "Round %(numbers)s is not complete yet: the next round is seated once it is.",
            "Rounds %(numbers)s are not complete yet: the next round is seated once they are.",
            len(waiting),
        ) % {"numbers": numbers(waiting)}
    return None


def draw_refusal(event: Event, number: int) -> tuple[str | None, list[str]]:
    """Why round ``number`` cannot be drawn from the players to seat now (or None), and who is left out."""
    preview = seat_preview(event, number)
    return (None if preview.can_seat else preview_lines(preview, event)[0]), preview.not_checked_in


def draw_details(round_: Round, method: str, left_out: list[str]) -> dict:
    """What the audit trail keeps of a draw: the method, how many players at how many tables, who was left out."""
    return {
        "method": method,
        "players": Seat.objects.filter(round=round_).count(),
        "tables": round_.tables.count(),
        "not_checked_in": left_out,
    }


def seat_round(event: Event, method: str | None = None, author: Author = DESK) -> Round:
    """Seat the event's next round by ``method`` once every earlier round is complete.

    Once the organiser checks players in, only the checked-in active players are seated.
    """
    refusal = seat_refusal(event)
    if refusal:
        raise SeatingRefused(refusal)
    refusal, left_out = draw_refusal(event, event.rounds.count() + 1)
    if refusal:
        raise SeatingRefused(refusal)
    with transaction.atomic():
        new_round = seat_next_round(event, method=method, standings=standings_order(event))
        refresh_quality(new_round)
        details = draw_details(new_round, new_round.seating_method, left_out)
        record(event, Action.SEAT, author, round=new_round, details=details)
    return new_round


def round_quality(round_: Round) -> dict[str, int]:
    """Repeated meetings of ``round_`` and of every round up to it, with how many no seating at these tables avoids."""
    rows = (
        Seat.objects.filter(round__event=round_.event, round__number__lte=round_.number)
        .order_by()
        .values_list("round__number", "table_id", "player_id")
    )
    rounds: dict[int, dict[int, list[int]]] = {}
    for number, table, player in rows:
        rounds.setdefault(number, {}).setdefault(table, []).append(player)
    earlier = [list(tables.values()) for number, tables in sorted(rounds.items()) if number < round_.number]
    current = list(rounds.get(round_.number, {}).values())
    quality = seating.seating_quality(current, earlier)
    return dataclasses.asdict(quality)


def refresh_quality(round_: Round) -> dict[str, int]:
    """Store the round's seating quality as it is now."""
    round_.seating_quality = round_quality(round_)
    round_.save(update_fields=["seating_quality"])
    return round_.seating_quality


def locked_round(round_: Round) -> Round:
    """The round read again under a row lock, so two organisers' clicks do not cross."""
    return Round.objects.select_for_update().select_related("event").get(pk=round_.pk)


def has_sheets(round_: Round) -> bool:
    """Whether any sheet of the round was ever entered."""
    return (
        Manche.objects.filter(table__round=round_, document__isnull=False).exists()
        or SheetRevision.objects.filter(manche__table__round=round_).exists()
    )


def can_swap(round_: Round) -> bool:
    """Seats may change only while the round is seated and nobody has seen it yet."""
    return round_.status == RoundStatus.SEATED and not round_.published


def round_actions(round_: Round, *, sheets: bool, last: bool) -> list[str]:
    """The steps the round's status allows now, the next step of its life first.

    seat -> (swap) -> publish -> start -> complete; unpublish while nobody entered a sheet, seat again before
    publishing, reopen the last round once complete. ``sheets``: a sheet of the round exists; ``last``: no
    later round is seated.
    """
    if round_.status == RoundStatus.SEATED and not round_.published:
        return ["publish"] if sheets else ["publish", "reseat"]
    if round_.status == RoundStatus.SEATED:
        return ["start"] if sheets else ["start", "unpublish"]
    if round_.status == RoundStatus.IN_PLAY:
        return ["complete"]
    if not last:
        return []
    steps = ["seat_next"] if round_.number < round_.event.rounds_planned else []
    return [*steps, "reopen"]


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


def reseat_refusal(round_: Round) -> str | None:
    """Why the round cannot be seated again now, or None: only before it is published or has a sheet."""
    if round_.status != RoundStatus.SEATED:
        return _("Only a round that has not started can be seated again; this one is %(status)s.") % status_of(round_)
    if round_.published:
        return _("Unpublish the seating before seating the round again.")
    if has_sheets(round_):
        return _("A sheet is already entered in this round: it can no longer be seated again.")
    return None


@transaction.atomic
def reseat_round(round_: Round, method: str | None = None, author: Author = DESK) -> Round:
    """Draw a seated, unpublished round again, from who is checked in now; its tables get new links."""
    current = locked_round(round_)
    event = current.event
    refusal = reseat_refusal(current)
    if refusal:
        raise RoundRefused(refusal)
    refusal, left_out = draw_refusal(event, current.number)
    if refusal:
        raise RoundRefused(refusal)
    method = method or current.seating_method or event.seating_method
    draw = AuditEntry.objects.filter(round=current, action=Action.RESEAT).count() + 1
    redraw_round(current, method, standings_order(event), seed=f"{event.seed}:{draw}")
    details = {**draw_details(current, method, left_out), "draw": draw}
    record(event, Action.RESEAT, author, round=current, details=details)
    return current


def refresh_event_status(event: Event) -> None:
    """An event is being set up until players see a seating, and running from the moment a round is published (its
    tables, results and standings are public from then); completing the last planned round finishes it."""
    events = Event.objects.filter(pk=event.pk)
    if event.rounds.filter(published=True).exists():
        events.filter(status=EventStatus.SETUP).update(status=EventStatus.RUNNING)
    else:
        events.filter(status=EventStatus.RUNNING).update(status=EventStatus.SETUP)


def publish_refusal(round_: Round) -> str | None:
    if round_.published:
        return _("Round %(number)d is published already.") % {"number": round_.number}
    return None


@transaction.atomic
def publish_round(round_: Round, author: Author = DESK) -> Round:
    """Show the round's seating on the public event page and open its tables' links."""
    current = locked_round(round_)
    if not current.published:
        current.published = True
        current.save(update_fields=["published"])
        refresh_event_status(current.event)
        record(current.event, Action.PUBLISH, author, round=current, details={"tables": current.tables.count()})
    round_.published = True
    return current


def unpublish_refusal(round_: Round) -> str | None:
    """Why the round's seating cannot be taken back now, or None: only before the round starts or has a sheet."""
    if round_.status != RoundStatus.SEATED:
        return _("Only a round that has not started can be unpublished; this one is %(status)s.") % status_of(round_)
    if has_sheets(round_):
        return _("A sheet is already entered in this round: its seating stays published.")
    return None


@transaction.atomic
def unpublish_round(round_: Round, author: Author = DESK) -> Round:
    """Take back a published seating while the round has not started and nobody entered a sheet."""
    current = locked_round(round_)
    refusal = unpublish_refusal(current)
    if refusal:
        raise RoundRefused(refusal)
    if current.published:
        current.published = False
        current.save(update_fields=["published"])
        refresh_event_status(current.event)
        record(current.event, Action.UNPUBLISH, author, round=current)
    round_.published = False
    return current


@transaction.atomic
def start_round(round_: Round, author: Author = DESK) -> Round:
    """Put a seated, published round in play: its tables take sheets; the event is running."""
    current = locked_round(round_)
    if current.status != RoundStatus.SEATED:
        raise RoundRefused(_("Only a seated round can be started; this one is %(status)s.") % status_of(current))
    if not current.published:
        raise RoundRefused(_("Publish the seating before starting the round: the players need their tables."))
    current.status = RoundStatus.IN_PLAY
    current.save(update_fields=["status"])
    Event.objects.filter(pk=current.event_id).exclude(status=EventStatus.RUNNING).update(status=EventStatus.RUNNING)
    record(current.event, Action.START, author, round=current)
    round_.status = current.status
    return current


def status_of(round_: Round) -> dict[str, str]:
    return {"status": str(round_.get_status_display()).lower()}
