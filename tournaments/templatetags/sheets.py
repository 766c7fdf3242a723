"""Template filters for showing score sheets."""

import json

from django import template

from ..services.audit import describe

register = template.Library()


@register.filter
def as_json(value) -> str:
    """A stored sheet as indented JSON, accents kept, for the audit trail."""
    return json.dumps(value, ensure_ascii=False, indent=1)


@register.simple_tag
def entered_by(manche) -> str:
    """Who entered the manche's current sheet."""
    return describe(
        manche.entered_via,
        user=manche.entered_by,
        player=manche.entered_player,
        seat=manche.entered_seat,
        device=manche.entered_device,
    )


@register.simple_tag
def confirmed_by(manche) -> str:
    """Who confirmed the manche's current sheet."""
    return describe(
        manche.confirmed_via,
        user=manche.confirmed_by,
        player=manche.confirmed_player,
        seat=manche.confirmed_seat,
        device=manche.confirmed_device,
    )


@register.simple_tag
def changed_by(revision) -> str:
    """Who made one change of the audit trail (a sheet revision or another action)."""
    return describe(
        revision.via, user=revision.user, player=revision.player, seat=revision.seat, device=revision.device
    )
