"""A player's own link: their page for the event, and their tables' sheets entered or confirmed as themselves."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..devices import device_id
from ..entry.manche_page import (
    confirm_posted,
    dispute_posted,
    manche_context,
    page_context,
    redraw,
    redraw_requested,
    render_checks,
    render_manche,
    save_posted_sheet,
)
from ..entry.routes import player_route
from ..models import Manche, Player, Seat
from ..models.sheets import Via
from ..services.player_links import overview, player_by_token, published_seat
from ..services.sheets import Author
from ..services.tables import closed_reason


def player_for(token: str) -> Player:
    player = player_by_token(token)
    if player is None:
        raise Http404
    return player


def seat_for(token: str, table_id: int) -> Seat:
    """The player's seat at that table in a published round; 404 for any other table."""
    seat = published_seat(player_for(token), table_id)
    if seat is None:
        raise Http404
    return seat


def player_author(request, seat: Seat) -> Author:
    return Author(via=Via.PLAYER, player=seat.player, seat=seat.position, device=device_id(request))


def player_home(request, token: str):
    player = player_for(token)
    context = {"event": player.event, "player": player, "overview": overview(player)}
    return render(request, "tournaments/player_link/home.html", context)


def player_table(request, token: str, table_id: int):
    seat = seat_for(token, table_id)
    context = page_context(request, seat.table, player_route(seat.player, seat.table))
    return render(request, "tournaments/table/entry.html", context)


@require_POST
def player_table_save(request, token: str, table_id: int, number: int):
    seat = seat_for(token, table_id)
    table, route = seat.table, player_route(seat.player, seat.table)
    if redraw_requested(request):
        return redraw(request, table, number, route=route)
    closed = closed_reason(table)
    if closed:
        manche = get_object_or_404(Manche, table=table, number=number)
        context = manche_context(table, manche, notice=_(closed), route=route)
        return render_manche(request, context, status=403)
    return save_posted_sheet(request, table, number, player_author(request, seat), route=route)


@require_POST
def player_table_confirm(request, token: str, table_id: int, number: int):
    seat = seat_for(token, table_id)
    route = player_route(seat.player, seat.table)
    return confirm_posted(request, seat.table, number, player_author(request, seat), route=route)


@require_POST
def player_table_dispute(request, token: str, table_id: int, number: int):
    seat = seat_for(token, table_id)
    route = player_route(seat.player, seat.table)
    return dispute_posted(request, seat.table, number, player_author(request, seat), route=route)


@require_POST
def player_table_check(request, token: str, table_id: int, number: int):
    seat = seat_for(token, table_id)
    return render_checks(request, seat.table, number, route=player_route(seat.player, seat.table))


TABLE = "p/<str:token>/tables/<int:table_id>/"

urlpatterns = [
    path("p/<str:token>/", player_home, name="player_link"),
    path(TABLE, player_table, name="player_table"),
    path(TABLE + "manches/<int:number>/", player_table_save, name="player_table_save"),
    path(TABLE + "manches/<int:number>/confirm/", player_table_confirm, name="player_table_confirm"),
    path(TABLE + "manches/<int:number>/dispute/", player_table_dispute, name="player_table_dispute"),
    path(TABLE + "manches/<int:number>/check/", player_table_check, name="player_table_check"),
]
