"""The end of a round: completing it once every table has its sheets (with what that lets through: sheets nobody
confirmed, disputed tables), and reopening the last round for corrections. Both are kept in the audit trail, and both
bring the club's ratings up to date."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..models import Event, Manche, Round
from ..models.audit import Action
from ..models.event import EventStatus
from ..models.rounds import RoundStatus, TableStatus
from ..ratings.build import rate_round, rebuild_event_club
from ..standings.refresh import rebuild_now, writer_lock
from .audit import Author, record
from .rounds import DESK, RoundRefused, locked_round, numbers, status_of


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


def tables_disputed(round_: Round) -> list[int]:
    return list(round_.tables.filter(status=TableStatus.DISPUTED).order_by("number").values_list("number", flat=True))


def completion_refusal(round_: Round) -> str | None:
    """Why the round cannot be completed now, or None."""
    if round_.status != RoundStatus.IN_PLAY:
        return _("Only a round in play can be completed; this one is %(status)s.") % status_of(round_)
    missing = tables_missing_sheets(round_)
    if missing:
        return ngettext(
            "Table %(tables)s still misses score sheets: the round is complete once every table has them.",
            "Tables %(tables)s still miss score sheets: the round is complete once every table has them.",
            len(missing),
        ) % {"tables": numbers(missing)}
    return None


def completion_problems(round_: Round) -> dict[str, list[int]]:
    """The table numbers completing the round lets through: unconfirmed sheets (when the event asks for
    confirmation) and disputes."""
    unconfirmed = tables_unconfirmed(round_) if round_.event.confirmation_required else []
    return {"unconfirmed": unconfirmed, "disputed": tables_disputed(round_)}


def completion_warnings(round_: Round, problems: dict[str, list[int]] | None = None) -> list[str]:
    """What completing the round lets through, in words (from ``problems`` when already read)."""
    problems = problems if problems is not None else completion_problems(round_)
    warnings = []
    unconfirmed, disputed = problems["unconfirmed"], problems["disputed"]
    if unconfirmed:
        warnings.append(
            ngettext(
                "Table %(tables)s has sheets that no second player confirmed.",
                "Tables %(tables)s have sheets that no second player confirmed.",
                len(unconfirmed),
            )
            % {"tables": numbers(unconfirmed)}
        )
    if disputed:
        warnings.append(
            ngettext(
                "Table %(tables)s is disputed: settle it at the table's page.",
                "Tables %(tables)s are disputed: settle them at the tables' pages.",
                len(disputed),
            )
            % {"tables": numbers(disputed)}
        )
    return warnings


@transaction.atomic
def complete_round(round_: Round, author: Author = DESK) -> list[str]:
    """Close a round in play once every manche of every table has a sheet; returns warnings to show.

    Unconfirmed sheets and disputed tables do not stop it; they are listed. The standings are rebuilt at once (not
    within the interval the tables' saves wait for), so what the organiser prints next counts every sheet.
    """
    writer_lock(round_.event_id)  # before the round's lock takes the event's row: every standings writer's order
    current = locked_round(round_)
    refusal = completion_refusal(current)
    if refusal:
        raise RoundRefused(refusal)
    current.status = RoundStatus.COMPLETE
    current.save(update_fields=["status"])
    event = current.event
    rebuild_now(event.pk)
    if current.number >= event.rounds_planned:
        Event.objects.filter(pk=event.pk).update(status=EventStatus.FINISHED)
    round_.status = current.status
    rate_round(current)
    problems = completion_problems(current)
    record(event, Action.COMPLETE, author, round=current, details=problems)
    return completion_warnings(current, problems)


def reopen_refusal(round_: Round) -> str | None:
    """Why the round cannot be reopened now, or None: only the last round, once complete."""
    if round_.status != RoundStatus.COMPLETE:
        return _("Only a complete round can be reopened; this one is %(status)s.") % status_of(round_)
    later = list(round_.event.rounds.filter(number__gt=round_.number).values_list("number", flat=True))
    if later:
        return ngettext(
            "Round %(numbers)s is seated already: only the last round can be reopened.",
            "Rounds %(numbers)s are seated already: only the last round can be reopened.",
            len(later),
        ) % {"numbers": numbers(later)}
    return None


@transaction.atomic
def reopen_round(round_: Round, author: Author = DESK) -> Round:
    """Put the last, complete round back in play: its tables take corrections again; the standings are rebuilt."""
    writer_lock(round_.event_id)
    current = locked_round(round_)
    refusal = reopen_refusal(current)
    if refusal:
        raise RoundRefused(refusal)
    current.status = RoundStatus.IN_PLAY
    current.save(update_fields=["status"])
    event = current.event
    was = event.status
    rebuild_now(event.pk)
    if was == EventStatus.FINISHED:
        Event.objects.filter(pk=event.pk).update(status=EventStatus.RUNNING)
    rebuild_event_club(event)
    record(event, Action.REOPEN, author, round=current, details={"event_status": was})
    round_.status = current.status
    return current
