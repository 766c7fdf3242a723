"""The one way the stored standings are kept up to date and the live pages learn of them.

What it guarantees:

- Every saved sheet is counted in the stored standings within about the rebuild interval after its commit
  (``STANDINGS_REBUILD_INTERVAL``, half a second by default), however many processes serve the event. Should the
  process that saved it or the one rebuilding stop first, the next page or poll of the standings starts the rebuild
  (once a dead process's lease is over, ten seconds at most).
- No request waits for a rebuild or a render, except the organiser's ``rebuild_now``: a save's rebuild runs once
  the table's phone has its answer, a page's or a poll's once its answer is sent, and a page shows what is stored.
- At most one process rebuilds an event's standings at a time (``rebuild_now`` takes over from one in flight, which
  then stores nothing).
- Nothing another process needs is kept in a process's memory: the out-of-date flag, the lease of the process
  rebuilding and what the stored standings count are in the event's row, rendered live pages in the shared cache.
  A process keeps only its timers and which of its threads renders what.

The interface:

- ``mark_stale(event_id)``: inside a save's transaction, as its last statement.
- ``sheet_saved(event_id, at_once=...)``: after the save's commit; ``at_once`` for the organiser's corrections.
- ``rebuild_now(event_id)``: the organiser's rebuild, in the caller's transaction (completing or reopening a round);
  callers that write the standings' rounds take ``writer_lock(event_id)`` first, the order every writer keeps.
- ``ensure_fresh_soon(event)``: a page or a poll that shows the standings asks for a rebuild after its answer.
- ``live_partial(...)`` and ``STANDINGS_PENDING``: what a poll of a live page (the standings page, a projector page)
  that shows a version gets: nothing new, or the newest rendered partial (see ``live_render``).

How: a process that wants to rebuild takes the lease with one conditional UPDATE, which also clears the flag before
the results are read (a save committed after that sets it again), and only when the last rebuild finished at least
the interval ago; otherwise a timer of the process tries again when the interval is over, and whoever rebuilds looks
at the flag again after storing. The rebuild reads and ranks outside any transaction and writes only the rows that
changed in a short one, which stores its bookkeeping only if the lease is still its own. Writers of one event's
standings take a lock of their own (an advisory lock on PostgreSQL; SQLite has one writer at a time), never the
event's row before their last statement, so saves are not kept waiting.
"""

from __future__ import annotations

import datetime
import logging
import threading
from dataclasses import dataclass
from functools import partial

from django.conf import settings
from django.db import DatabaseError, connections, transaction
from django.db.models import F, Q
from django.utils import timezone

from ..after_response import after_response
from ..models import Event
from ..sql import standings_writer_lock
from .build import compute_standings, store_standings
from .live_render import STANDINGS_PENDING, live_partial

__all__ = [
    "STANDINGS_PENDING",
    "ensure_fresh_soon",
    "live_partial",
    "mark_stale",
    "rebuild_now",
    "sheet_saved",
    "writer_lock",
]

logger = logging.getLogger(__name__)

#: How long a lease keeps other processes from rebuilding; a process that dies rebuilding holds them off this long.
_LEASE = datetime.timedelta(seconds=10)


# The interface -------------------------------------------------------------------------------------------------


def mark_stale(event_id: int) -> None:
    """Inside a save's transaction, as its last statement: the event's standings no longer count every sheet."""
    Event.objects.filter(pk=event_id).update(standings_stale=True)


def sheet_saved(event_id: int, *, at_once: bool = False) -> None:
    """After a sheet's commit: the organiser's change is counted at once, a table's within the interval (once the
    table's phone has its answer)."""
    if at_once:
        rebuild_now(event_id, only_if_stale=True)
    else:
        after_response(partial(_refresh_unless_scheduled, event_id))


def rebuild_now(event_id: int, *, only_if_stale: bool = False) -> bool:
    """Rebuild the standings at once, whatever the interval or another process's lease (which is voided).

    With ``only_if_stale``, nothing is done when they count every sheet already. Returns whether it rebuilt.
    """
    with transaction.atomic():
        writer_lock(event_id)
        if only_if_stale:
            stale, lease, _built_at = _bookkeeping(event_id)
            if not stale and lease is None:
                return False
        started = timezone.now()
        Event.objects.filter(pk=event_id).update(standings_stale=False, standings_lease=None)
        written = store_standings(event_id, compute_standings(event_id))
        Event.objects.filter(pk=event_id).update(**_stored(started, written))
    return True


def writer_lock(event_id: int) -> None:
    """Inside a transaction: wait until no other transaction writes this event's standings."""
    standings_writer_lock(event_id)


def ensure_fresh_soon(event: Event | int) -> None:
    """For a page or a poll, which shows the standings as stored: when they miss a sheet, a timer of this process
    rebuilds them once the answer is sent and the interval is over, unless another process is rebuilding them.

    Given an event just read, its bookkeeping says what is due without asking the database again.
    """
    if isinstance(event, Event):
        event_id, bookkeeping = event.pk, (event.standings_stale, event.standings_lease, event.standings_built_at)
    else:
        event_id, bookkeeping = event, _bookkeeping(event)
    state = _due(*bookkeeping, timezone.now())
    if state.needed and not state.busy:
        after_response(partial(_schedule, event_id, state.wait))


# What is due ---------------------------------------------------------------------------------------------------


