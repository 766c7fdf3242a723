"""The desk's alerts and the address its printouts use, drawn by the desk page itself."""

from __future__ import annotations

from django import template

from ..public_address import candidates, public_address
from ..public_address import public_link as link_for
from ..services.alerts import desk_alerts as find_alerts
from .clock import read_rounds

register = template.Library()


@register.simple_tag
def desk_alerts(event, rounds=None):
    """The event's desk alerts, found once per page (the title and the page body both show them); ``rounds``: the
    event's rounds in order with their tables, when the page has them."""
    if getattr(event, "_desk_alerts", None) is None:
        event._desk_alerts = find_alerts(event, read_rounds(rounds))
    return event._desk_alerts


@register.inclusion_tag("tournaments/organiser/_desk_address.html", takes_context=True)
def desk_address(context, event):
    """Where QR codes and printed links lead; a warning, with the laptop's network addresses, if phones cannot."""
    request = context["request"]
    address = public_address(request, event)
    return {
        "event": event,
        "address": address,
        "candidates": candidates(request) if address.loopback else [],
        "csrf_token": context.get("csrf_token"),
        "request": request,
    }


@register.simple_tag(takes_context=True)
def public_link(context, event, path: str) -> str:
    """``path`` as phones open it: what QR codes and printed links carry."""
    return link_for(context["request"], event, path)
