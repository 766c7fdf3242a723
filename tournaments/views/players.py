"""Organiser pages: the players of an event, adding and importing them, checking them in, dropping them."""

from __future__ import annotations

from django.contrib import messages
from django.core import signing
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, trigger_client_event

from ..access import organiser_event
from ..csv_export import csv_response
from ..forms.players import ImportForm, PlayerEditForm, PlayerForm, duplicate_name
from ..models import AuditEntry, Event, Player
from ..models.audit import Action
from ..numbers import record_id
from ..services import players as service
from ..services.audit import organiser_author, record
from ..spreadsheets import xlsx_response

SHOW_CHOICES = ("in", "out", "dropped")
#: Where the session keeps, for the next players page only, the undo of a check-in of everyone or of no one.
UNDO_KEY = "players-check-in-undo"
UNDO_SALT = "players-check-in-undo"
#: How long after checking everyone in (or out) the undo still works, in seconds.
UNDO_SECONDS = 12 * 60 * 60


def players_page(request, event: Event, form: PlayerForm | None = None, status: int = 200):
    query = request.GET.get("q", "").strip()[:100]
    show = request.GET.get("show", "")
    show = show if show in SHOW_CHOICES else ""
    club = request.GET.get("club", "")[:100]
    sort = request.GET.get("sort", "")
    players = service.sorted_players(
        service.filtered(service.players_of(event), query=query, show=show, club=club), sort
    )
    search = {"q": query, "show": show, "club": club}
    context = {
        "event": event,
        "players": players,
        "counts": service.player_counts(event),
        "form": form or PlayerForm(event=event, initial={"checked_in": True}),
        "search": {**search, "active": bool(query or show or club), "sort": sort},
        "columns": sort_columns(search, sort),
        "clubs": service.clubs_of(event),
        "undo": pending_undo(request, event),
    }
    return render(request, "tournaments/players/players.html", context, status=status)


def sort_columns(search: dict, sort: str) -> list[dict]:
    """The table's sortable column headers: each one's words, the address that sorts by it (the other way round
    when it already does) and its ``aria-sort``."""
    column, backwards = service.sort_choice(sort)
    labels = {
        "name": _("Name"),
        "club": _("Club"),
        "team": _("Team"),
        "checked_in": _("Checked in"),
        "status": _("Status"),
    }
    kept = {name: value for name, value in search.items() if value}
    columns = []
    for key, label in labels.items():
        current = key == column
        order = f"-{key}" if current and not backwards else key
        columns.append(
            {
                "key": key,
                "label": label,
                "url": "?" + urlencode({**kept, "sort": order}),
                "aria_sort": ("descending" if backwards else "ascending") if current else "",
            }
        )
    return columns


def pending_undo(request, event: Event) -> dict | None:
    """The undo of the check-in of everyone or no one just done in this event, shown once; None if there is none."""
    undo = request.session.get(UNDO_KEY)
    if not undo or undo.get("event") != event.pk:
        return None
    del request.session[UNDO_KEY]
    return undo


def confirmed(request) -> bool:
    return request.method == "POST" and request.POST.get("confirm") == "1"


def confirm_page(request, event: Event, *, title: str, lines: list[str], action: str, label: str, fields: dict):
    """The step a change that loses something waits at: what it does, a button that does it, and a way back.

    An HTMX request (whose own confirmation was skipped) is sent to the page itself."""
    if request.htmx:
        query = "&".join(f"{name}={value}" for name, value in fields.items())
        return HttpResponseClientRedirect(f"{action}?{query}" if query else action)
    context = {
        "event": event,
        "title": title,
        "lines": lines,
        "action": action,
        "label": label,
        "fields": fields,
        "back": reverse("tournaments:players", args=[event.slug]),
    }
    return render(request, "tournaments/organiser/confirm_step.html", context)


def players(request, slug: str):
    return players_page(request, organiser_event(request, slug))


