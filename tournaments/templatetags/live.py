"""A live part's attributes, the same for every part that keeps up to date (``tournaments.live_polls``)."""

from __future__ import annotations

from django import template
from django.utils.html import format_html

from ..live_polls import poll_address

register = template.Library()
register.simple_tag(poll_address, name="poll_address")


@register.simple_tag
def live_poll(url: str, version: str, seconds: int, then: str = "", **params: object) -> str:
    """``hx-get`` of ``url`` with the ``version`` shown and ``params``, every ``seconds`` and at each ``then``
    event; the answer replaces the part."""
    trigger = f"every {seconds}s" + (f", {then}" if then else "")
    return format_html('hx-get="{}" hx-trigger="{}" hx-swap="outerHTML"', poll_address(url, version, **params), trigger)
