"""Keeping the stored standings up to date without holding up the saves.

A save marks its event's standings out of date inside its own transaction (``mark_stale``). After its commit, and
whenever a standings or projector page is asked for, ``refresh_standings`` rebuilds them (a poll of the live
standings leaves that to a timer), unless they are up to date, another process is rebuilding them, or the last
rebuild finished less than ``STANDINGS_REBUILD_INTERVAL`` seconds ago (half a second by default). In that last case
a timer of this process looks again once the interval is over, and whoever rebuilds looks again after storing, so
the last save is always counted, within about the interval.

What every process needs is in the event's row (``models.Event``): the out-of-date flag, the lease of the process
rebuilding, and what the stored standings count. A process that wants to rebuild takes the lease with one conditional
UPDATE, which also clears the flag before the results are read; a save committed after that sets it again. The
rebuild then reads and ranks outside any transaction and writes only the rows that changed in a short one, which
stores its bookkeeping only if the lease is still its own. Writers of one event's standings take a lock of their own
(an advisory lock on PostgreSQL; SQLite has one writer at a time), never the event's row before their last statement,
so saves are not kept waiting.

``rebuild_now`` is for the organiser: completing or reopening a round, or correcting a sheet, rebuilds at once,
in the caller's transaction when there is one, and voids any lease in flight (that rebuild then stores nothing).
"""

from __future__ import annotations

import datetime
import logging
import threading
from dataclasses import dataclass
from functools import partial

from django.conf import settings
from django.db import DatabaseError, connection, connections, transaction
from django.db.models import F, Q
from django.utils import timezone

from ..after_response import after_response
from ..models import Event
from ..models.event import STANDINGS_BOOKKEEPING
from .build import compute_standings, store_standings

logger = logging.getLogger(__name__)

#: How long a lease keeps other processes from rebuilding; a process that dies rebuilding holds them off this long.
LEASE = datetime.timedelta(seconds=10)
#: The PostgreSQL advisory lock namespace of the standings' writers (the second key is the event's id).
WRITER_LOCK = 0x5374616E  # "Stan"


def interval() -> datetime.timedelta:
    """The least time between two rebuilds of one event's standings (``STANDINGS_REBUILD_INTERVAL`` seconds)."""
    return datetime.timedelta(seconds=getattr(settings, "STANDINGS_REBUILD_INTERVAL", 0.5))


def mark_stale(event_id: int) -> None:
    """Inside a save's transaction, as its last statement: the event's standings no longer count every sheet."""
    Event.objects.filter(pk=event_id).update(standings_stale=True)


def writer_lock(event_id: int) -> None:
    """Inside a transaction: wait until no other transaction writes this event's standings."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [WRITER_LOCK, event_id % 2**31])


# What is due ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Due:
    """What the standings' bookkeeping says: nothing to do, someone else is on it, or rebuild in ``wait``."""

    needed: bool
    busy: bool = False
    wait: float = 0.0


def due(stale: bool, lease, built_at, now: datetime.datetime) -> Due:
    """Whether a rebuild is needed and when it may start, from the event's bookkeeping at ``now``.

    A lease past its end belongs to a rebuild that never finished: the standings are then out of date too.
    """
    if lease is not None and lease > now:
        return Due(needed=True, busy=True)
    if not stale and lease is None:
        return Due(needed=False)
    if built_at is None:
        return Due(needed=True)
    return Due(needed=True, wait=max(0.0, (built_at + interval() - now).total_seconds()))


def bookkeeping(event_id: int) -> tuple:
    """The out-of-date flag, the lease and when the standings were last stored, as the database has them now."""
    return Event.objects.filter(pk=event_id).values_list(
        "standings_stale", "standings_lease", "standings_built_at"
    ).first() or (False, None, None)


# Rebuilding ----------------------------------------------------------------------------------------------------


class LeaseLost(Exception):
    """Another rebuild took over: it counts at least what this one read, so this one stores nothing."""


def take_lease(event_id: int, now: datetime.datetime) -> datetime.datetime | None:
    """The lease's end if this process may rebuild now (and the flag is cleared), else None; one UPDATE."""
    lease = now + LEASE
    needed = Q(standings_stale=True) | Q(standings_lease__isnull=False)
    free = Q(standings_lease__isnull=True) | Q(standings_lease__lte=now)
    spaced = Q(standings_built_at__isnull=True) | Q(standings_built_at__lte=now - interval())
    taken = Event.objects.filter(needed, free, spaced, pk=event_id).update(standings_stale=False, standings_lease=lease)
    return lease if taken else None


def stored(started: datetime.datetime, written: int) -> dict:
    """The bookkeeping of standings just stored, counting every sheet saved before ``started``."""
    fields = {"standings_lease": None, "standings_built_from": started, "standings_built_at": timezone.now()}
    if written:
        fields["standings_version"] = F("standings_version") + 1
    return fields


