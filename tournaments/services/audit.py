"""Who did what: each action of the audit trail is recorded with its author."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from ..devices import device_id
from ..models import AuditEntry
from ..models.audit import Action
from ..models.sheets import Via


@dataclass(frozen=True)
class Author:
    """Who makes a change: the door it came through (``Via``), and the account, player, seat and device behind it.

    A table link names a seat only because its user says so; a player link names its player; the device is
    the browser's signed id (``tournaments.devices``), or the API's marker for a table's API token.
    """

    via: str
    user: object | None = None
    seat: int | None = None
    player: object | None = None
    device: str = ""

    @property
    def is_organiser(self) -> bool:
        return self.via in (Via.ORGANISER, Via.ADMIN, Via.PAPER)


def record(
    event,
    action: Action,
    author: Author,
    *,
    round=None,
    table=None,
    manche=None,
    subject=None,
    version=None,
    details=None,
):
    """Add one entry to the event's audit trail; ``details`` holds what changed (e.g. a player's old and new name)."""
    return AuditEntry.objects.create(
        event=event,
        round=round,
        table=table,
        manche=manche,
        subject=subject,
        action=action,
        via=author.via,
        user=author.user if getattr(author.user, "is_authenticated", False) else None,
        player=author.player,
        seat=author.seat,
        device=author.device,
        version=version,
        details=details or {},
    )


def describe(via: str, *, user=None, player=None, seat=None, device: str = "") -> str:
    """Who stood behind a change, in words: "player link: Ada", "table link, seat 2, device 3fA9x1"."""
    parts = [str(Via(via).label) if via in Via.values else via]
    if user is not None:
        parts.append(user.get_username())
    if player is not None:
        parts.append(player.name)
    elif seat:
        parts.append(_("seat %(seat)d") % {"seat": seat})
    if device and via in (Via.LINK, Via.PLAYER):
        parts.append(_("device %(device)s") % {"device": device[:6]})
    return " · ".join(str(part) for part in parts if part)


def entered_through(manche) -> str:
    """Who entered the manche's current sheet, in words."""
    return describe(
        manche.entered_via,
        user=manche.entered_by,
        player=manche.entered_player,
        seat=manche.entered_seat,
        device=manche.entered_device,
    )


def confirmed_through(manche) -> str:
    """Who confirmed the manche's current sheet, in words; honour mode's confirmations say they are not verified."""
    words = describe(
        manche.confirmed_via,
        user=manche.confirmed_by,
        player=manche.confirmed_player,
        seat=manche.confirmed_seat,
        device=manche.confirmed_device,
    )
    if manche.confirmed_on_phone:
        return f"{words} ({_('on a second phone, not verified')})"
    return words


def organiser_author(request) -> Author:
    """The logged-in organiser at this browser, as the author of a change."""
    return Author(via=Via.ORGANISER, user=request.user, device=device_id(request))
