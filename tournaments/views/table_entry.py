"""The table's own pages, reached from the QR code: enter, check and confirm the sheets, no account needed."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_POST

from ..devices import remember_seat
from ..errors import LinkNotFound, Reason
from ..pages.manche_page import (
    chosen_seat,
    closed_page,
    confirm_posted,
    dispute_posted,
    door_author,
    found_manche,
    manche_context,
    page_context,
    posted_values,
    redraw,
    redraw_requested,
    render_checks,
    render_manche,
    save_posted_sheet,
)
from ..pages.routes import table_route
from ..services.tables import TableAtHand, published_table

#: What a table link answers when nobody has said who is entering or confirming.
SAY_WHO = gettext_noop("Say who you are: choose your seat.")


def table_for(token: str) -> TableAtHand:
    """The table whose link this is, once its round is published; 404 otherwise (the sheet was probably reprinted)."""
    at = published_table(token)
    if at is None:
        raise LinkNotFound(Reason.TABLE_LINK)
    return at


def say_who(request, at: TableAtHand, number: int, **shown) -> HttpResponse:
    """The manche again, asking who is entering or confirming (400)."""
    context = manche_context(at, found_manche(at, number), seat_error=_(SAY_WHO), route=table_route(at.table), **shown)
    return render_manche(request, at, context, 400)


def table_page(request, token: str):
    at = table_for(token)
    return render(request, "tournaments/table/entry.html", page_context(request, at, table_route(at.table)))


@require_POST
def choose_seat(request, token: str):
    """Remember who this phone is ("I am ...") for the table, as soon as it is chosen."""
    at = table_for(token)
    seat = chosen_seat(request, at)
    if seat is not None:
        remember_seat(request, at.table.pk, seat)
    if request.htmx:
        return HttpResponse(status=204)
    return redirect(table_route(at.table).page())


@require_POST
def save_manche(request, token: str, number: int):
    at = table_for(token)
    route = table_route(at.table)
    if redraw_requested(request):
        return redraw(request, at, number, route=route)
    closed = at.closed_reason()
    if closed:
        return closed_page(request, at, number, closed, route=route)
    seat = chosen_seat(request, at)
    if seat is None:
        return say_who(request, at, number, values=posted_values(request, at), errors={"seat": [_(SAY_WHO)]})
    remember_seat(request, at.table.pk, seat)
    return save_posted_sheet(request, at, number, door_author(request, at, route), route=route)


@require_POST
def confirm_manche(request, token: str, number: int):
    at = table_for(token)
    seat = chosen_seat(request, at)
    if seat is None:
        return say_who(request, at, number, notice=_(SAY_WHO))
    remember_seat(request, at.table.pk, seat)
    route = table_route(at.table)
    return confirm_posted(request, at, number, door_author(request, at, route), route=route)


@require_POST
def dispute_manche(request, token: str, number: int):
    at = table_for(token)
    route = table_route(at.table)
    return dispute_posted(request, at, number, door_author(request, at, route), route=route)


@require_POST
def check_manche(request, token: str, number: int):
    at = table_for(token)
    return render_checks(request, at, number, route=table_route(at.table))


urlpatterns = [
    path("t/<str:token>/", table_page, name="table"),
    path("t/<str:token>/seat/", choose_seat, name="table_seat"),
    path("t/<str:token>/manches/<int:number>/", save_manche, name="table_save"),
    path("t/<str:token>/manches/<int:number>/confirm/", confirm_manche, name="table_confirm"),
    path("t/<str:token>/manches/<int:number>/dispute/", dispute_manche, name="table_dispute"),
    path("t/<str:token>/manches/<int:number>/check/", check_manche, name="table_check"),
]
