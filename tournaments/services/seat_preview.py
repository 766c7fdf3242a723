"""What a draw will do before the organiser confirms it: who is seated at how many tables and who is left out; and
for a round already drawn, who checked in or left since."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..collation import sort_key
from ..models import Event, Round, Seat
from .seating import chosen, min_table_size, table_sizes


@dataclass
class SeatPreview:
    """The players a draw of round ``number`` seats and those it leaves out, by name, and the tables' sizes."""

    number: int
    seated: list[str]
    not_checked_in: list[str] = field(default_factory=list)
    dropped: int = 0
    newcomers: list[str] = field(default_factory=list)
    check_in_used: bool = False
    sizes: list[int] | None = None

    @property
    def can_seat(self) -> bool:
        return bool(self.seated) and self.sizes is not None


def players_of(event: Event) -> list[tuple[int, str, bool, bool]]:
    """The event's players as (id, name, active, checked in), alphabetically by name."""
    rows = event.players.values_list("pk", "name", "active", "checked_in")
    return sorted(rows, key=lambda row: (sort_key(row[1]), row[0]))


def to_seat(players: list[tuple[int, str, bool, bool]]) -> set[int]:
    return chosen([(pk, active, checked_in) for pk, _name, active, checked_in in players])


def seat_preview(event: Event, number: int) -> SeatPreview:
    """Who a draw of round ``number`` would seat now, from the active players and their check-in."""
    players = players_of(event)
    picked = to_seat(players)
    earlier = Seat.objects.filter(round__event=event, round__number__lt=number).order_by()
    before = set(earlier.values_list("player_id", flat=True))
    seated = [name for pk, name, *_ in players if pk in picked]
    return SeatPreview(
        number=number,
        seated=seated,
        not_checked_in=[name for pk, name, active, _checked in players if active and pk not in picked],
        dropped=sum(1 for _pk, _name, active, _checked in players if not active),
        newcomers=[name for pk, name, *_ in players if pk in picked and pk not in before] if number > 1 else [],
        check_in_used=any(active and checked_in for _pk, _name, active, checked_in in players),
        sizes=table_sizes(event, len(seated)),
    )


def joined(names: list[str]) -> str:
    return ", ".join(names)


def preview_lines(preview: SeatPreview, event: Event) -> list[str]:
    """The preview in sentences, for the page the organiser confirms the draw on."""
    count = len(preview.seated)
    if not count:
        return [_("There is no active player to seat.")]
    if preview.check_in_used:
        players = ngettext("%(count)d checked-in player", "%(count)d checked-in players", count) % {"count": count}
    else:
        players = ngettext("%(count)d active player", "%(count)d active players", count) % {"count": count}
    if preview.sizes is None:
        sentence = _("%(players)s cannot be seated at tables of %(size)d with at least %(minimum)d players a table.")
        return [sentence % {"players": players, "size": event.table_size, "minimum": min_table_size(event)}]
    tables = len(preview.sizes)
    counts = {"players": players, "tables": ngettext("%(count)d table", "%(count)d tables", tables) % {"count": tables}}
    if not preview.check_in_used:
        lines = [_("Nobody is checked in: all %(players)s will be seated at %(tables)s.") % counts]
    elif preview.not_checked_in:
        left = {"left": len(preview.not_checked_in), "names": joined(preview.not_checked_in)}
        lines = [
            _("%(players)s will be seated at %(tables)s; left out: %(left)d not checked in: %(names)s.")
            % {**counts, **left}
        ]
    else:
        lines = [_("%(players)s will be seated at %(tables)s.") % counts]
    if preview.newcomers:
        lines.append(_("Joining for the first time: %(names)s.") % {"names": joined(preview.newcomers)})
    if preview.dropped:
        dropped = ngettext(
            "%(count)d dropped player is not seated.", "%(count)d dropped players are not seated.", preview.dropped
        )
        lines.append(dropped % {"count": preview.dropped})
    return lines


def seating_drift(round_: Round, seats: list[Seat]) -> list[str]:
    """Warnings when the players to seat changed since ``round_`` was drawn; ``seats`` are its seats, with players."""
    players = players_of(round_.event)
    picked = to_seat(players)
    seated = {seat.player_id for seat in seats}
    missing = [name for pk, name, *_ in players if pk in picked and pk not in seated]
    gone = [name for pk, name, *_ in players if pk in seated and pk not in picked]
    warnings = []
    if missing:
        warnings.append(_("Not in this draw, though they would be seated now: %(names)s.") % {"names": joined(missing)})
    if gone:
        warnings.append(_("In this draw, though dropped or not checked in now: %(names)s.") % {"names": joined(gone)})
    return warnings
