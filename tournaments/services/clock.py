"""The round clock: its length, started, paused, resumed and given more time, kept in the round's own fields.

Time left is ``clock_seconds - clock_elapsed - (now - clock_started_at)`` while it runs, and
``clock_seconds - clock_elapsed`` while it is paused: it survives a reload and a restart. Below zero the round is
in overtime ("+2:13 over"). Only ``change_clock`` saves; the other changes are made to the round in memory.
Stored values beyond what the clock itself sets (an old database, a crafted backup) count as its limits:
a length as ``MAX_SECONDS``, time run before the last start as ``MAX_SECONDS`` past the length.
A new round's clock starts with the length set last at the event (``carried_length``).
How pages show it: ``clock_display``.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import AuditEntry, Round
from ..models.audit import Action
from ..models.rounds import RoundStatus
from .audit import Author, record

#: The longest round clock, and the most time one change adds or takes.
MAX_MINUTES = 600
#: The longest a clock gets: the longest length with as much time added again.
MAX_SECONDS = 2 * MAX_MINUTES * 60
#: Late in the round: less than this share of the clock is left.
LATE_SHARE = 0.25


class ClockRefused(ValueError):
    """The clock cannot do that now (pause a clock that is not running...); the message says why."""


class State:
    OFF = "off"  # no length set: no clock
    READY = "ready"  # a length, never started
    RUNNING = "running"
    PAUSED = "paused"


def state(round_: Round) -> str:
    if round_.clock_seconds is None:
        return State.OFF
    if round_.clock_started_at is not None:
        return State.RUNNING
    return State.PAUSED if round_.clock_elapsed else State.READY


def length(round_: Round) -> int:
    """The clock's length in seconds (0 without a clock), at most ``MAX_SECONDS``."""
    return min(round_.clock_seconds or 0, MAX_SECONDS)


def elapsed(round_: Round) -> int:
    """Seconds the clock ran before it was last started, at most ``MAX_SECONDS`` past its length."""
    return min(round_.clock_elapsed, length(round_) + MAX_SECONDS)


def seconds_run(round_: Round, now: datetime) -> float:
    """Seconds the clock has run in all, this stretch included."""
    ran = float(elapsed(round_))
    if round_.clock_started_at is not None:
        ran += max(0.0, (now - round_.clock_started_at).total_seconds())
    return ran


def remaining(round_: Round, now: datetime) -> float | None:
    """Seconds left (negative: overtime); None without a clock."""
    if round_.clock_seconds is None:
        return None
    return length(round_) - seconds_run(round_, now)


def deadline(round_: Round) -> datetime | None:
    """When a running clock reaches zero; None unless it runs, or when that moment is past the calendar's ends."""
    if round_.clock_seconds is None or round_.clock_started_at is None:
        return None
    try:
        return round_.clock_started_at + timedelta(seconds=length(round_) - elapsed(round_))
    except OverflowError:
        return None


def is_late(round_: Round, now: datetime) -> bool:
    """Whether a clock that has run is down to its last quarter (or over)."""
    left = remaining(round_, now)
    if left is None or state(round_) == State.READY:
        return False
    return left < length(round_) * LATE_SHARE


def hours_minutes_seconds(seconds: int) -> str:
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def format_clock(seconds: float) -> str:
    """``12:34`` left (whole seconds rounded up, so 0:00 shows only at zero), ``1:02:03``, or ``+2:13 over``."""
    if seconds >= 0:
        return hours_minutes_seconds(math.ceil(seconds))
    return _("+%(time)s over") % {"time": hours_minutes_seconds(math.floor(-seconds))}


# Changes (in memory) ---------------------------------------------------------------------------------------------


def whole_minutes(minutes: int) -> int:
    if not 1 <= minutes <= MAX_MINUTES:
        raise ClockRefused(_("Give a round length from 1 to %(most)d minutes.") % {"most": MAX_MINUTES})
    return minutes * 60


def set_length(round_: Round, minutes: int, now: datetime) -> None:
    """The round lasts ``minutes`` in all; time already run still counts."""
    round_.clock_seconds = whole_minutes(minutes)


