"""A manche's sheet form as the table link, a player's link and the organiser's desk show it: context, save, redraw.

The table pages and the desk's table page are separate views; what they share lives here. Each function takes the
table as the view read it (``TableAtHand``) and reads nothing of it again.
"""

from __future__ import annotations

import re
from functools import partial

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

import scoring
from scoring.errors import Problems
from scoring.values import read_int

from .. import games
from ..devices import device_id, remembered_seat
from ..entry.layouts import FormState, layout_for
from ..entry.paths import document_from_fields, fields_from_document
from ..entry.paths import typed as typed_number
from ..games.problems import errors_by_path
from ..models import Manche
from ..models.event import Confirmation
from ..models.rounds import DISPUTE_REASON_MAX, TableStatus
from ..models.sheets import Via
from ..numbers import whole_number
from ..services.delivery import delivery_from
from ..services.sheets import (
    ENTERED_IT,
    AlreadyReceived,
    Author,
    ConfirmationRefused,
    InvalidReason,
    NoSuchManche,
    StaleSheet,
    TableClosed,
    closed_message,
    confirm_sheet,
    dispute_sheet,
    disputed_message,
    received_already,
    record_table_sheet,
    refusal_reason,
    with_event_fields,
)
from ..services.tables import CLOSED, NOT_STARTED, TableAtHand
from .round_totals import round_totals
from .routes import EntryRoute

#: No table seats more players than this; a larger seat number is nobody.
MAX_SEAT = 99
#: More changes than one sheet ever sees; a larger version is no version.
MAX_VERSION = 2**31 - 1
#: The index at the end of a path to an item of a list (``...sizes[1]``).
LIST_ITEM = re.compile(r"\[\d+\]$")
#: Posted by a switch between ways of entering (counts or a grid...): draw the form again, save nothing.
REDRAW = "redraw"


def posted_version(request) -> int:
    """The sheet version a form was based on; -1 (stale for every sheet) when it sends none or nonsense."""
    version = whole_number(request.POST.get("version"), maximum=MAX_VERSION)
    return -1 if version is None else version


def chosen_seat(request, at: TableAtHand) -> int | None:
    """The seat the phone says it is ("I am ..."), posted or remembered for this table; None for nobody's seat."""
    value = request.POST.get("seat") or remembered_seat(request, at.table.pk)
    seat = whole_number(str(value), maximum=MAX_SEAT, minimum=1)
    return seat if at.seat_at(seat) is not None else None


def found_manche(at: TableAtHand, number: int) -> Manche:
    manche = at.manche(number)
    if manche is None:
        raise Http404
    return manche


def table_state(at: TableAtHand, route: EntryRoute) -> dict:
    """What every manche of the page, and its header, say about the table as a whole: locked (or its round
    complete) and disputed, in words for the phones or for the desk."""
    disputed = at.table.status == TableStatus.DISPUTED
    closed = None if route.organiser else at.closed_reason()
    notices = []
    if closed == CLOSED:
        notices.append({"kind": "locked", "text": closed_message(at)})
    if disputed and route.organiser:
        reason = at.table.dispute_reason or _("no reason given")
        text = _("Disputed: %(reason)s. Correcting or confirming a sheet here settles it, as does “Dispute settled”.")
        notices.append({"kind": "disputed", "text": text % {"reason": reason}})
    elif disputed:
        notices.append({"kind": "disputed", "text": disputed_message(at.table)})
    return {
        "table_notices": notices,
        "disputed": disputed,
        "closed_text": closed_message(at) if closed == CLOSED else _(closed) if closed else "",
    }


