"""Organiser pages: seating the next round, and a round's page with its life cycle (swap, publish, start,
complete and the ways back). A step that cannot be silently undone has a confirmation page: its GET shows
what will happen and changes nothing, the POST from that page does it."""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Count, Prefetch, Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from ..access import organiser_event
from ..forms.rounds import SeatRoundForm, SwapSeatsForm
from ..models import Round, Seat, Table
from ..models.event import EventStatus, SeatingMethod
from ..models.rounds import RoundStatus
from ..models.sheets import Via
from ..services import round_end
from ..services import rounds as services
from ..services.audit import organiser_author
from ..services.seat_preview import preview_lines, seat_preview, seating_drift
from ..services.seating import SeatingRefused

ROUND_TARGET = "round-body"


def round_of(event, number: int) -> Round:
    """The round with its tables, their seats in order with players, and how many sheets each has."""
    seats = Seat.objects.select_related("player").order_by("position")
    tables = Table.objects.order_by("number").annotate(
        sheets=Count("manches", filter=Q(manches__result__isnull=False)),
        confirmed=Count("manches", filter=Q(manches__confirmed_at__isnull=False)),
        on_phone=Count("manches", filter=Q(manches__confirmed_at__isnull=False, manches__confirmed_via=Via.LINK)),
        manche_count=Count("manches"),
    )
    queryset = Round.objects.prefetch_related(
        Prefetch("tables", queryset=tables.prefetch_related(Prefetch("seats", queryset=seats)))
    )
    round_ = get_object_or_404(queryset, event=event, number=number)
    round_.event = event
    return round_


def seats_of(round_: Round) -> list[Seat]:
    return [seat for table in round_.tables.all() for seat in table.seats.all()]


def round_context(event, round_: Round, swap_form: SwapSeatsForm | None = None) -> dict:
    can_swap = services.can_swap(round_)
    if can_swap and swap_form is None:
        swap_form = SwapSeatsForm(seats=seats_of(round_))
    sheets = any(table.sheets for table in round_.tables.all())
    last = round_.status != RoundStatus.COMPLETE or not event.rounds.filter(number__gt=round_.number).exists()
    actions = services.round_actions(round_, sheets=sheets, last=last)
    return {
        "event": event,
        "round": round_,
        "swap_form": swap_form if can_swap else None,
        "actions": actions,
        "drift": seating_drift(round_, seats_of(round_)) if round_.status == RoundStatus.SEATED else [],
        "can_complete": round_.status == RoundStatus.IN_PLAY,
        "method_label": method_label(round_.seating_method),
    }


def method_label(method: str) -> str:
    return SeatingMethod(method).label if method in SeatingMethod else ""


def render_round(request, event, round_: Round, swap_form: SwapSeatsForm | None = None, status: int = 200):
    """The round page, or only its body for an HTMX request aimed at it."""
    context = round_context(event, round_, swap_form)
    if request.htmx and request.htmx.target == ROUND_TARGET:
        return render(request, "tournaments/organiser/_round.html", context, status=status)
    return render(request, "tournaments/organiser/round.html", context, status=status)


def round_page(request, slug: str, number: int):
    event = organiser_event(request, slug)
    return render_round(request, event, round_of(event, number))


def confirmation(request, event, *, title, label, action, back, lines=(), warnings=(), refusal=None, form=None):
    """The page that shows what a step will do before the organiser confirms it; it changes nothing."""
    context = {
        "event": event,
        "title": title,
        "label": label,
        "action": action,
        "back": back,
        "lines": lines,
        "warnings": warnings,
        "refusal": refusal,
        "form": form,
    }
    return render(request, "tournaments/organiser/confirm_step.html", context)


@require_http_methods(["GET", "POST"])
def round_seat(request, slug: str):
    """Seat the event's next round: the desk's form (or a GET) shows who will be seated; its confirmation seats."""
    event = organiser_event(request, slug)
    desk = redirect("tournaments:event_manage", slug=event.slug)
    refusal = services.seat_refusal(event)
    if refusal:
        messages.error(request, refusal)
        return desk
    number = event.rounds.count() + 1
    initial = {"method": services.next_round_method(event, number - 1)}
    form = SeatRoundForm(request.POST or None, initial=initial)
    if form.is_bound and not form.is_valid():
        messages.error(request, _("Choose a seating method: random, swiss or mixer."))
        return desk
    if form.is_bound and "confirm" in request.POST:
        try:
            new_round = services.seat_round(event, form.cleaned_data["method"], organiser_author(request))
        except SeatingRefused as refusal:
            messages.error(request, str(refusal))
            return desk
        messages.success(request, _("Round %(number)d is seated.") % {"number": new_round.number})
        return redirect("tournaments:round", slug=event.slug, number=new_round.number)
    preview = seat_preview(event, number)
    lines = preview_lines(preview, event)
    return confirmation(
        request,
        event,
        title=_("Seat round %(number)d") % {"number": number},
        label=_("Seat round %(number)d") % {"number": number},
        action=reverse("tournaments:round_seat", args=[event.slug]),
        back=reverse("tournaments:event_manage", args=[event.slug]),
        lines=lines if preview.can_seat else [],
        refusal=None if preview.can_seat else lines[0],
        form=form,
    )


@require_POST
def round_swap(request, slug: str, number: int):
    """Two players of a seated, unpublished round exchange table and position."""
    event = organiser_event(request, slug)
    round_ = round_of(event, number)
    seats = seats_of(round_)
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