def start(round_: Round, now: datetime) -> None:
    """Start (or resume) the clock."""
    current = state(round_)
    if current == State.OFF:
        raise ClockRefused(_("Set the round's length first."))
    if current == State.RUNNING:
        raise ClockRefused(_("The clock is running already."))
    round_.clock_started_at = now


def pause(round_: Round, now: datetime) -> None:
    if state(round_) != State.RUNNING:
        raise ClockRefused(_("The clock is not running."))
    # At least a second, so a clock paused at once still reads as paused, not as never started.
    round_.clock_elapsed = max(1, min(round(seconds_run(round_, now)), length(round_) + MAX_SECONDS))
    round_.clock_started_at = None


def add_time(round_: Round, seconds: int, now: datetime) -> None:
    """More time (or less, with ``seconds`` below zero: never below no time at all)."""
    if round_.clock_seconds is None:
        raise ClockRefused(_("Set the round's length first."))
    if not seconds or abs(seconds) > MAX_MINUTES * 60:
        raise ClockRefused(_("Add from 1 to %(most)d minutes at once.") % {"most": MAX_MINUTES})
    round_.clock_seconds = min(max(0, length(round_) + seconds), MAX_SECONDS)


def reset(round_: Round, now: datetime) -> None:
    """Back to the full length, stopped."""
    round_.clock_started_at = None
    round_.clock_elapsed = 0


def remove(round_: Round, now: datetime) -> None:
    """No clock for this round."""
    reset(round_, now)
    round_.clock_seconds = None


#: What the desk may ask of the clock; "set" and "add" take an amount (minutes to set, seconds to add).
ACTIONS = {
    "set": set_length,
    "start": start,
    "resume": start,
    "pause": pause,
    "add": add_time,
    "reset": reset,
    "remove": remove,
}
WITH_AMOUNT = ("set", "add")


def carried_length(event, rounds: list[Round]) -> int | None:
    """The length in seconds a new round's clock starts with: the one the organiser set last at the event
    (time added or taken during a round is not carried), else the latest of ``rounds`` with a clock; None for
    an event that never had one."""
    last_set = (
        AuditEntry.objects.filter(event=event, action=Action.CLOCK, details__clock="set")
        .order_by("-at", "-pk")
        .values_list("details", flat=True)
        .first()
    )
    minutes = last_set.get("amount") if last_set else None
    if isinstance(minutes, int) and 1 <= minutes <= MAX_MINUTES:
        return minutes * 60
    lengths = [round_.clock_seconds for round_ in rounds if round_.clock_seconds is not None]
    return min(lengths[-1], MAX_SECONDS) if lengths else None


# Saved and audited -----------------------------------------------------------------------------------------------


def change_clock(round_: Round, action: str, author: Author, amount: int | None = None, now=None) -> Round:
    """Apply ``action`` (a key of ``ACTIONS``; ``amount``: minutes to set, or seconds to add) and record it.

    Refused (``ClockRefused``) for a complete round, or when the clock cannot do that now.
    """
    now = now or timezone.now()
    with transaction.atomic():
        current = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
        if current.status == RoundStatus.COMPLETE:
            raise ClockRefused(_("This round is complete: its clock is stopped."))
        change = ACTIONS.get(action)
        if change is None:
            raise ClockRefused(_("Unknown clock action."))
        before = state(current)
        if action in WITH_AMOUNT:
            change(current, int(amount or 0), now)
        else:
            change(current, now)
        if action == "start" and before == State.PAUSED:
            action = "resume"
        current.save(update_fields=["clock_seconds", "clock_started_at", "clock_elapsed"])
        left = remaining(current, now)
        details = {"clock": action, "length": current.clock_seconds, "left": None if left is None else round(left)}
        if action in WITH_AMOUNT:
            details["amount"] = amount
        record(current.event, Action.CLOCK, author, round=current, details=details)
    for name in ("clock_seconds", "clock_started_at", "clock_elapsed"):
        setattr(round_, name, getattr(current, name))
    return current
