"""Organiser pages: seating the next round, and a round's page with its swaps, publishing, start and end."""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Count, Prefetch, Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from ..access import organiser_event
from ..forms.rounds import SeatRoundForm, SwapSeatsForm
from ..models import Round, Seat, Table
from ..models.event import SeatingMethod
from ..models.rounds import RoundStatus
from ..services import rounds as services
from ..services.seating import SeatingRefused

ROUND_TARGET = "round-body"


def round_of(event, number: int) -> Round:
    """The round with its tables, their seats in order with players, and how many sheets each has."""
    seats = Seat.objects.select_related("player").order_by("position")
    tables = Table.objects.order_by("number").annotate(
        sheets=Count("manches", filter=Q(manches__result__isnull=False)),
        confirmed=Count("manches", filter=Q(manches__confirmed_at__isnull=False)),
        manche_count=Count("manches"),
    )
    queryset = Round.objects.prefetch_related(
        Prefetch("tables", queryset=tables.prefetch_related(Prefetch("seats", queryset=seats)))
    )
    round_ = get_object_or_404(queryset, event=event, number=number)
    round_.event = event
    return round_


def round_context(event, round_: Round, swap_form: SwapSeatsForm | None = None) -> dict:
    can_swap = services.can_swap(round_)
    if can_swap and swap_form is None:
        swap_form = SwapSeatsForm(seats=[seat for table in round_.tables.all() for seat in table.seats.all()])
    return {
        "event": event,
        "round": round_,
        "swap_form": swap_form if can_swap else None,
        "can_complete": round_.status == RoundStatus.IN_PLAY,
        "method_label": SeatingMethod(round_.seating_method).label if round_.seating_method in SeatingMethod else "",
    }


def render_round(request, event, round_: Round, swap_form: SwapSeatsForm | None = None, status: int = 200):
    """The round page, or only its body for an HTMX request aimed at it."""
    context = round_context(event, round_, swap_form)
    if request.htmx and request.htmx.target == ROUND_TARGET:
        return render(request, "tournaments/organiser/_round.html", context, status=status)
    return render(request, "tournaments/organiser/round.html", context, status=status)


def round_page(request, slug: str, number: int):
    event = organiser_event(request, slug)
    return render_round(request, event, round_of(event, number))


@require_POST
def round_seat(request, slug: str):
    """Seat the event's next round by the chosen method."""
    event = organiser_event(request, slug)
    form = SeatRoundForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a seating method: random, swiss or mixer."))
        return redirect("tournaments:event_manage", slug=event.slug)
    try:
        new_round = services.seat_round(event, form.cleaned_data["method"])
    except SeatingRefused as refusal:
        messages.error(request, str(refusal))
        return redirect("tournaments:event_manage", slug=event.slug)
    messages.success(request, _("Round %(number)d is seated.") % {"number": new_round.number})
    return redirect("tournaments:round", slug=event.slug, number=new_round.number)


@require_POST
def round_swap(request, slug: str, number: int):
    """Two players of a seated, unpublished round exchange table and position."""
    event = organiser_event(request, slug)
    round_ = round_of(event, number)
    seats = [seat for table in round_.tables.all() for seat in table.seats.all()]
    form = SwapSeatsForm(request.POST, seats=seats)
    valid = form.is_valid()
    if services.can_swap(round_) and not valid:
        return render_round(request, event, round_, form, status=200 if request.htmx else 422)
    try:
        services.swap_seats(round_, form.cleaned_data.get("player_a"), form.cleaned_data.get("player_b"))
    except services.RoundRefused as refusal:
        messages.error(request, str(refusal))
    else:
        names = {seat.player_id: seat.player.name for seat in seats}
        a, b = names[form.cleaned_data["player_a"]], names[form.cleaned_data["player_b"]]
        messages.success(request, _("%(a)s and %(b)s swapped seats.") % {"a": a, "b": b})
    if request.htmx:
        return render_round(request, event, round_of(event, number))
    return redirect("tournaments:round", slug=event.slug, number=number)


def round_action(action, done: str):
    """A POST-only view running ``action`` on the round, then back to its page with what happened."""

    @require_POST
    def view(request, slug: str, number: int):
        event = organiser_event(request, slug)
        round_ = get_object_or_404(Round, event=event, number=number)
        round_.event = event
        try:
            warnings = action(round_)
        except services.RoundRefused as refusal:
            messages.error(request, str(refusal))
        else:
            messages.success(request, done % {"number": number})
            for warning in warnings if isinstance(warnings, list) else []:
                messages.warning(request, warning)
        return redirect("tournaments:round", slug=event.slug, number=number)

    view.__name__ = action.__name__
    return view


round_publish = round_action(services.publish_round, gettext_lazy("Round %(number)d is published."))
round_start = round_action(services.start_round, gettext_lazy("Round %(number)d is in play."))
round_complete = round_action(services.complete_round, gettext_lazy("Round %(number)d is complete."))

urlpatterns = [
    path("e/<slug:slug>/organiser/rounds/seat/", round_seat, name="round_seat"),
    path("e/<slug:slug>/organiser/rounds/<int:number>/", round_page, name="round"),
    path("e/<slug:slug>/organiser/rounds/<int:number>/swap/", round_swap, name="round_swap"),
    path("e/<slug:slug>/organiser/rounds/<int:number>/publish/", round_publish, name="round_publish"),
    path("e/<slug:slug>/organiser/rounds/<int:number>/start/", round_start, name="round_start"),
    path("e/<slug:slug>/organiser/rounds/<int:number>/complete/", round_complete, name="round_complete"),
]
