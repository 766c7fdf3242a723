"""Where the event's standings stand: after which complete round, or live during which round."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from ..models import Event
from ..models.event import EventStatus
from ..models.rounds import RoundStatus


@dataclass(frozen=True)
class Stage:
    """The round the standings are after (``live``: the round being played; ``final``: the event is finished, its
    last round complete); ``number`` 0 before any round starts."""

    number: int = 0
    live: bool = False
    final: bool = False

    @property
    def baseline(self) -> int | None:
        """The last complete round before this one: movement is counted from the standings after it."""
        return self.number - 1 if self.number > 1 else None

    @property
    def key(self) -> str:
        """A short text that changes whenever the stage does (for caches and the live page's version)."""
        return f"{'live' if self.live else 'final' if self.final else 'after'}{self.number}"

    @property
    def title(self) -> str:
        if not self.number:
            return _("Standings")
        if self.live:
            return _("Live standings, round %(number)d") % {"number": self.number}
        if self.final:
            return _("Final standings")
        return _("Standings after round %(number)d") % {"number": self.number}


def stage_of(rounds, finished: bool = False) -> Stage:
    """The stage from the event's rounds as ``(number, status, published)``: the latest started round decides;
    the standings are final when the event is ``finished`` and no round is in play."""
    started = [(number, status) for number, status, published in rounds if published and status != RoundStatus.SEATED]
    if not started:
        return Stage()
    number, status = max(started)
    live = status == RoundStatus.IN_PLAY
    return Stage(number, live=live, final=finished and not live)


def standings_stage(event: Event) -> Stage:
    """The event's stage, read with one query (the event's status as read with it)."""
    finished = event.status == EventStatus.FINISHED
    return stage_of(event.rounds.values_list("number", "status", "published"), finished)


def stage_after(event: Event, number: int, last: int) -> Stage:
    """The stage of the standings after round ``number`` of rounds up to ``last``: final when it is the last round
    of a finished event."""
    return Stage(number, final=event.status == EventStatus.FINISHED and number == last)