def run_step(request, event, number: int, step, done: str, **options):
    """Run ``step`` on the round, then back to its page with what happened (warnings as warnings)."""
    round_ = get_object_or_404(Round, event=event, number=number)
    round_.event = event
    try:
        result = step(round_, author=organiser_author(request), **options)
    except (services.RoundRefused, SeatingRefused) as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(request, done % {"number": number})
        for warning in result if isinstance(result, list) else []:
            messages.warning(request, warning)
    return redirect("tournaments:round", slug=event.slug, number=number)


def confirm_step(request, event, round_: Round, name: str, **page):
    """The confirmation page of step ``name`` of the round."""
    number = {"number": round_.number}
    return confirmation(
        request,
        event,
        title=STEP_TITLES[name] % number,
        label=STEP_LABELS[name],
        action=reverse(f"tournaments:round_{name}", args=[event.slug, round_.number]),
        back=reverse("tournaments:round", args=[event.slug, round_.number]),
        **page,
    )


STEP_TITLES = {
    "publish": gettext_lazy("Publish the seating of round %(number)d"),
    "reseat": gettext_lazy("Seat round %(number)d again"),
    "complete": gettext_lazy("Complete round %(number)d"),
    "reopen": gettext_lazy("Reopen round %(number)d"),
}
STEP_LABELS = {
    "publish": gettext_lazy("Publish the seating"),
    "reseat": gettext_lazy("Re-seat the round"),
    "complete": gettext_lazy("Complete the round"),
    "reopen": gettext_lazy("Reopen the round"),
}


@require_http_methods(["GET", "POST"])
def round_publish(request, slug: str, number: int):
    event = organiser_event(request, slug)
    if request.method == "POST":
        return run_step(request, event, number, services.publish_round, _("Round %(number)d is published."))
    round_ = round_of(event, number)
    lines = [
        _(
            "The seating shows on the tournament's public page and the tables' links open. "
            "The players enter their sheets once you start the round."
        ),
        _("You can unpublish it again while no sheet is entered."),
    ]
    warnings = seating_drift(round_, seats_of(round_)) if round_.status == RoundStatus.SEATED else []
    return confirm_step(
        request, event, round_, "publish", lines=lines, warnings=warnings, refusal=services.publish_refusal(round_)
    )


@require_POST
def round_unpublish(request, slug: str, number: int):
    event = organiser_event(request, slug)
    done = _("The seating of round %(number)d is no longer published.")
    return run_step(request, event, number, services.unpublish_round, done)


@require_http_methods(["GET", "POST"])
def round_reseat(request, slug: str, number: int):
    event = organiser_event(request, slug)
    round_ = get_object_or_404(Round, event=event, number=number)
    round_.event = event
    form = SeatRoundForm(request.POST or None, initial={"method": round_.seating_method or event.seating_method})
    if request.method == "POST":
        method = form.cleaned_data["method"] if form.is_valid() else None
        done = _("Round %(number)d is seated again.")
        return run_step(request, event, number, services.reseat_round, done, method=method)
    preview = seat_preview(event, number)
    lines = [
        *preview_lines(preview, event),
        _("The new draw replaces the current one: seats swapped by hand are lost and the tables get new links."),
    ]
    refusal = services.reseat_refusal(round_) or (None if preview.can_seat else lines[0])
    return confirm_step(request, event, round_, "reseat", lines=lines, refusal=refusal, form=form)


@require_POST
def round_start(request, slug: str, number: int):
    event = organiser_event(request, slug)
    return run_step(request, event, number, services.start_round, _("Round %(number)d is in play."))


@require_http_methods(["GET", "POST"])
def round_complete(request, slug: str, number: int):
    event = organiser_event(request, slug)
    if request.method == "POST":
        return run_step(request, event, number, round_end.complete_round, _("Round %(number)d is complete."))
    round_ = get_object_or_404(Round, event=event, number=number)
    round_.event = event
    lines = [
        _(
            "The tables close: the players can no longer change their sheets. "
            "You can still correct a sheet at its table's page, or reopen the round."
        )
    ]
    refusal = round_end.completion_refusal(round_)
    warnings = [] if refusal else round_end.completion_warnings(round_)
    return confirm_step(request, event, round_, "complete", lines=lines, warnings=warnings, refusal=refusal)


@require_http_methods(["GET", "POST"])
def round_reopen(request, slug: str, number: int):
    event = organiser_event(request, slug)
    if request.method == "POST":
        done = _("Round %(number)d is open again: its tables take corrections.")
        return run_step(request, event, number, round_end.reopen_round, done)
    round_ = get_object_or_404(Round, event=event, number=number)
    round_.event = event
    lines = [
        _(
            "The round is back in play: its tables take corrections again through their links, "
            "and the standings are rebuilt. Complete it again once the corrections are in."
        )
    ]
    if event.status == EventStatus.FINISHED:
        lines.append(_("The tournament counts as running again until then."))
    return confirm_step(request, event, round_, "reopen", lines=lines, refusal=round_end.reopen_refusal(round_))


ROUND = "e/<slug:slug>/organiser/rounds/<int:number>/"

urlpatterns = [
    path("e/<slug:slug>/organiser/rounds/seat/", round_seat, name="round_seat"),
    path(ROUND, round_page, name="round"),
    path(ROUND + "swap/", round_swap, name="round_swap"),
    path(ROUND + "publish/", round_publish, name="round_publish"),
    path(ROUND + "unpublish/", round_unpublish, name="round_unpublish"),
    path(ROUND + "reseat/", round_reseat, name="round_reseat"),
    path(ROUND + "start/", round_start, name="round_start"),
    path(ROUND + "complete/", round_complete, name="round_complete"),
    path(ROUND + "reopen/", round_reopen, name="round_reopen"),
]