def rebuild_leased(event_id: int, lease: datetime.datetime, started: datetime.datetime) -> int:
    """Read and rank outside any transaction, then write the changes if the lease is still this process's."""
    computed = compute_standings(event_id)
    with transaction.atomic():
        writer_lock(event_id)
        written = store_standings(event_id, computed)
        if not Event.objects.filter(pk=event_id, standings_lease=lease).update(**stored(started, written)):
            raise LeaseLost
    return written


def rebuild_now(event_id: int, *, only_if_stale: bool = False) -> bool:
    """Rebuild the standings at once, whatever the interval or another process's lease (which is voided).

    With ``only_if_stale``, nothing is done when they count every sheet already. Returns whether it rebuilt.
    """
    with transaction.atomic():
        writer_lock(event_id)
        if only_if_stale:
            stale, lease, _built_at = bookkeeping(event_id)
            if not stale and lease is None:
                return False
        started = timezone.now()
        Event.objects.filter(pk=event_id).update(standings_stale=False, standings_lease=None)
        written = store_standings(event_id, compute_standings(event_id))
        Event.objects.filter(pk=event_id).update(**stored(started, written))
    return True


def refresh_standings(event: Event | int, *, in_background: bool = False) -> bool:
    """Rebuild the event's standings if they are out of date and it is this process's turn; True when it rebuilt.
    ``in_background`` leaves the rebuild to a timer of this process, so the caller (a poll) answers at once.

    Given an event just read, its bookkeeping tells what is due without asking the database again (and is read
    again after a rebuild). When the interval since the last rebuild is not over, a timer of this process tries
    again when it is; whoever rebuilds tries again after storing when a save came meanwhile.
    """
    event_id = event if isinstance(event, int) else event.pk
    now = timezone.now()
    if isinstance(event, Event):
        state = due(event.standings_stale, event.standings_lease, event.standings_built_at, now)
        if not state.needed or state.busy:
            return False
        if state.wait or in_background:
            schedule(event_id, state.wait)
            return False
    try:
        rebuilt = rebuild_if_free(event_id, now)
    except DatabaseError:
        logger.exception("Standings of event %s not rebuilt; trying again", event_id)
        schedule(event_id, interval().total_seconds())
        return False
    if rebuilt and isinstance(event, Event):
        event.refresh_from_db(fields=sorted(STANDINGS_BOOKKEEPING))
    return rebuilt


def rebuild_if_free(event_id: int, now: datetime.datetime) -> bool:
    """Take the lease and rebuild; when it is not free, leave it to its holder or to a timer of this process."""
    lease = take_lease(event_id, now)
    if lease is None:
        state = due(*bookkeeping(event_id), timezone.now())
        if state.needed and not state.busy:
            schedule(event_id, state.wait or interval().total_seconds())
        return False
    try:
        rebuild_leased(event_id, lease, started=now)
    except LeaseLost:
        return False
    except BaseException:
        Event.objects.filter(pk=event_id, standings_lease=lease).update(standings_stale=True, standings_lease=None)
        raise
    stale, _lease, _built_at = bookkeeping(event_id)
    if stale:
        schedule(event_id, interval().total_seconds())
    return True


def sheet_saved(event_id: int, *, at_once: bool = False) -> None:
    """After a sheet's commit: the organiser's change is counted at once, a table's within the interval (once the
    table's phone has its answer)."""
    if at_once:
        rebuild_now(event_id, only_if_stale=True)
    else:
        after_response(partial(refresh_unless_scheduled, event_id))


def refresh_unless_scheduled(event_id: int) -> None:
    """Rebuild now if it is this process's turn, unless a timer of this process will anyway."""
    if not scheduled(event_id):
        refresh_standings(event_id)


# This process's timers -----------------------------------------------------------------------------------------

_timers: dict[int, threading.Timer] = {}
_timers_lock = threading.Lock()


def scheduled(event_id: int) -> bool:
    """Whether a timer of this process will try the event's rebuild: what is committed now, it will count."""
    with _timers_lock:
        return event_id in _timers


def schedule(event_id: int, seconds: float) -> None:
    """Try the event's rebuild in ``seconds``, unless a timer of this process will already."""
    with _timers_lock:
        if event_id in _timers:
            return
        timer = threading.Timer(seconds, run_timer, args=(event_id,))
        timer.daemon = True
        _timers[event_id] = timer
    timer.start()


def run_timer(event_id: int) -> None:
    with _timers_lock:
        _timers.pop(event_id, None)
    try:
        refresh_standings(event_id)
    except Exception:
        logger.exception("Standings of event %s: the timed rebuild failed", event_id)
    finally:
        connections.close_all()
