"""A player's own link: their page for the event, and their tables' sheets entered or confirmed as themselves."""

from __future__ import annotations

from django.shortcuts import render
from django.urls import path
from django.views.decorators.http import require_POST

from ..errors import LinkNotFound, Reason
from ..models import Player, Seat
from ..pages.manche_page import (
    closed_page,
    confirm_posted,
    dispute_posted,
    door_author,
    page_context,
    redraw,
    redraw_requested,
    render_checks,
    save_posted_sheet,
)
from ..pages.routes import player_route
from ..services.player_links import overview, player_by_token
from ..services.tables import TableAtHand, player_at_table


def player_for(token: str) -> Player:
    player = player_by_token(token)
    if player is None:
        raise LinkNotFound(Reason.PLAYER_LINK)
    return player


def seat_for(token: str, table_id: int) -> tuple[TableAtHand, Seat]:
    """The table and the player's seat at it, in a published round; 404 for any other table, saying whether the
    link itself is still good."""
    found = player_at_table(token, table_id)
    if found is None:
        player_for(token)
        raise LinkNotFound(Reason.NOT_AT_TABLE, player_token=token)
    return found


def player_home(request, token: str):
    player = player_for(token)
    context = {"event": player.event, "player": player, "overview": overview(player, own_link=True)}
    return render(request, "tournaments/player_link/home.html", context)


def player_table(request, token: str, table_id: int):
    at, seat = seat_for(token, table_id)
    context = page_context(request, at, player_route(seat.player, at.table))
    return render(request, "tournaments/table/entry.html", context)


@require_POST
def player_table_save(request, token: str, table_id: int, number: int):
    at, seat = seat_for(token, table_id)
    route = player_route(seat.player, at.table)
    if redraw_requested(request):
        return redraw(request, at, number, route=route)
    closed = at.closed_reason()
    if closed:
        return closed_page(request, at, number, closed, route=route)
    return save_posted_sheet(request, at, number, door_author(request, at, route), route=route)


@require_POST
def player_table_confirm(request, token: str, table_id: int, number: int):
    at, seat = seat_for(token, table_id)
    route = player_route(seat.player, at.table)
    return confirm_posted(request, at, number, door_author(request, at, route), route=route)


@require_POST
def player_table_dispute(request, token: str, table_id: int, number: int):
    at, seat = seat_for(token, table_id)
    route = player_route(seat.player, at.table)
    return dispute_posted(request, at, number, door_author(request, at, route), route=route)


@require_POST
def player_table_check(request, token: str, table_id: int, number: int):
    at, seat = seat_for(token, table_id)
    return render_checks(request, at, number, route=player_route(seat.player, at.table))


TABLE = "p/<str:token>/tables/<int:table_id>/"

urlpatterns = [
    path("p/<str:token>/", player_home, name="player_link"),
    path(TABLE, player_table, name="player_table"),
    path(TABLE + "manches/<int:number>/", player_table_save, name="player_table_save"),
    path(TABLE + "manches/<int:number>/confirm/", player_table_confirm, name="player_table_confirm"),
    path(TABLE + "manches/<int:number>/dispute/", player_table_dispute, name="player_table_dispute"),
    path(TABLE + "manches/<int:number>/check/", player_table_check, name="player_table_check"),
]
