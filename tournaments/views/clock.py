"""The round clock: the desk sets, starts, pauses and adds time; the projector, tables and players see time left."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.views.decorators.http import require_POST

from ..access import can_run, organiser_event, visible_event
from ..forms.clock import ClockForm
from ..live_polls import poll
from ..models import Event, Round
from ..services.audit import organiser_author
from ..services.clock import ClockRefused, change_clock
from ..services.clock_display import EVENT_POLL, TABLE_POLL, clock_display, current_round, desk_clock
from ..services.public_clock import public_clock_round
from ..services.tables import player_at_table, published_table


def clock_fragment(request, round_: Round | None, url: str, every: int):
    """The clock, a live part (``live_polls``) whose version is its state: its seconds run in the browser."""
    clock = clock_display(round_)
    context = {"clock": clock, "clock_url": url, "clock_poll": every}
    return poll(request, clock.version, lambda: render(request, "tournaments/_clock.html", context))


def asked_by_the_desk(request, event: Event) -> bool:
    """Whether one of the event's organiser pages (the desk) polls the clock, for someone who runs the event."""
    page = urlsplit(request.htmx.current_url or "").path if request.htmx else ""
    return page.startswith(reverse("tournaments:event_manage", args=[event.slug])) and can_run(request.user, event)


def event_clock(request, slug: str):
    """The clock of the event's round under way: the desk sees it before the round is published; the projector and
    everyone else see the latest published round's."""
    event = visible_event(request, slug)
    round_ = current_round(event) if asked_by_the_desk(request, event) else public_clock_round(event)
    return clock_fragment(request, round_, reverse("tournaments:event_clock", args=[slug]), EVENT_POLL)


def table_clock(request, token: str):
    at = published_table(token)
    if at is None:
        raise Http404
    return clock_fragment(request, at.round, reverse("tournaments:table_clock", args=[token]), TABLE_POLL)


def player_clock(request, token: str, table_id: int):
    """The clock of the round of one of the player's tables."""
    found = player_at_table(token, table_id)
    if found is None:
        raise Http404
    url = reverse("tournaments:player_clock", args=[token, table_id])
    return clock_fragment(request, found[0].round, url, TABLE_POLL)


@require_POST
def round_clock(request, slug: str, number: int):
    """One change to the round's clock, recorded in the audit trail; for HTMX the desk's clock section again."""
    event = organiser_event(request, slug)
    round_ = get_object_or_404(Round, event=event, number=number)
    form = ClockForm(request.POST)
    problem = ""
    if form.is_valid():
        try:
            change_clock(round_, form.cleaned_data["action"], organiser_author(request), form.amount)
        except ClockRefused as refused:
            problem = str(refused)
    else:
        problem = form.problem()
    if not request.htmx:
        if problem:
            messages.error(request, problem)
        return redirect("tournaments:event_manage", slug=event.slug)
    context = {"event": event, **desk_clock(round_), "clock_problem": problem}
    return render(request, "tournaments/organiser/_desk_clock.html", context, status=400 if problem else 200)


urlpatterns = [
    path("e/<slug:slug>/clock/", event_clock, name="event_clock"),
    path("t/<str:token>/clock/", table_clock, name="table_clock"),
    path("p/<str:token>/tables/<int:table_id>/clock/", player_clock, name="player_clock"),
    path("e/<slug:slug>/organiser/rounds/<int:number>/clock/", round_clock, name="round_clock"),
]
