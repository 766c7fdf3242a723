"""What the desk must see at once: disputed tables, and tables with nothing entered late in the round.

Late means a clock that has run is down to its last quarter (or over), or, for a round in play whose clock never
ran, ``LATE_WITHOUT_CLOCK`` after the round started.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.utils import timezone

from ..models import AuditEntry, Round, Table
from ..models.audit import Action
from ..models.rounds import RoundStatus, TableStatus
from . import clock
from .clock_display import current_of
from .desk_board import desk_rounds

LATE_WITHOUT_CLOCK = timedelta(minutes=30)


class Lateness:
    NONE = ""
    CLOCK = "clock"  # a quarter of the clock or less is left
    STARTED = "started"  # no running clock, and the round started long ago


@dataclass
class DeskAlerts:
    disputed: list[Table] = field(default_factory=list)
    empty: list[Table] = field(default_factory=list)
    lateness: str = Lateness.NONE

    @property
    def count(self) -> int:
        return len(self.disputed) + len(self.empty)

    @property
    def version(self) -> str:
        """Changes whenever what the desk shows changes (a dispute's reason too); the desk asks with it and hears
        "nothing new" (204)."""
        parts = (
            [f"d{t.pk}:{t.dispute_reason}" for t in self.disputed] + [f"e{t.pk}" for t in self.empty] + [self.lateness]
        )
        return hashlib.sha256(":".join(parts).encode()).hexdigest()[:12]


def round_started_at(round_: Round) -> datetime:
    """When the round was started (the audit trail's entry), else when it was seated."""
    started = (
        AuditEntry.objects.filter(round=round_, action=Action.START).order_by("-at").values_list("at", flat=True)
    ).first()
    return started or round_.created_at


def lateness(round_: Round, now: datetime) -> str:
    """Whether ``round_`` is late enough for empty tables to be a worry, and why."""
    if round_.status == RoundStatus.COMPLETE:
        return Lateness.NONE
    if clock.state(round_) in (clock.State.RUNNING, clock.State.PAUSED):
        return Lateness.CLOCK if clock.is_late(round_, now) else Lateness.NONE
    # Seated before it started: the audit trail is read only once the seating itself is long enough ago.
    seated_long_ago = now - round_.created_at >= LATE_WITHOUT_CLOCK
    if (
        round_.status == RoundStatus.IN_PLAY
        and seated_long_ago
        and now - round_started_at(round_) >= LATE_WITHOUT_CLOCK
    ):
        return Lateness.STARTED
    return Lateness.NONE


def desk_alerts(event, rounds: list[Round] | None = None, now: datetime | None = None) -> DeskAlerts:
    """The alerts of ``event``, read from ``rounds`` (``desk_rounds``': the desk has them) if given."""
    now = now or timezone.now()
    rounds = desk_rounds(event) if rounds is None else rounds
    alerts = DeskAlerts(disputed=[t for r in rounds for t in r.board_tables if t.status == TableStatus.DISPUTED])
    current = current_of(rounds)
    if current is not None:
        alerts.lateness = lateness(current, now)
        if alerts.lateness:
            alerts.empty = [table for table in current.board_tables if table.status == TableStatus.EMPTY]
    return alerts
