"""Where the event's standings stand: after which complete round, or live during which round."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from ..models import Event
from ..models.rounds import RoundStatus


@dataclass(frozen=True)
class Stage:
    """The round the standings are after (``live``: the round being played); ``number`` 0 before any round starts."""

    number: int = 0
    live: bool = False

    @property
    def baseline(self) -> int | None:
        """The last complete round before this one: movement is counted from the standings after it."""
        return self.number - 1 if self.number > 1 else None

    @property
    def key(self) -> str:
        """A short text that changes whenever the stage does (for caches and the live page's version)."""
        return f"{'live' if self.live else 'after'}{self.number}"

    @property
    def title(self) -> str:
        if not self.number:
            return _("Standings")
        if self.live:
            return _("Live standings, round %(number)d") % {"number": self.number}
        return _("Standings after round %(number)d") % {"number": self.number}


def stage_of(rounds) -> Stage:
    """The stage from the event's rounds as ``(number, status, published)``: the latest started round decides."""
    started = [(number, status) for number, status, published in rounds if published and status != RoundStatus.SEATED]
    if not started:
        return Stage()
    number, status = max(started)
    return Stage(number, live=status == RoundStatus.IN_PLAY)


def standings_stage(event: Event) -> Stage:
    """The event's stage, read with one query."""
    return stage_of(event.rounds.values_list("number", "status", "published"))
