"""Who may run an event (staff, or the organisers the event names) and who may see its pages; who may run a club."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from .models import Club, Event, Season


def can_run(user, event: Event) -> bool:
    return user.is_authenticated and (user.is_staff or event.organisers.filter(pk=user.pk).exists())


def can_see(user, event: Event) -> bool:
    """Whether ``user`` may see the event's pages: anyone when they are public, else only who runs it."""
    return event.public or can_run(user, event)


def visible_event(request, slug: str) -> Event:
    """The event ``slug`` if the visitor may see it; 404 otherwise, so a private event does not show it exists."""
    event = get_object_or_404(Event.objects.select_related("club"), slug=slug)
    if not can_see(request.user, event):
        raise Http404
    return event


def organiser_event(request, slug: str) -> Event:
    """The event ``slug`` if the logged-in user runs it; login redirect, or 403 (404 for a private event)."""
    event = get_object_or_404(Event.objects.select_related("club"), slug=slug)
    if not request.user.is_authenticated:
        raise LoginRequired(request.get_full_path())
    if not can_run(request.user, event):
        if not event.public:
            raise Http404
        raise PermissionDenied
    return event


def can_run_club(user, club: Club) -> bool:
    return user.is_authenticated and (user.is_staff or club.organisers.filter(pk=user.pk).exists())


def clubs_of(user):
    """The clubs an organiser runs: every club for staff, else those naming the user."""
    return Club.objects.all() if user.is_staff else Club.objects.filter(organisers=user)


def organiser_club(request, slug: str) -> Club:
    """The club ``slug`` if the logged-in user runs it; login redirect, or 404 (a club's pages are its own)."""
    if not request.user.is_authenticated:
        raise LoginRequired(request.get_full_path())
    club = get_object_or_404(Club, slug=slug)
    if not can_run_club(request.user, club):
        raise Http404
    return club


def season_is_public(season: Season) -> bool:
    """A season's ladder is public when it counts tournaments and every one of them is public."""
    return season.events.exists() and not season.events.filter(public=False).exists()


def season_access(request, slug: str, season_id: int) -> tuple[Season, bool, bool]:
    """The season, whether the visitor runs its club and whether its ladder is public; 404 when neither."""
    season = get_object_or_404(Season.objects.select_related("club"), club__slug=slug, pk=season_id)
    runs, public = can_run_club(request.user, season.club), season_is_public(season)
    if not (runs or public):
        raise Http404
    return season, runs, public


def visible_season(request, slug: str, season_id: int) -> Season:
    """The season, for its club's organisers, and for anyone when its ladder is public; else 404."""
    return season_access(request, slug, season_id)[0]


class LoginRequired(Exception):
    """Raised by ``organiser_event`` for an anonymous visitor; ``OrganiserLoginMiddleware`` makes it a redirect."""

    def __init__(self, path: str):
        super().__init__(path)
        self.path = path


class OrganiserLoginMiddleware:
    """Turns LoginRequired into the login redirect, so views can ask for their event in one line.

    (Django's own ``LoginRequiredMiddleware`` guards every view by default; this one only answers the exception.)
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, LoginRequired):
            return redirect_to_login(exception.path)
        return None