@require_POST
def add(request, slug: str):
    event = organiser_event(request, slug)
    form = PlayerForm(request.POST, event=event)
    if not form.is_valid():
        return players_page(request, event, form, status=400)
    data = form.cleaned_data
    try:
        player = service.add_player(event, data["name"], data["club"], data["team"], data["checked_in"])
    except service.DuplicateName:
        form.add_error("name", duplicate_name(data["name"]))
        return players_page(request, event, form, status=400)
    if service.is_late(player):
        messages.success(request, _("%(name)s added, registered late (after round 1 was seated).") % {"name": player})
    else:
        messages.success(request, _("%(name)s added.") % {"name": player})
    return redirect("tournaments:players", slug=event.slug)


def player_action(action):
    """A POST-only view that applies ``action`` to one player, answering HTMX with the row, others with a redirect."""

    @require_POST
    def view(request, slug: str, player_id: int):
        event = organiser_event(request, slug)
        player = get_object_or_404(service.players_of(event), pk=player_id)
        message = action(request, player)
        if request.htmx:
            context = {"event": event, "player": player, "counts": service.player_counts(event)}
            return render(request, "tournaments/players/_row_swap.html", context)
        messages.success(request, message)
        return redirect(reverse("tournaments:players", kwargs={"slug": event.slug}) + f"#player-{player.pk}")

    view.__name__ = action.__name__
    return view


def toggle_check_in(request, player) -> str:
    present = request.POST.get("checked_in") != "0"
    service.check_in(player, present)
    record(player.event, Action.CHECK_IN, organiser_author(request), subject=player, details={"checked_in": present})
    return _("%(name)s checked in.") % {"name": player} if present else _("%(name)s not checked in.") % {"name": player}


def drop(request, player) -> str:
    service.drop_player(player)
    record(player.event, Action.DROP, organiser_author(request), subject=player)
    return _("%(name)s dropped: keeps past results, not seated again.") % {"name": player}


def reinstate(request, player) -> str:
    service.reinstate_player(player)
    record(player.event, Action.REINSTATE, organiser_author(request), subject=player)
    return _("%(name)s reinstated: seated again from the next round.") % {"name": player}


@require_http_methods(["GET", "POST"])
def check_in_all(request, slug: str):
    """Check every active player in (``present=1``) or out at once, after a confirmation when check-ins would be
    lost; the players page then offers to undo it."""
    event = organiser_event(request, slug)
    present = request.POST.get("present", request.GET.get("present")) == "1"
    action = reverse("tournaments:players_check_in_all", args=[event.slug])
    if request.method == "GET" or not confirmed(request):
        overwritten = service.check_in_all_overwrites(event, present)
        if request.method == "GET" or overwritten:
            return confirm_page(
                request,
                event,
                fields={"present": int(present)},
                action=action,
                **check_in_all_words(present, overwritten),
            )
    changed = service.check_in_all(event, present)
    done = record(event, Action.CHECK_IN, organiser_author(request), details={"all": present, "changed": len(changed)})
    if changed:
        undo = {"event": event.pk, "present": present, "players": changed, "entry": done.pk}
        token = signing.dumps(undo, salt=UNDO_SALT)
        request.session[UNDO_KEY] = {"event": event.pk, "present": present, "count": len(changed), "token": token}
    else:
        messages.info(request, _("Nothing to change: every active player already is as asked."))
    players_url = reverse("tournaments:players", args=[event.slug])
    return HttpResponseClientRedirect(players_url) if request.htmx else redirect(players_url)