def _interval() -> datetime.timedelta:
    """The least time between two rebuilds of one event's standings (``STANDINGS_REBUILD_INTERVAL`` seconds)."""
    return datetime.timedelta(seconds=getattr(settings, "STANDINGS_REBUILD_INTERVAL", 0.5))


@dataclass(frozen=True)
class _Due:
    """What the standings' bookkeeping says: nothing to do, someone else is on it, or rebuild in ``wait``."""

    needed: bool
    busy: bool = False
    wait: float = 0.0


def _due(stale: bool, lease, built_at, now: datetime.datetime) -> _Due:
    """Whether a rebuild is needed and when it may start, from the event's bookkeeping at ``now``.

    A lease past its end belongs to a rebuild that never finished: the standings are then out of date too.
    """
    if lease is not None and lease > now:
        return _Due(needed=True, busy=True)
    if not stale and lease is None:
        return _Due(needed=False)
    if built_at is None:
        return _Due(needed=True)
    return _Due(needed=True, wait=max(0.0, (built_at + _interval() - now).total_seconds()))


def _bookkeeping(event_id: int) -> tuple:
    """The out-of-date flag, the lease and when the standings were last stored, as the database has them now."""
    return Event.objects.filter(pk=event_id).values_list(
        "standings_stale", "standings_lease", "standings_built_at"
    ).first() or (False, None, None)


# Rebuilding ----------------------------------------------------------------------------------------------------


class _LeaseLost(Exception):
    """Another rebuild took over: it counts at least what this one read, so this one stores nothing."""


def _take_lease(event_id: int, now: datetime.datetime) -> datetime.datetime | None:
    """The lease's end if this process may rebuild now (and the flag is cleared), else None; one UPDATE."""
    lease = now + _LEASE
    needed = Q(standings_stale=True) | Q(standings_lease__isnull=False)
    free = Q(standings_lease__isnull=True) | Q(standings_lease__lte=now)
    spaced = Q(standings_built_at__isnull=True) | Q(standings_built_at__lte=now - _interval())
    taken = Event.objects.filter(needed, free, spaced, pk=event_id).update(standings_stale=False, standings_lease=lease)
    return lease if taken else None


def _stored(started: datetime.datetime, written: int) -> dict:
    """The bookkeeping of standings just stored, counting every sheet saved before ``started``."""
    fields = {"standings_lease": None, "standings_built_from": started, "standings_built_at": timezone.now()}
    if written:
        fields["standings_version"] = F("standings_version") + 1
    return fields


def _rebuild_leased(event_id: int, lease: datetime.datetime, started: datetime.datetime) -> int:
    """Read and rank outside any transaction, then write the changes if the lease is still this process's."""
    computed = compute_standings(event_id)
    with transaction.atomic():
        writer_lock(event_id)
        written = store_standings(event_id, computed)
        if not Event.objects.filter(pk=event_id, standings_lease=lease).update(**_stored(started, written)):
            raise _LeaseLost
    return written


def _refresh(event_id: int) -> bool:
    """Rebuild the event's standings if they are out of date and it is this process's turn; True when it rebuilt.

    When the interval since the last rebuild is not over, a timer of this process tries again when it is; whoever
    rebuilds tries again after storing when a save came meanwhile.
    """
    now = timezone.now()
    try:
        return _rebuild_if_free(event_id, now)
    except DatabaseError:
        logger.exception("Standings of event %s not rebuilt; trying again", event_id)
        _schedule(event_id, _interval().total_seconds())
        return False


def _rebuild_if_free(event_id: int, now: datetime.datetime) -> bool:
    """Take the lease and rebuild; when it is not free, leave it to its holder or to a timer of this process."""
    lease = _take_lease(event_id, now)
    if lease is None:
        state = _due(*_bookkeeping(event_id), timezone.now())
        if state.needed and not state.busy:
            _schedule(event_id, state.wait or _interval().total_seconds())
        return False
    try:
        _rebuild_leased(event_id, lease, started=now)
    except _LeaseLost:
        return False
    except BaseException:
        Event.objects.filter(pk=event_id, standings_lease=lease).update(standings_stale=True, standings_lease=None)
        raise
    stale, _lease, _built_at = _bookkeeping(event_id)
    if stale:
        _schedule(event_id, _interval().total_seconds())
    return True


def _refresh_unless_scheduled(event_id: int) -> None:
    """Rebuild now if it is this process's turn, unless a timer of this process will anyway."""
    if not _scheduled(event_id):
        _refresh(event_id)


# This process's timers -----------------------------------------------------------------------------------------

_timers: dict[int, threading.Timer] = {}
_timers_lock = threading.Lock()


def _scheduled(event_id: int) -> bool:
    """Whether a timer of this process will try the event's rebuild: what is committed now, it will count."""
    with _timers_lock:
        return event_id in _timers


def _schedule(event_id: int, seconds: float) -> None:
    """Try the event's rebuild in ``seconds``, unless a timer of this process will already."""
    with _timers_lock:
        if event_id in _timers:
            return
        timer = threading.Timer(seconds, _run_timer, args=(event_id,))
        timer.daemon = True
        _timers[event_id] = timer
    timer.start()


def _run_timer(event_id: int) -> None:
    with _timers_lock:
        _timers.pop(event_id, None)
    try:
        _refresh(event_id)
    except Exception:
        logger.exception("Standings of event %s: the timed rebuild failed", event_id)
    finally:
        connections.close_all()