def manche_context(
    at: TableAtHand,
    manche: Manche,
    *,
    values=None,
    errors=None,
    notice="",
    notice_error=False,
    stale=None,
    seat_error="",
    opened=False,
    kept=False,
    dispute_error="",
    dispute_reason="",
    route: EntryRoute,
):
    """Everything ``_manche.html`` shows for one manche. ``kept``: the table closed as ``values`` were saved; they
    are shown as typed, read only, for the organiser to see."""
    event = at.event
    game = event.game_bundle
    players = at.names
    saved = fields_from_document({k: v for k, v in (manche.document or {}).items() if k in game.entry.roots})
    state = FormState(players, saved if values is None else values, errors or {}, event)
    result = manche.result["players"] if manche.result else None
    closed = None if route.organiser else at.closed_reason()
    if closed == NOT_STARTED and not notice:
        notice = _(closed)
    return {
        "urls": route.urls(manche.number),
        "table": at.table,
        "event": event,
        "manche": manche,
        "title": game.manche_title(manche.number),
        "layout": layout_for(game.entry, state),
        "errors": errors or {},
        "seat_error": seat_error,
        "result": result,
        "teams": (manche.result or {}).get("teams"),
        "players": players,
        "notice": notice,
        "notice_error": notice_error,
        "stale": stale,
        "editable": not closed,
        "kept": bool(kept and closed and values),
        "dispute_error": dispute_error,
        "dispute_reason": dispute_reason,
        "reason_max": DISPUTE_REASON_MAX,
        **table_state(at, route),
        "refused": any(path != "seat" for path in errors or {}),
        # An entered sheet shows its result first, its form folded away until someone corrects it (or just saved it).
        "folded": bool(manche.document) and values is None and not errors and not stale and not opened,
        "organiser": route.organiser,
        "route": route,
        "me": route.player,
    }


def manche_status(manche: Manche) -> str:
    """Where one manche's sheet stands, in the words of a table's status: empty, entered or confirmed."""
    if manche.confirmed_at:
        return TableStatus.CONFIRMED
    return TableStatus.ENTERED if manche.document else TableStatus.EMPTY


def manche_nav(at: TableAtHand) -> list[dict]:
    """The table's manches as links with their status, when there is more than one to move between."""
    manches = at.read_manches()
    if len(manches) < 2:
        return []
    game = at.event.game_bundle
    statuses = [TableStatus(manche_status(m)) for m in manches]
    return [
        {"number": m.number, "title": game.manche_title(m.number), "status": status, "label": status.label}
        for m, status in zip(manches, statuses, strict=True)
    ]


def door_author(request, at: TableAtHand, route: EntryRoute) -> Author:
    """Who posts through a players' door on this browser: the player of a player's link, in their seat, or
    whoever holds the table link as the seat they say they are (posted, or remembered for the table)."""
    device = device_id(request)
    if route.player is not None:
        seat = next((seat.position for seat in at.seats if seat.player_id == route.player.pk), None)
        return Author(via=Via.PLAYER, player=route.player, seat=seat, device=device)
    return Author(via=Via.LINK, seat=chosen_seat(request, at), device=device)


def confirm_elsewhere(context: dict, author: Author) -> str:
    """Why ``author`` would be refused if they confirmed the sheet shown, by the rule the confirmation follows
    (``refusal_reason``): said in place of the button, so nobody presses it for nothing. The one who entered the
    sheet is told that it waits for another player. Empty when they may confirm."""
    manche = context["manche"]
    if context["organiser"] or not manche.document:
        return ""
    reason = refusal_reason(manche, author, context["event"].confirmation)
    if reason in ENTERED_IT:
        return _("Waiting for another player at the table to confirm.")
    return _(reason) if reason else ""


def page_context(request, at: TableAtHand, route: EntryRoute, current: dict | None = None) -> dict:
    """The whole table page: every manche's form (``current`` in place of its own), the manche links, who I am."""
    manches = at.read_manches(people=route.organiser)
    contexts = [
        current if current and m.pk == current["manche"].pk else manche_context(at, m, route=route) for m in manches
    ]
    author = door_author(request, at, route)
    for context in contexts:
        context["confirm_elsewhere"] = confirm_elsewhere(context, author)
    return {
        "table": at.table,
        "event": at.event,
        "players": at.names,
        "manches": contexts,
        "route": route,
        "nav": manche_nav(at),
        "round_totals": round_totals(at, manches),
        "seat": chosen_seat(request, at) if route.kind == "link" else None,
        "seat_error": current.get("seat_error", "") if current else "",
        "me": route.player,
        "reason_max": DISPUTE_REASON_MAX,
        **table_state(at, route),
    }