def check_in_all_words(present: bool, count: int) -> dict:
    """The title, sentences and button of the confirmation of checking everyone in (or no one)."""
    if present:
        return {
            "title": _("Check in all"),
            "lines": [
                ngettext(
                    "%(count)d more player will be checked in: the list no longer tells who has arrived.",
                    "%(count)d more players will be checked in: the list no longer tells who has arrived.",
                    count,
                )
                % {"count": count},
                _("You can undo it right after."),
            ],
            "label": _("Check in all"),
        }
    return {
        "title": _("Check in none"),
        "lines": [
            ngettext(
                "The check-in of %(count)d player will be cleared.",
                "The check-ins of %(count)d players will be cleared.",
                count,
            )
            % {"count": count},
            _("You can undo it right after."),
        ],
        "label": ngettext("Clear %(count)d check-in", "Clear %(count)d check-ins", count) % {"count": count},
    }


@require_POST
def check_in_all_undo(request, slug: str):
    """Put back the check-ins exactly as they were before the check-in of everyone or no one the token names; once."""
    event = organiser_event(request, slug)
    try:
        undo = signing.loads(request.POST.get("token", ""), salt=UNDO_SALT, max_age=UNDO_SECONDS)
    except signing.BadSignature:
        undo = None
    try:
        if not undo or undo.get("event") != event.pk:
            raise LookupError
        restored = service.undo_check_in_all_once(event, undo, organiser_author(request))
    except LookupError:
        messages.error(request, _("This undo no longer works: check the players in one by one."))
        return redirect("tournaments:players", slug=event.slug)
    except service.UndoneAlready:
        messages.error(request, _("This undo was done already: nothing was changed."))
        return redirect("tournaments:players", slug=event.slug)
    messages.success(
        request,
        ngettext("%(count)d check-in put back as it was.", "%(count)d check-ins put back as they were.", restored)
        % {"count": restored},
    )
    return redirect("tournaments:players", slug=event.slug)


@require_http_methods(["GET", "POST"])
def delete(request, slug: str, player_id: int):
    """Delete a player who was never seated, after a confirmation; one who played can only be dropped."""
    event = organiser_event(request, slug)
    player = get_object_or_404(service.players_of(event), pk=player_id)
    players_url = reverse("tournaments:players", args=[event.slug])
    if player.seated:
        messages.error(request, _("%(name)s played a round: drop them instead.") % {"name": player})
        return HttpResponseClientRedirect(players_url) if request.htmx else redirect(players_url)
    if not confirmed(request):
        return confirm_page(
            request,
            event,
            title=_("Delete %(name)s") % {"name": player},
            lines=[_("%(name)s was never seated: the player is removed from the event for good.") % {"name": player}],
            action=reverse("tournaments:players_delete", args=[event.slug, player.pk]),
            label=_("Delete %(name)s") % {"name": player},
            fields={},
        )
    name, club = player.name, player.club
    if not service.delete_player(player):
        messages.error(request, _("%(name)s played a round: drop them instead.") % {"name": name})
        return redirect(players_url)
    record(event, Action.PLAYER_DELETE, organiser_author(request), details={"name": name, "club": club})
    if request.htmx:
        context = {"event": event, "counts": service.player_counts(event), "oob": True}
        return render(request, "tournaments/players/_counts.html", context)
    messages.success(request, _("%(name)s deleted.") % {"name": name})
    return redirect(players_url)


def edit(request, slug: str, player_id: int):
    """One player's page for the organiser: correct the name, club or team, check in, drop or reinstate."""
    event = organiser_event(request, slug)
    player = get_object_or_404(Player.objects.select_related("team", "event"), event=event, pk=player_id)
    initial = {
        "name": player.name,
        "club": player.club,
        "team": player.team.name if player.team else "",
        "checked_in": player.checked_in,
        "active": player.active,
    }
    form = PlayerEditForm(request.POST or None, initial=initial, player=player)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                changes = service.edit_player(
                    player,
                    name=data["name"],
                    club=data["club"],
                    team_name=data["team"],
                    checked_in=data["checked_in"],
                    active=data["active"],
                )
            except service.DuplicateName:
                form.add_error("name", duplicate_name(data["name"]))
            else:
                if changes:
                    record(event, Action.PLAYER_EDIT, organiser_author(request), subject=player, details=changes)
                messages.success(request, _("%(name)s saved.") % {"name": player})
                return redirect(reverse("tournaments:players", args=[event.slug]) + f"#player-{player.pk}")
        status = 400
    history = AuditEntry.objects.filter(subject=player).select_related("user")
    context = {"event": event, "player": player, "form": form, "history": history}
    return render(request, "tournaments/players/edit.html", context, status=status)


