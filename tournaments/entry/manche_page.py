"""A manche's sheet form as both the table link and the organiser's desk show it: context, save, redraw.

The table pages and the desk's table page are separate views; what they share lives here.
"""

from __future__ import annotations

from functools import partial

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

import scoring

from ..models import Manche, Table
from ..numbers import whole_number
from ..services.sheets import Author, StaleSheet, record_sheet
from ..services.tables import can_edit, seat_names
from .errors import errors_by_path
from .layouts import FormState, layout_for
from .paths import document_from_fields, fields_from_document

#: No table seats more players than this; a larger seat number is nobody.
MAX_SEAT = 99
#: More changes than one sheet ever sees; a larger version is no version.
MAX_VERSION = 2**31 - 1


def posted_version(request) -> int:
    """The sheet version a form was based on; -1 (stale for every sheet) when it sends none or nonsense."""
    version = whole_number(request.POST.get("version"), maximum=MAX_VERSION)
    return -1 if version is None else version


def chosen_seat(request, table: Table) -> int | None:
    """The seat the phone says it is ("I am ..."), remembered for this table."""
    value = request.POST.get("seat") or request.session.get(f"seat-{table.pk}")
    seat = whole_number(str(value), maximum=MAX_SEAT, minimum=1)
    return seat if seat is not None and table.seats.filter(position=seat).exists() else None


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
    game = event.game_bundle
    players = players if players is not None else seat_names(table)
    saved = fields_from_document({k: v for k, v in (manche.document or {}).items() if k in game.entry.roots})
    state = FormState(players, saved if values is None else values, errors or {}, event)
    result = manche.result["players"] if manche.result else None
    return {
        "urls": entry_urls(table, manche.number, organiser),
        "table": table,
        "event": event,
        "manche": manche,
        "title": game.manche_title(manche.number),
        "layout": layout_for(game.entry, state),
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


def page_url(table: Table, organiser: bool) -> str:
    """The page listing the table's manches: its link's page, or the organiser's."""
    if organiser:
        return reverse("tournaments:desk_table", args=[table.round.event.slug, table.pk])
    return reverse("tournaments:table", args=[table.token])


def render_manche(request, context: dict, status: int = 200) -> HttpResponse:
    """The manche alone for HTMX, else the whole table page with this manche as ``context`` shows it."""
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


def posted_values(request, table: Table) -> dict[str, str]:
    """What was typed in the form's sheet fields, to show again as it was."""
    roots = table.round.event.game_bundle.entry.roots
    return {k: v for k, v in request.POST.items() if k.split("[")[0].split(".")[0] in roots}


def save_posted_sheet(request, table: Table, number: int, author: Author, *, organiser: bool = False):
    """Record the posted sheet of manche ``number``; re-render it with errors, or the other change when stale."""
    manche = get_object_or_404(Manche, table=table, number=number)
    players = seat_names(table)
    event = table.round.event
    values = posted_values(request, table)
    form = event.game_bundle.entry
    part = form.normalise(document_from_fields(request.POST.items(), form.roots))
    document = {"game": event.game, "variant": event.effective_variant, "players": players, **part}
    based_on = posted_version(request)
    context = partial(manche_context, table, players=players, values=values, organiser=organiser)
    try:
        manche = record_sheet(manche, document, based_on=based_on, author=author)
    except scoring.ScoreSheetError as error:
        return render_manche(request, context(manche, errors=errors_by_path(error.problems)), status=400)
    except StaleSheet as stale:
        notice = _("Someone else saved this manche meanwhile. Their sheet is shown below yours: check and save again.")
        return render_manche(request, context(stale.current, notice=notice, stale=stale.current), status=409)
    if not request.htmx:
        return redirect(f"{page_url(table, organiser)}#manche-{number}")
    notice = _("Saved. Another player now confirms it.") if event.confirmation_required else _("Saved.")
    return render_manche(request, manche_context(table, manche, players, notice=notice, organiser=organiser))


def redraw_requested(request, table: Table) -> bool:
    """True when the post only asks to draw the form again (an entry mode switch)."""
    return any(key in request.POST for key in table.round.event.game_bundle.entry.redraw)


def redraw(request, table: Table, number: int, *, organiser: bool = False):
    manche = get_object_or_404(Manche, table=table, number=number)
    values = posted_values(request, table)
    return render_manche(request, manche_context(table, manche, values=values, organiser=organiser))


def render_checks(request, table: Table, number: int, *, organiser: bool = False):
    """The check cells re-drawn as the numbers are typed (nothing is saved)."""
    manche = get_object_or_404(Manche, table=table, number=number)
    values = posted_values(request, table)
    context = manche_context(table, manche, values=values, organiser=organiser)
    return render(request, "tournaments/table/_manche_checks.html", context)
