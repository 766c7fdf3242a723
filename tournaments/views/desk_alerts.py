"""The desk's alerts: disputes and tables still empty late in the round, asked for every 3 seconds (the partial
says how often)."""

from __future__ import annotations

from django.shortcuts import render
from django.urls import path

from ..access import organiser_event
from ..live_polls import poll
from ..services.alerts import desk_alerts


def alerts(request, slug: str):
    """The alerts partial, a live part (``live_polls``), with the page's title (its count) for HTMX."""
    event = organiser_event(request, slug)
    found = desk_alerts(event)
    context = {"event": event, "alerts": found}
    return poll(request, found.version, lambda: render(request, "tournaments/organiser/_desk_alerts.html", context))


urlpatterns = [
    path("e/<slug:slug>/organiser/alerts/", alerts, name="desk_alerts"),
]