def export(request, slug: str, kind: str):
    """The player list as CSV (UTF-8 with BOM) or as an Excel workbook."""
    event = organiser_event(request, slug)
    rows = service.export_rows(event, spreadsheet=kind == "xlsx")
    if kind == "xlsx":
        return xlsx_response(rows, f"{event.slug}-players.xlsx", _("Players"))
    return csv_response(rows, f"{event.slug}-players.csv")


def new_link(request, player) -> str:
    player.new_token()
    player.save(update_fields=["token"])
    record(player.event, Action.PLAYER_LINK, organiser_author(request), subject=player)
    return _("%(name)s's old link no longer works; print a new card.") % {"name": player}


def new_link_confirmed(request, slug: str, player_id: int):
    """A new own link for one player, once the organiser has confirmed that the old link and card stop working."""
    if confirmed(request):
        return player_action(new_link)(request, slug=slug, player_id=player_id)
    event = organiser_event(request, slug)
    player = get_object_or_404(service.players_of(event), pk=player_id)
    return confirm_page(
        request,
        event,
        title=_("New link for %(name)s") % {"name": player},
        lines=[
            _("%(name)s's own link, and the QR code on their player card, will stop working: print them a new card.")
            % {"name": player}
        ],
        action=reverse("tournaments:players_new_link", args=[event.slug, player.pk]),
        label=_("Issue a new link"),
        fields={},
    )


def import_players(request, slug: str):
    """Step 1 (preview) shows every row and saves nothing; step 2 (confirm) re-checks the same text and saves."""
    event = organiser_event(request, slug)
    if request.method != "POST":
        return render(request, "tournaments/players/import.html", {"event": event, "form": ImportForm()})
    form = ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return render(request, "tournaments/players/import.html", {"event": event, "form": form}, status=400)
    text, keep = form.cleaned_data["text"], form.cleaned_data["keep_status"]
    rows = service.preview_import(event, text)
    action = request.POST.get("action")
    if action in ("confirm", "confirm-good"):
        try:
            created = service.import_players(event, rows, skip_bad=action == "confirm-good", keep_status=keep)
        except service.ImportRefused as refusal:
            messages.error(request, str(refusal))
        else:
            if created:
                skipped = sum(1 for row in rows if row.duplicate)
                message = imported_message(len(created), skipped)
                left_out = sum(1 for row in rows if row.errors)
                if left_out:
                    message += " " + ngettext(
                        "%(count)d line with an error was left out.",
                        "%(count)d lines with errors were left out.",
                        left_out,
                    ) % {"count": left_out}
                if event.club_id:
                    message += " " + _("Now link them to the club's people.")
                    messages.success(request, message)
                    return redirect("tournaments:event_people", slug=event.slug)
                messages.success(request, message)
                return redirect("tournaments:players", slug=event.slug)
            messages.error(request, _("Nothing to import: every player of the list is already registered."))
    context = preview_context(event, text, rows, form.read_as, keep_status=keep)
    return render(request, "tournaments/players/import.html", context)


def chosen_ids(data) -> list[int]:
    """The players selected in the table (``player``, one value each) or carried by the confirmation (``players``);
    a value that is no id (``record_id``) selects nobody."""
    values = data.getlist("player") + data.get("players", "").split(",")
    return sorted({record_id(value.strip()) for value in values} - {None})


