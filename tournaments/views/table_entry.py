"""The table's own pages, reached from the QR code: enter, check and confirm the sheets, no account needed."""

from __future__ import annotations

from functools import partial

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

import scoring

from ..entry.errors import errors_by_path
from ..entry.games import GAME_FORMS
from ..entry.layouts import FormState, layout_for
from ..entry.paths import document_from_fields, fields_from_document
from ..models import Manche, Table
from ..models.rounds import RoundStatus
from ..security import table_by_token
from ..services.sheets import Author, ConfirmationRefused, StaleSheet, confirm_sheet, dispute_sheet, record_sheet


def table_for(token: str) -> Table:
    """The table whose scorer link this is, once its round is published."""
    table = table_by_token(token, Table.objects.select_related("round__event"))
    if table is None or not table.round.published:
        raise Http404
    return table


def seat_names(table: Table) -> list[str]:
    return [seat.player.name for seat in table.seats.select_related("player").order_by("position")]


def chosen_seat(request, table: Table) -> int | None:
    """The seat the phone says it is ("I am ..."), remembered for this table."""
    value = request.POST.get("seat") or request.session.get(f"seat-{table.pk}")
    try:
        seat = int(value)
    except (TypeError, ValueError):
        return None
    return seat if table.seats.filter(position=seat).exists() else None


def manche_context(
    table: Table,
    manche: Manche,
    players: list[str] | None = None,
    *,
    values=None,
    errors=None,
    notice="",
    stale=None,
    seat=None,
    organiser=False,
):
    """Everything ``_manche.html`` shows for one manche."""
    event = table.round.event
    players = players if players is not None else seat_names(table)
    saved = fields_from_document(
        {k: v for k, v in (manche.document or {}).items() if k in GAME_FORMS[event.game].roots}
    )
    state = FormState(players, saved if values is None else values, errors or {}, event)
    result = manche.result["players"] if manche.result else None
    return {
        "urls": entry_urls(table, manche.number, organiser),
        "table": table,
        "event": event,
        "manche": manche,
        "layout": layout_for(event.game, state),
        "errors": errors or {},
        "seat": seat,
        "result": result,
        "teams": (manche.result or {}).get("teams"),
        "players": players,
        "notice": notice,
        "stale": stale,
        "editable": organiser or can_edit(table),
        "organiser": organiser,
    }


def entry_urls(table: Table, number: int, organiser: bool) -> dict[str, str]:
    """Where a manche's forms post: through the table link, or through the organiser's desk."""
    if organiser:
        args = [table.round.event.slug, table.pk, number]
        names = {"save": "desk_table_save", "check": "desk_table_check", "confirm": "", "dispute": ""}
    else:
        args = [table.token, number]
        names = {"save": "table_save", "check": "table_check", "confirm": "table_confirm", "dispute": "table_dispute"}
    return {key: reverse(f"tournaments:{name}", args=args) if name else "" for key, name in names.items()}


def can_edit(table: Table) -> bool:
    return not table.locked and table.round.status != RoundStatus.COMPLETE


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


def render_manche(request, context: dict, status: int = 200) -> HttpResponse:
    context.setdefault("seat", None)
    context["seat"] = context["seat"] or chosen_seat(request, context["table"])
    if request.htmx:
        return render(request, "tournaments/table/_manche.html", context, status=status)
    table = context["table"]
    players = context["players"]
    manches = [
        context if m.pk == context["manche"].pk else manche_context(table, m, players)
        for m in table.manches.order_by("number")
    ]
    page = {"table": table, "event": table.round.event, "players": players, "manches": manches}
    page["seat"] = chosen_seat(request, table)
    return render(request, "tournaments/table/entry.html", page, status=status)


def posted_values(request, game: str) -> dict[str, str]:
    """What was typed in the form's sheet fields, to show again as it was."""
    roots = GAME_FORMS[game].roots
    return {k: v for k, v in request.POST.items() if k.split("[")[0].split(".")[0] in roots}


def save_posted_sheet(request, table: Table, number: int, author: Author, *, organiser: bool = False):
    """Record the posted sheet of manche ``number``; re-render it with errors, or the other change when stale."""
    manche = get_object_or_404(Manche, table=table, number=number)
    players = seat_names(table)
    event = table.round.event
    values = posted_values(request, event.game)
    form = GAME_FORMS[event.game]
    part = form.normalise(document_from_fields(request.POST.items(), form.roots))
    document = {"game": event.game, "variant": event.effective_variant, "players": players, **part}
    try:
        based_on = int(request.POST.get("version", ""))
    except ValueError:
        based_on = -1
    context = partial(manche_context, table, players=players, values=values, organiser=organiser)
    try:
        manche = record_sheet(manche, document, based_on=based_on, author=author)
    except scoring.ScoreSheetError as error:
        return render_manche(request, context(manche, errors=errors_by_path(error.problems)), status=400)
    except StaleSheet as stale:
        notice = _("Someone else saved this manche meanwhile. Their sheet is shown below yours: check and save again.")
        return render_manche(request, context(stale.current, notice=notice, stale=stale.current), status=409)
    if not request.htmx:
        return redirect(request.path.rsplit("/manches/", 1)[0] + f"/#manche-{number}")
    notice = _("Saved. Another player now confirms it.") if event.confirmation_required else _("Saved.")
    return render_manche(request, manche_context(table, manche, players, notice=notice, organiser=organiser))


def redraw_requested(request, table: Table) -> bool:
    """True when the post only asks to draw the form again (an entry mode switch)."""
    return any(key in request.POST for key in GAME_FORMS[table.round.event.game].redraw)


def redraw(request, table: Table, number: int, *, organiser: bool = False):
    manche = get_object_or_404(Manche, table=table, number=number)
    values = posted_values(request, table.round.event.game)
    return render_manche(request, manche_context(table, manche, values=values, organiser=organiser))


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
        values = posted_values(request, table.round.event.game)
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
            manche = confirm_sheet(manche, seat=seat, version=int(request.POST.get("version", "-1")))
            notice = _("Confirmed. Thank you!")
        except ConfirmationRefused as refused:
            notice, status = _(str(refused)), 403
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


def render_checks(request, table: Table, number: int, *, organiser: bool = False):
    """The check cells re-drawn as the numbers are typed (nothing is saved)."""
    manche = get_object_or_404(Manche, table=table, number=number)
    values = posted_values(request, table.round.event.game)
    context = manche_context(table, manche, values=values, organiser=organiser)
    return render(request, "tournaments/table/_manche_checks.html", context)


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
