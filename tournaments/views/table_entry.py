"""The table's own pages, reached from the QR code: enter, check and confirm the sheets, no account needed."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..entry.manche_page import (
    chosen_seat,
    manche_context,
    posted_values,
    posted_version,
    redraw,
    redraw_requested,
    render_checks,
    render_manche,
    save_posted_sheet,
)
from ..models import Manche, Table
from ..services.sheets import Author, ConfirmationRefused, StaleSheet, confirm_sheet, dispute_sheet
from ..services.tables import can_edit, published_table, seat_names


def table_for(token: str) -> Table:
    """The table whose link this is, once its round is published; 404 otherwise."""
    table = published_table(token)
    if table is None:
        raise Http404
    return table


def table_page(request, token: str):
    table = table_for(token)
    players = seat_names(table)
    manches = [manche_context(table, m, players) for m in table.manches.order_by("number")]
    context = {
        "table": table,
        "event": table.round.event,
        "players": players,
        "manches": manches,
        "seat": chosen_seat(request, table),
    }
    return render(request, "tournaments/table/entry.html", context)


@require_POST
def save_manche(request, token: str, number: int):
    table = table_for(token)
    if redraw_requested(request, table):
        return redraw(request, table, number)
    players = seat_names(table)
    if not can_edit(table):
        manche = get_object_or_404(Manche, table=table, number=number)
        context = manche_context(table, manche, players, notice=_("This table is closed for changes."))
        return render_manche(request, context, status=403)
    seat = chosen_seat(request, table)
    if seat is None:
        manche = get_object_or_404(Manche, table=table, number=number)
        errors = {"seat": [_("Say who you are: choose your seat.")]}
        values = posted_values(request, table)
        return render_manche(request, manche_context(table, manche, players, values=values, errors=errors), 400)
    request.session[f"seat-{table.pk}"] = seat
    return save_posted_sheet(request, table, number, Author(via="link", seat=seat))


@require_POST
def confirm_manche(request, token: str, number: int):
    table = table_for(token)
    manche = get_object_or_404(Manche, table=table, number=number)
    players = seat_names(table)
    seat = chosen_seat(request, table)
    notice = ""
    status = 200
    if seat is None:
        notice, status = _("Say who you are: choose your seat."), 400
    else:
        request.session[f"seat-{table.pk}"] = seat
        try:
            manche = confirm_sheet(manche, seat=seat, version=posted_version(request))
            notice = _("Confirmed. Thank you!")
        except ConfirmationRefused as refused:
            notice, status = str(refused), 403
        except (StaleSheet, ValueError):
            manche.refresh_from_db()
            notice, status = _("The sheet changed since you looked at it: check it again before confirming."), 409
    if not request.htmx and status == 200:
        return redirect(reverse("tournaments:table", args=[token]) + f"#manche-{number}")
    return render_manche(request, manche_context(table, manche, players, notice=notice), status)


@require_POST
def dispute_manche(request, token: str, number: int):
    table = table_for(token)
    manche = get_object_or_404(Manche, table=table, number=number)
    dispute_sheet(manche)
    notice = _("The organiser has been told; they will come to your table.")
    table.refresh_from_db()
    return render_manche(request, manche_context(table, manche, seat_names(table), notice=notice))


@require_POST
def check_manche(request, token: str, number: int):
    return render_checks(request, table_for(token), number)


urlpatterns = [
    path("t/<str:token>/", table_page, name="table"),
    path("t/<str:token>/manches/<int:number>/", save_manche, name="table_save"),
    path("t/<str:token>/manches/<int:number>/confirm/", confirm_manche, name="table_confirm"),
    path("t/<str:token>/manches/<int:number>/dispute/", dispute_manche, name="table_dispute"),
    path("t/<str:token>/manches/<int:number>/check/", check_manche, name="table_check"),
]
