"""The organiser's view of one table: enter or correct its sheets, its audit trail, lock, new link, disputes."""

from __future__ import annotations

from django.contrib import messages
from django.db.models import BooleanField, ExpressionWrapper, Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from ..access import organiser_event
from ..models import AuditEntry, SheetRevision, Table
from ..models.audit import Action
from ..models.rounds import TableStatus
from ..pages.manche_page import (
    confirm_posted,
    page_context,
    redraw,
    redraw_requested,
    render_checks,
    save_posted_sheet,
)
from ..pages.routes import desk_route
from ..printing import qr
from ..public_address import public_link
from ..services.audit import organiser_author, record
from ..services.sheets import resolve_dispute
from ..services.tables import TableAtHand, table_by_id


def event_table(request, slug: str, table_id: int) -> Table:
    event = organiser_event(request, slug)
    return get_object_or_404(Table.objects.select_related("round__event"), round__event=event, pk=table_id)


def table_at_desk(request, slug: str, table_id: int) -> TableAtHand:
    """The event's table as the organiser works on it; 404 for a table of another event."""
    event = organiser_event(request, slug)
    at = table_by_id(table_id)
    if at is None or at.event.pk != event.pk:
        raise Http404
    return at


def desk_table(request, slug: str, table_id: int):
    at = table_at_desk(request, slug, table_id)
    table = at.table
    revisions = (
        SheetRevision.objects.filter(manche__table=table)
        .select_related("manche", "user", "player")
        .defer("paper")
        .annotate(has_paper=ExpressionWrapper(Q(paper__isnull=False), output_field=BooleanField()))
        .order_by("-changed_at", "-version")
    )
    actions = AuditEntry.objects.filter(table=table).select_related("manche", "user", "player")
    link = public_link(request, table.round.event, reverse("tournaments:table", args=[table.token]))
    context = {
        **page_context(request, at, desk_route(table)),
        "revisions": revisions,
        "actions": actions,
        "link": link,
        "link_qr": qr.svg(link, _("QR code of the table link")),
        "disputed": table.status == TableStatus.DISPUTED,
    }
    return render(request, "tournaments/table/desk.html", context)


@require_POST
def desk_table_save(request, slug: str, table_id: int, number: int):
    at = table_at_desk(request, slug, table_id)
    route = desk_route(at.table)
    if redraw_requested(request):
        return redraw(request, at, number, route=route)
    return save_posted_sheet(request, at, number, organiser_author(request), route=route)


@require_POST
def desk_table_check(request, slug: str, table_id: int, number: int):
    at = table_at_desk(request, slug, table_id)
    return render_checks(request, at, number, route=desk_route(at.table))


@require_POST
def desk_table_confirm(request, slug: str, table_id: int, number: int):
    """The organiser confirms a sheet (also once the table is locked or the round complete)."""
    at = table_at_desk(request, slug, table_id)
    return confirm_posted(request, at, number, organiser_author(request), route=desk_route(at.table))


@require_POST
def desk_table_lock(request, slug: str, table_id: int):
    table = event_table(request, slug, table_id)
    table.locked = not table.locked
    table.save(update_fields=["locked"])
    record(table.round.event, Action.LOCK if table.locked else Action.UNLOCK, organiser_author(request), table=table)
    messages.success(request, _("Table locked.") if table.locked else _("Table unlocked."))
    return redirect("tournaments:desk_table", slug, table.pk)


@require_http_methods(["GET", "POST"])
def desk_table_new_link(request, slug: str, table_id: int):
    """What a new link does, to confirm; once confirmed, the old link (and the printed QR code) stop working."""
    table = event_table(request, slug, table_id)
    event = table.round.event
    back = reverse("tournaments:desk_table", args=[slug, table.pk])
    if request.method == "POST" and "confirm" in request.POST:
        table.new_token()
        table.save(update_fields=["token"])
        record(event, Action.TABLE_LINK, organiser_author(request), table=table)
        done = _("The old table link no longer works; print this table's sheet or show its new QR code.")
        messages.success(request, done)
        return redirect(f"{back}#table-link")
    number = {"number": table.number}
    context = {
        "event": event,
        "title": _("New link for table %(number)d") % number,
        "label": _("Revoke the link and issue a new one"),
        "action": reverse("tournaments:desk_table_new_link", args=[slug, table.pk]),
        "back": back,
        "lines": [
            _(
                "Phones holding the old link of table %(number)d, and the QR code printed on its sheet, will stop "
                "working."
            )
            % number,
            _("Then reprint this table's sheet, or let the players scan the new QR code from this screen."),
        ],
    }
    return render(request, "tournaments/organiser/confirm_step.html", context)


@require_POST
def desk_table_resolve(request, slug: str, table_id: int):
    table = event_table(request, slug, table_id)
    resolve_dispute(table, organiser_author(request))
    messages.success(request, _("Dispute settled."))
    return redirect("tournaments:desk_table", slug, table.pk)


TABLE = "e/<slug:slug>/organiser/tables/<int:table_id>/"

urlpatterns = [
    path(TABLE, desk_table, name="desk_table"),
    path(TABLE + "manches/<int:number>/", desk_table_save, name="desk_table_save"),
    path(TABLE + "manches/<int:number>/check/", desk_table_check, name="desk_table_check"),
    path(TABLE + "manches/<int:number>/confirm/", desk_table_confirm, name="desk_table_confirm"),
    path(TABLE + "lock/", desk_table_lock, name="desk_table_lock"),
    path(TABLE + "new-link/", desk_table_new_link, name="desk_table_new_link"),
    path(TABLE + "resolve/", desk_table_resolve, name="desk_table_resolve"),
]
