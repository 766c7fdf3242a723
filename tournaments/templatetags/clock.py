"""The round clock on a page: the projector's, a table's or a player's, and the desk's controls."""

from __future__ import annotations

from django import template
from django.urls import reverse

from ..services.clock_display import EVENT_POLL, TABLE_POLL, clock_display, current_of, current_round, desk_clock
from ..services.public_clock import public_clock_round

register = template.Library()


def read_rounds(rounds) -> list | None:
    """The page's rounds as a list; None when the page has none to give (a missing variable reads as "")."""
    return None if rounds is None or isinstance(rounds, str) else list(rounds)


@register.inclusion_tag("tournaments/_clock.html", takes_context=True)
def event_clock(context, event):
    """The clock of the event's latest published round under way (the projector's: never an unpublished round's),
    or a placeholder that shows it once it is set."""
    return {
        "clock": clock_display(public_clock_round(event)),
        "clock_url": reverse("tournaments:event_clock", args=[event.slug]),
        "clock_poll": EVENT_POLL,
        "request": context.get("request"),
    }


@register.inclusion_tag("tournaments/_clock.html", takes_context=True)
def round_clock(context, round_, table, player=None):
    """The clock of ``round_``, as seen through the table's link, or through ``player``'s own link."""
    if player:  # a missing player reads as ""
        url = reverse("tournaments:player_clock", args=[player.token, table.pk])
    else:
        url = reverse("tournaments:table_clock", args=[table.token])
    return {
        "clock": clock_display(round_),
        "clock_url": url,
        "clock_poll": TABLE_POLL,
        "request": context.get("request"),
    }


@register.inclusion_tag("tournaments/organiser/_desk_clock.html", takes_context=True)
def desk_clock_section(context, event, rounds=None):
    """The desk's controls for the clock of the round under way (nothing before a round is seated); ``rounds``:
    the event's rounds in order, when the page has them."""
    rounds = read_rounds(rounds)
    round_ = current_round(event) if rounds is None else current_of(rounds)
    shared = {"event": event, "request": context.get("request"), "csrf_token": context.get("csrf_token")}
    return {**shared, **desk_clock(round_, rounds)} if round_ is not None else shared
