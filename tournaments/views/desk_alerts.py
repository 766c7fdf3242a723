"""The desk's alerts: disputes and tables still empty late in the round, asked for every 3 seconds (the partial
says how often)."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.urls import path

from ..access import organiser_event
from ..services.alerts import desk_alerts


def alerts(request, slug: str):
    """The alerts partial, with the page's title (its count) for HTMX; 204 when nothing changed since ``v``."""
    event = organiser_event(request, slug)
    found = desk_alerts(event)
    if request.GET.get("v") == found.version:
        return HttpResponse(status=204)
    context = {"event": event, "alerts": found}
    return render(request, "tournaments/organiser/_desk_alerts.html", context)


urlpatterns = [
    path("e/<slug:slug>/organiser/alerts/", alerts, name="desk_alerts"),
]
