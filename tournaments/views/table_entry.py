"""The table's own pages, reached from the QR code: enter, check and confirm the sheets, no account needed."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_POST

from ..devices import device_id
from ..entry.manche_page import (
    chosen_seat,
    confirm_posted,
    dispute_posted,
    manche_context,
    page_context,
    posted_values,
    redraw,
    redraw_requested,
    render_checks,
    render_manche,
    save_posted_sheet,
)
from ..entry.routes import table_route
from ..models import Manche, Table
from ..models.sheets import Via
from ..services.sheets import Author
from ..services.tables import closed_reason, published_table, seat_names

#: What a table link answers when nobody has said who is entering or confirming.
SAY_WHO = gettext_noop("Say who you are: choose your seat.")


def table_for(token: str) -> Table:
    """The table whose link this is, once its round is published; 404 otherwise."""
    table = published_table(token)
    if table is None:
        raise Http404
    return table


def link_author(request, table: Table, seat: int | None) -> Author:
    """Whoever holds the table link: the seat they say they are, on this browser."""
    return Author(via=Via.LINK, seat=seat, device=device_id(request))


def table_page(request, token: str):
    table = table_for(token)
    return render(request, "tournaments/table/entry.html", page_context(request, table, table_route(table)))


@require_POST
def choose_seat(request, token: str):
    """Remember who this phone is ("I am ...") for the table, as soon as it is chosen."""
    table = table_for(token)
    seat = chosen_seat(request, table)
    if seat is not None:
        request.session[f"seat-{table.pk}"] = seat
    if request.htmx:
        return HttpResponse(status=204)
    return redirect(table_route(table).page())


@require_POST
def save_manche(request, token: str, number: int):
    table = table_for(token)
    route = table_route(table)
    if redraw_requested(request):
        return redraw(request, table, number, route=route)
    players = seat_names(table)
    closed = closed_reason(table)
    if closed:
        manche = get_object_or_404(Manche, table=table, number=number)
        context = manche_context(table, manche, players, notice=_(closed), route=route)
        return render_manche(request, context, status=403)
    seat = chosen_seat(request, table)
    if seat is None:
        manche = get_object_or_404(Manche, table=table, number=number)
        errors = {"seat": [_(SAY_WHO)]}
        values = posted_values(request, table)
        context = manche_context(
            table, manche, players, values=values, errors=errors, seat_error=_(SAY_WHO), route=route
        )
        return render_manche(request, context, 400)
    request.session[f"seat-{table.pk}"] = seat
    return save_posted_sheet(request, table, number, link_author(request, table, seat), route=route)


@require_POST
def confirm_manche(request, token: str, number: int):
    table = table_for(token)
    seat = chosen_seat(request, table)
    if seat is None:
        manche = get_object_or_404(Manche, table=table, number=number)
        context = manche_context(table, manche, notice=_(SAY_WHO), seat_error=_(SAY_WHO), route=table_route(table))
        return render_manche(request, context, 400)
    request.session[f"seat-{table.pk}"] = seat
    return confirm_posted(request, table, number, link_author(request, table, seat), route=table_route(table))


@require_POST
def dispute_manche(request, token: str, number: int):
    table = table_for(token)
    author = link_author(request, table, chosen_seat(request, table))
    return dispute_posted(request, table, number, author, route=table_route(table))


@require_POST
def check_manche(request, token: str, number: int):
    table = table_for(token)
    return render_checks(request, table, number, route=table_route(table))


urlpatterns = [
    path("t/<str:token>/", table_page, name="table"),
    path("t/<str:token>/seat/", choose_seat, name="table_seat"),
    path("t/<str:token>/manches/<int:number>/", save_manche, name="table_save"),
    path("t/<str:token>/manches/<int:number>/confirm/", confirm_manche, name="table_confirm"),
    path("t/<str:token>/manches/<int:number>/dispute/", dispute_manche, name="table_dispute"),
    path("t/<str:token>/manches/<int:number>/check/", check_manche, name="table_check"),
]