@require_http_methods(["GET", "POST"])
def bulk(request, slug: str):
    """Check in, check out or drop the players selected in the table, once the organiser has confirmed it."""
    event = organiser_event(request, slug)
    data = request.POST if request.method == "POST" else request.GET
    action, ids = data.get("do", ""), chosen_ids(data)
    players_url = reverse("tournaments:players", args=[event.slug])
    chosen = service.by_name(service.players_of(event).filter(pk__in=ids))
    if action not in service.BULK_ACTIONS or not chosen:
        messages.error(request, _("Select players in the list first, then what to do with them."))
        return HttpResponseClientRedirect(players_url) if request.htmx else redirect(players_url)
    if not confirmed(request):
        return confirm_page(
            request,
            event,
            fields={"do": action, "players": ",".join(str(player.pk) for player in chosen)},
            action=reverse("tournaments:players_bulk", args=[event.slug]),
            **bulk_words(action, chosen),
        )
    changed = service.bulk_change(event, [player.pk for player in chosen], action)
    author = organiser_author(request)
    for player in changed:
        if action == "drop":
            record(event, Action.DROP, author, subject=player)
        else:
            record(event, Action.CHECK_IN, author, subject=player, details={"checked_in": action == "in"})
    messages.success(request, bulk_done(action, len(changed), len(chosen)))
    return HttpResponseClientRedirect(players_url) if request.htmx else redirect(players_url)


def bulk_words(action: str, chosen: list[Player]) -> dict:
    """The title, sentences and button of the confirmation of a change to the selected players."""
    count = len(chosen)
    names = ", ".join(player.name for player in chosen)
    if action == "drop":
        title = ngettext("Drop %(count)d player", "Drop %(count)d players", count) % {"count": count}
        lines = [
            _("Dropped: %(names)s.") % {"names": names},
            _("A dropped player keeps past results and is never seated again; you can reinstate them."),
        ]
    elif action == "in":
        title = ngettext("Check in %(count)d player", "Check in %(count)d players", count) % {"count": count}
        lines = [_("Checked in: %(names)s.") % {"names": names}]
    else:
        title = ngettext("Check out %(count)d player", "Check out %(count)d players", count) % {"count": count}
        lines = [_("No longer checked in: %(names)s.") % {"names": names}]
    return {"title": title, "lines": lines, "label": title}


def bulk_done(action: str, changed: int, chosen: int) -> str:
    """What the players page says once a change to the selected players is made."""
    if action == "drop":
        done = ngettext("%(count)d player dropped.", "%(count)d players dropped.", changed)
    elif action == "in":
        done = ngettext("%(count)d player checked in.", "%(count)d players checked in.", changed)
    else:
        done = ngettext("%(count)d check-in cleared.", "%(count)d check-ins cleared.", changed)
    message = done % {"count": changed}
    if chosen > changed:
        message += " " + ngettext(
            "%(count)d already was as asked.", "%(count)d already were as asked.", chosen - changed
        ) % {"count": chosen - changed}
    return message


@require_http_methods(["GET", "POST"])
def roll_call(request, slug: str):
    """The roll call by keyboard: GET lists the players whose words the typed words begin; POST checks in the one
    player they match (or the one picked among several) and says so, the list left open to pick from otherwise."""
    event = organiser_event(request, slug)
    if request.method == "GET":
        text = request.GET.get("name", "")[:100]
        context = {"event": event, "matches": service.roll_call_matches(event, text), "typed": bool(text.strip())}
        return render(request, "tournaments/players/_roll_call_matches.html", context)
    text = request.POST.get("name", "")[:100]
    found = service.roll_call_matches(event, text)
    picked = next((value for value in request.POST.getlist("player") if value), "")
    chosen = [player for player in found if str(player.pk) == picked] or (found if len(found) == 1 else [])
    player = chosen[0] if chosen else None
    if player and not player.checked_in:
        service.check_in(player, True)
        record(event, Action.CHECK_IN, organiser_author(request), subject=player, details={"checked_in": True})
        said = _("%(name)s checked in.") % {"name": player}
    elif player:
        said = _("%(name)s was already checked in.") % {"name": player}
    elif found:
        said = ngettext(
            "%(count)d player matches: type more of the name, or pick one.",
            "%(count)d players match: type more of the name, or pick one.",
            len(found),
        ) % {"count": len(found)}
    else:
        said = _("No active player matches “%(text)s”.") % {"text": text.strip()}
    if not request.htmx:
        (messages.success if player else messages.info)(request, said)
        return redirect(reverse("tournaments:players", args=[event.slug]) + (f"#player-{player.pk}" if player else ""))
    context = {
        "event": event,
        "player": player,
        "said": said,
        "counts": service.player_counts(event),
        "matches": None if player else found,
        "typed": not player and bool(text.strip()),
    }
    response = render(request, "tournaments/players/_roll_call_done.html", context)
    return trigger_client_event(response, "rollCallDone") if player else response


