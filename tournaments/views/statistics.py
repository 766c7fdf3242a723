"""An event's statistics page: standings movement, scores per round and the game's own story, as plots."""

from __future__ import annotations

from django.shortcuts import render
from django.urls import path

from ..access import visible_event
from ..services.statistics import event_plots


def event_statistics(request, slug: str):
    event = visible_event(request, slug)
    return render(request, "tournaments/statistics.html", {"event": event, "plots": event_plots(event)})


urlpatterns = [path("e/<slug:slug>/statistics/", event_statistics, name="statistics")]