def render_manche(request, at: TableAtHand, context: dict, status: int = 200) -> HttpResponse:
    """The manche alone for HTMX (with the page's status, manche links and "I am" brought up to date), else the
    whole table page with this manche as ``context`` shows it."""
    route = context["route"]
    if not request.htmx:
        return render(request, "tournaments/table/entry.html", page_context(request, at, route, context), status=status)
    context["nav"] = manche_nav(at)
    context["round_totals"] = round_totals(at)
    context["next"] = next((item for item in context["nav"] if item["number"] > context["manche"].number), None)
    if route.kind == "link":
        context["seat"] = chosen_seat(request, at)
    context["confirm_elsewhere"] = confirm_elsewhere(context, door_author(request, at, route))
    return render(request, "tournaments/table/_manche_response.html", context, status=status)


def posted_values(request, at: TableAtHand) -> dict[str, str]:
    """What was typed in the form's sheet fields, to show again as it was."""
    roots = at.event.game_bundle.entry.roots
    return {k: v for k, v in request.POST.items() if k.split("[")[0].split(".")[0] in roots}


def closed_page(request, at: TableAtHand, number: int, reason: str, *, route: EntryRoute) -> HttpResponse:
    """The manche again with why the table takes no change now (403), and what was typed kept on screen; a save
    sent again whose first sending was stored before the table closed is answered as saved."""
    notice = closed_message(at) if reason == CLOSED else _(reason)
    if received_already(at, number, delivery_from(request.POST)):
        context = manche_context(at, found_manche(at, number), notice=" ".join([_("Saved."), notice]), route=route)
        return render_manche(request, at, context)
    values = posted_values(request, at) or None
    if values:
        notice = " ".join([notice, _("Not saved: what you typed is kept below, to show the organiser.")])
    context = manche_context(at, found_manche(at, number), values=values, notice=notice, kept=True, route=route)
    return render_manche(request, at, context, 403)


def posted_document(request, at: TableAtHand) -> dict:
    """The sheet the posted form makes, as a save records it."""
    event = at.event
    form = event.game_bundle.entry
    part = form.normalise(document_from_fields(request.POST.items(), form.roots))
    return {"game": event.game, "variant": event.effective_variant, "players": at.names, **part}


def save_posted_sheet(request, at: TableAtHand, number: int, author: Author, *, route: EntryRoute):
    """Record the posted sheet of manche ``number``; re-render it with errors, or the other change when stale."""
    event = at.event
    values = posted_values(request, at)
    document = posted_document(request, at)
    context = partial(manche_context, at, values=values, route=route)
    try:
        based_on, only_while_open = posted_version(request), not route.organiser
        manche = record_table_sheet(
            at,
            number,
            document,
            based_on=based_on,
            author=author,
            only_while_open=only_while_open,
            delivery=delivery_from(request.POST),
        )
    except AlreadyReceived as received:
        manche = received.current
    except NoSuchManche as missing:
        raise Http404 from missing
    except TableClosed as closed:
        return closed_page(request, at, number, closed.reason, route=route)
    except scoring.ScoreSheetError as error:
        return render_manche(request, at, context(found_manche(at, number), errors=errors_by_path(error.problems)), 400)
    except StaleSheet as stale:
        notice = _(
            "Someone else saved this manche meanwhile: their sheet is shown first, yours below it. Save yours again "
            "to replace theirs, or keep theirs."
        )
        return render_manche(request, at, context(stale.current, notice=notice, stale=stale.current), status=409)
    if not request.htmx:
        return redirect(f"{route.page()}#manche-{number}")
    notice = saved_notice(event, route)
    return render_manche(request, at, manche_context(at, manche, notice=notice, opened=True, route=route))


def saved_notice(event, route: EntryRoute) -> str:
    """What a save answers: saved, and who confirms it now."""
    if not event.confirmation_required:
        return _("Saved.")
    if event.confirmation == Confirmation.PLAYER_LINK and not route.organiser:
        return _("Saved. Another player now confirms it with their own player card.")
    return _("Saved. Another player now confirms it.")


def redraw_requested(request) -> bool:
    """True when the post only asks to draw the form again (a switch between ways of entering)."""
    return REDRAW in request.POST


def redraw(request, at: TableAtHand, number: int, *, route: EntryRoute):
    """The form drawn again in the way of entering just chosen, what was typed carried over where it maps."""
    manche = found_manche(at, number)
    state = FormState(at.names, posted_values(request, at), {}, at.event)
    values = at.event.game_bundle.entry.carry_over(state)
    return render_manche(request, at, manche_context(at, manche, values=values, route=route))


