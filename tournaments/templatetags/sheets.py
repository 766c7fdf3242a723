"""Template filters for showing score sheets."""

import json

from django import template

from ..services.audit import confirmed_through, describe, entered_through

register = template.Library()


@register.filter
def as_json(value) -> str:
    """A stored sheet as indented JSON, accents kept, for the audit trail."""
    return json.dumps(value, ensure_ascii=False, indent=1)


@register.simple_tag
def entered_by(manche) -> str:
    """Who entered the manche's current sheet."""
    return entered_through(manche)


@register.simple_tag
def confirmed_by(manche) -> str:
    """Who confirmed the manche's current sheet."""
    return confirmed_through(manche)


@register.simple_tag
def changed_by(revision) -> str:
    """Who made one change of the audit trail (a sheet revision or another action)."""
    return describe(
        revision.via, user=revision.user, player=revision.player, seat=revision.seat, device=revision.device
    )
