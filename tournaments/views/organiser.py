"""The organiser's desk: pages for a logged-in organiser."""

from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.shortcuts import render
from django.urls import path

from ..collation import sort_key
from ..models import Event


def events_of(user):
    """The events an organiser runs: all of them for staff, else those naming the user."""
    events = Event.objects.all() if user.is_staff else Event.objects.filter(organisers=user)
    events = events.annotate(player_count=Count("players", distinct=True), round_count=Count("rounds", distinct=True))
    return newest_first(events)


def newest_first(events) -> list[Event]:
    """Events by date, the latest first; those of one day alphabetically (the same on every database)."""
    return sorted(events, key=lambda event: (-event.date.toordinal(), sort_key(event.name)))


@login_required
def dashboard(request):
    return render(request, "tournaments/dashboard.html", {"events": events_of(request.user)})


urlpatterns = [
    path("organiser/", dashboard, name="dashboard"),
]
