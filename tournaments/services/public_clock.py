"""The round whose clock the public sees: never one whose seating is not published."""

from __future__ import annotations

from ..models import Event, Round
from ..models.rounds import RoundStatus
from .find_table import round_now


def public_clock_round(event: Event) -> Round | None:
    """The event's latest published round while it is not complete; else None (the page waits for a clock)."""
    round_ = round_now(event)
    return None if round_ is None or round_.status == RoundStatus.COMPLETE else round_