def render_checks(request, at: TableAtHand, number: int, *, route: EntryRoute):
    """The check cells re-drawn as the numbers are typed, or the whole form after a switch (nothing is saved).

    Both count among the live checks, not the saves, of a link's rate limits.
    """
    if redraw_requested(request):
        return redraw(request, at, number, route=route)
    values = posted_values(request, at)
    errors = live_errors(at, posted_document(request, at), values)
    context = manche_context(at, found_manche(at, number), values=values, errors=errors, route=route)
    return render(request, "tournaments/table/_manche_checks.html", {**context, "oob": True})


def typed_path(path: str, typed: set[str]) -> bool:
    """Whether ``path`` is a field typed in, or an item of the list typed in one (``sizes[1]`` of ``sizes``)."""
    return path in typed or LIST_ITEM.sub("", path) in typed


def live_errors(at: TableAtHand, document: dict, values: dict[str, str]) -> dict[str, list[str]]:
    """What a save would refuse among the fields typed so far, blanks left alone: the rules' own check of the
    sheet (``games.check``, as a save runs it), and, for a number whose row is not complete yet for the rules to
    read, the bounds its field takes (``read_int``, the rules' reader of a number). Each message names its field, as
    the live check shows it apart from the field."""
    typed = {name for name, value in values.items() if value.strip()}
    errors: dict[str, list[str]] = {}
    try:
        games.check(with_event_fields(at.event, document))
    except scoring.ScoreSheetError as error:
        found = errors_by_path(error.problems)
        errors = {path: messages for path, messages in found.items() if typed_path(path, typed)}
    layout = layout_for(at.event.game_bundle.entry, FormState(at.names, values, {}, at.event))
    rows = {cell.name: row.label for row in layout.rows for cell in row.cells}
    problems = Problems()
    for cell in (cell for row in layout.rows for cell in row.cells):
        number = typed_number(values.get(cell.name, ""))
        if cell.kind == "number" and number is not None and cell.name not in errors:
            read_int(number, cell.name, problems, minimum=cell.minimum, maximum=cell.maximum)
    found = {**errors_by_path(problems.items), **errors}
    return {path: [named(rows.get(path, ""), message) for message in messages] for path, messages in found.items()}


def named(label: str, message: str) -> str:
    """``message`` about a field, led by the field's ``label`` unless it names the field already."""
    return message if not label or message.startswith(label) else f"{label}: {message}"


def confirm_posted(request, at: TableAtHand, number: int, author: Author, *, route: EntryRoute):
    """Confirm manche ``number`` as ``author`` at the posted version; the manche again, with why if refused (as an
    error, the button no longer offered)."""
    manche = found_manche(at, number)
    notice, status = _("Confirmed. Thank you!"), 200
    try:
        manche = confirm_sheet(manche, version=posted_version(request), author=author, at=at)
    except ConfirmationRefused as refused:
        notice, status = str(refused), 403
    except StaleSheet as stale:
        manche = stale.current
        notice, status = _("The sheet changed since you looked at it: check it again before confirming."), 409
    if not request.htmx and status == 200:
        return redirect(f"{route.page()}#manche-{number}")
    current = at.manche(number) or manche
    context = manche_context(at, current, notice=notice, notice_error=status != 200, route=route)
    context["confirm_refused"] = status == 403
    return render_manche(request, at, context, status)


def dispute_posted(request, at: TableAtHand, number: int, author: Author, *, route: EntryRoute):
    """Tell the organiser something is wrong with manche ``number``; refused once the table is closed."""
    manche = found_manche(at, number)
    reason = request.POST.get("reason", "")
    notice, status = _("The organiser has been told; they will come to your table."), 200
    try:
        manche = dispute_sheet(manche, author, at=at, reason=reason)
    except ConfirmationRefused as refused:
        notice, status = str(refused), 403
    except InvalidReason as invalid:
        shown = reason[: DISPUTE_REASON_MAX * 2]
        context = manche_context(at, manche, dispute_error=str(invalid), dispute_reason=shown, route=route)
        return render_manche(request, at, context, 400)
    context = manche_context(at, at.manche(number) or manche, notice=notice, notice_error=status != 200, route=route)
    return render_manche(request, at, context, status)
