"""The round clock as pages show it: the desk, the projector, a table's and a player's page."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from ..models import Round
from ..models.rounds import RoundStatus
from .clock import LATE_SHARE, MAX_MINUTES, State, deadline, format_clock, is_late, length, remaining, state

#: Seconds between a page's questions for the clock (it counts down by itself in between): the desk and projector,
#: and the tables' and players' phones.
EVENT_POLL = 5
TABLE_POLL = 15
#: ... and while there is no clock to show, only whether one was set.
IDLE_POLL = 30


def current_round(event) -> Round | None:
    """The round being played or about to be: the event's latest round not complete."""
    return event.rounds.exclude(status=RoundStatus.COMPLETE).order_by("-number").first()


def current_of(rounds: list[Round]) -> Round | None:
    """``current_round`` among ``rounds`` (the event's, in order) already read."""
    return next((round_ for round_ in reversed(rounds) if round_.status != RoundStatus.COMPLETE), None)


def epoch_ms(moment: datetime) -> int:
    return round(moment.timestamp() * 1000)


@dataclass(frozen=True)
class ClockDisplay:
    """A round's clock as pages show it; ``round`` is None when the event has no round under way."""

    round: Round | None
    now: datetime

    @property
    def idle_poll(self) -> int:
        return IDLE_POLL

    @property
    def state(self) -> str:
        return State.OFF if self.round is None else state(self.round)

    @property
    def polls(self) -> bool:
        """Whether the page keeps asking: a clock may still be set, started or changed."""
        return self.round is None or self.round.status != RoundStatus.COMPLETE

    @property
    def shown(self) -> bool:
        return self.polls and self.state != State.OFF

    @property
    def left(self) -> float | None:
        return None if self.round is None else remaining(self.round, self.now)

    @property
    def text(self) -> str:
        return format_clock(self.left) if self.left is not None else ""

    @property
    def over(self) -> bool:
        return self.left is not None and self.left < 0

    @property
    def late(self) -> bool:
        return self.round is not None and is_late(self.round, self.now)

    @property
    def late_below(self) -> int:
        """Whole seconds left below which the round is late (for the page's own countdown)."""
        return round(length(self.round) * LATE_SHARE) if self.round is not None else 0

    @property
    def deadline_ms(self) -> int | None:
        end = None if self.round is None else deadline(self.round)
        return None if end is None else epoch_ms(end)

    @property
    def now_ms(self) -> int:
        return epoch_ms(self.now)

    @property
    def version(self) -> str:
        """Changes when the clock is set, started, paused, changed or ended, or another round's clock is shown; not
        as its seconds run, which the page counts itself."""
        if self.round is None:
            return State.OFF
        still = "" if self.state == State.RUNNING else self.text
        parts = (self.round.pk, self.round.status, self.state, self.deadline_ms or "", still, self.late_below)
        return ":".join(str(part) for part in parts)

    @property
    def length_minutes(self) -> int | None:
        if self.round is None or self.round.clock_seconds is None:
            return None
        return math.ceil(length(self.round) / 60)


def clock_display(round_: Round | None, now: datetime | None = None) -> ClockDisplay:
    return ClockDisplay(round_, now or timezone.now())


def offered_minutes(seconds: int) -> int:
    """A length in seconds as whole minutes the desk may set (at most ``MAX_MINUTES``)."""
    return min(math.ceil(seconds / 60), MAX_MINUTES)


def suggested_minutes(round_: Round, rounds: list[Round] | None = None) -> int | None:
    """The length to offer: this round's, else the latest earlier round's with a clock (from ``rounds`` if read)."""
    if round_.clock_seconds is not None:
        return offered_minutes(round_.clock_seconds)
    if rounds is None:
        earlier = (
            Round.objects.filter(event_id=round_.event_id, number__lt=round_.number, clock_seconds__isnull=False)
            .order_by("-number")
            .values_list("clock_seconds", flat=True)
            .first()
        )
    else:
        lengths = [r.clock_seconds for r in rounds if r.number < round_.number and r.clock_seconds is not None]
        earlier = lengths[-1] if lengths else None
    return None if earlier is None else offered_minutes(earlier)


def desk_clock(round_: Round, rounds: list[Round] | None = None) -> dict:
    """What the desk's clock section shows for ``round_`` (the page adds the clock's own address)."""
    return {
        "clock_round": round_,
        "clock": clock_display(round_),
        "clock_minutes": suggested_minutes(round_, rounds),
        "clock_poll": EVENT_POLL,
    }