def left_out_message(count: int) -> str:
    return ngettext(
        "%(count)d line with an error was left out.", "%(count)d lines with errors were left out.", count
    ) % {"count": count}


def preview_context(
    event: Event, text: str, rows: list[service.ParsedRow], read_as: str = "", *, keep_status: bool = False
) -> dict:
    blocked = sum(1 for row in rows if row.errors)
    return {
        "read_as": read_as,
        "blank": service.blank_lines(text),
        "event": event,
        "form": ImportForm(initial={"text": text, "keep_status": keep_status}),
        "keep_status": keep_status,
        "in_file": service.status_in_file(rows),
        "text": text,
        "rows": rows,
        "blocked": blocked,
        "importable": sum(1 for row in rows if row.importable),
        "warned": sum(1 for row in rows if row.importable and row.warnings),
        "skipped": sum(1 for row in rows if row.duplicate),
        "previewed": True,
        "max_length": service.MAX_LENGTH,
    }


def imported_message(created: int, skipped: int) -> str:
    message = ngettext("%(count)d player imported.", "%(count)d players imported.", created) % {"count": created}
    if skipped:
        message += " " + ngettext(
            "%(count)d already registered, skipped.", "%(count)d already registered, skipped.", skipped
        ) % {"count": skipped}
    return message


urlpatterns = [
    path("e/<slug:slug>/organiser/players/", players, name="players"),
    path("e/<slug:slug>/organiser/players/add/", add, name="players_add"),
    path("e/<slug:slug>/organiser/players/import/", import_players, name="players_import"),
    path("e/<slug:slug>/organiser/players/selected/", bulk, name="players_bulk"),
    path("e/<slug:slug>/organiser/players/roll-call/", roll_call, name="players_roll_call"),
    path("e/<slug:slug>/organiser/players/check-in-all/", check_in_all, name="players_check_in_all"),
    path("e/<slug:slug>/organiser/players/check-in-all/undo/", check_in_all_undo, name="players_check_in_all_undo"),
    path("e/<slug:slug>/organiser/players/<int:player_id>/delete/", delete, name="players_delete"),
    path("e/<slug:slug>/organiser/players/<int:player_id>/edit/", edit, name="players_edit"),
    path("e/<slug:slug>/organiser/players.csv", export, {"kind": "csv"}, name="players_csv"),
    path("e/<slug:slug>/organiser/players.xlsx", export, {"kind": "xlsx"}, name="players_xlsx"),
    path(
        "e/<slug:slug>/organiser/players/<int:player_id>/check-in/",
        player_action(toggle_check_in),
        name="players_check_in",
    ),
    path("e/<slug:slug>/organiser/players/<int:player_id>/drop/", player_action(drop), name="players_drop"),
    path("e/<slug:slug>/organiser/players/<int:player_id>/new-link/", new_link_confirmed, name="players_new_link"),
    path(
        "e/<slug:slug>/organiser/players/<int:player_id>/reinstate/",
        player_action(reinstate),
        name="players_reinstate",
    ),
]
