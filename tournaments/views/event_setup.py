"""Organiser pages: creating and editing an event, and the event's desk."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext as _

from ..access import organiser_event
from ..forms.event import EventForm
from ..forms.rounds import SeatRoundForm
from ..live_polls import poll
from ..models.rounds import RoundStatus
from ..services import people
from ..services.desk_board import desk_board, desk_rounds, live_board, rounds_version
from ..services.players import player_counts
from ..services.rounds import next_round_method

GAME_FIELDS_TARGET = "game-fields"
#: The desk's live parts: the list of rounds (a part of the desk's own page, asked for by its id) and the board.
DESK_ROUNDS = "desk-rounds"
ROUNDS = "tournaments/organiser/_desk_rounds.html"
BOARD = "tournaments/organiser/_desk_board.html"


def event_form_page(request, form: EventForm, event=None):
    """The set-up form, or only its game fields when HTMX asks after a change of game."""
    if request.htmx and request.htmx.target == GAME_FIELDS_TARGET:
        return render(request, "tournaments/organiser/_game_fields.html", {"form": form, "event": event})
    return render(request, "tournaments/organiser/event_form.html", {"form": form, "event": event})


@login_required
def event_new(request):
    if request.method == "POST" and "refresh_game" not in request.POST:
        form = EventForm(request.POST, user=request.user)
        if form.is_valid():
            with transaction.atomic():
                event = form.save()
                event.organisers.add(request.user)
            messages.success(request, _("The tournament “%(name)s” is set up.") % {"name": event.name})
            return redirect("tournaments:event_manage", slug=event.slug)
    else:
        data = request.POST if request.method == "POST" else request.GET
        form = EventForm.for_game(data.get("game", ""), data, user=request.user)
    return event_form_page(request, form)


def event_edit(request, slug: str):
    event = organiser_event(request, slug)
    if request.method == "POST" and "refresh_game" not in request.POST:
        previous_club = event.club_id
        form = EventForm(request.POST, instance=event, user=request.user)
        if form.is_valid():
            with transaction.atomic():
                form.save()
                people.club_changed(event, previous_club)
            messages.success(request, _("The tournament’s settings are saved."))
            return redirect("tournaments:event_manage", slug=event.slug)
    elif request.method == "POST" or "game" in request.GET:
        data = request.POST if request.method == "POST" else request.GET
        form = EventForm.for_game(data.get("game", ""), data, instance=event, user=request.user)
    else:
        form = EventForm(instance=event, user=request.user)
    return event_form_page(request, form, event)


def event_manage(request, slug: str):
    """The organiser's desk: the round under way as a board of its tables, the rounds, seating the next round and
    the event's settings."""
    event = organiser_event(request, slug)
    rounds = desk_rounds(event)
    board = desk_board(event, rounds, request.GET.get("state"))
    context = {"event": event, "rounds": rounds, "board": board, "rounds_version": rounds_version(rounds, board)}
    if request.htmx and request.htmx.target == DESK_ROUNDS:
        return poll(request, context["rounds_version"], lambda: render(request, ROUNDS, context))
    can_seat = all(r.status == RoundStatus.COMPLETE for r in rounds)
    context.update(
        seat_form=SeatRoundForm(initial={"method": next_round_method(event, len(rounds))}) if can_seat else None,
        next_number=len(rounds) + 1,
        player_counts=player_counts(event),
        variant_label=event.variant_label,
    )
    return render(request, "tournaments/organiser/event_manage.html", context)


def board(request, slug: str):
    """The desk's board, a live part (``live_polls``); between rounds an empty placeholder (version "") that asks
    whether a round has begun."""
    event = organiser_event(request, slug)
    found = live_board(event, request.GET.get("state"))
    context = {"event": event, "board": found}
    return poll(request, found.version if found else "", lambda: render(request, BOARD, context))


urlpatterns = [
    path("organiser/events/new/", event_new, name="event_new"),
    path("e/<slug:slug>/organiser/", event_manage, name="event_manage"),
    path("e/<slug:slug>/organiser/edit/", event_edit, name="event_edit"),
    path("e/<slug:slug>/organiser/board/", board, name="desk_board"),
]
