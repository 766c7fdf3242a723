"""Organiser pages: the players of an event, adding and importing them, checking them in, dropping them."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from ..access import organiser_event
from ..devices import organiser_author
from ..forms.players import ImportForm, PlayerForm, duplicate_name
from ..models import Event
from ..models.audit import Action
from ..services import players as service
from ..services.audit import record


def players_page(request, event: Event, form: PlayerForm | None = None, status: int = 200):
    context = {
        "event": event,
        "players": service.players_of(event),
        "counts": service.player_counts(event),
        "form": form or PlayerForm(event=event, initial={"checked_in": True}),
    }
    return render(request, "tournaments/players/players.html", context, status=status)


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
    return _("%(name)s checked in.") % {"name": player} if present else _("%(name)s not checked in.") % {"name": player}


def drop(request, player) -> str:
    service.drop_player(player)
    return _("%(name)s dropped: keeps past results, not seated again.") % {"name": player}


def reinstate(request, player) -> str:
    service.reinstate_player(player)
    return _("%(name)s reinstated: seated again from the next round.") % {"name": player}


def new_link(request, player) -> str:
    player.new_token()
    player.save(update_fields=["token"])
    record(player.event, Action.PLAYER_LINK, organiser_author(request), subject=player)
    return _("%(name)s's old link no longer works; print a new card.") % {"name": player}


def import_players(request, slug: str):
    """Step 1 (preview) shows every row and saves nothing; step 2 (confirm) re-checks the same text and saves."""
    event = organiser_event(request, slug)
    if request.method != "POST":
        return render(request, "tournaments/players/import.html", {"event": event, "form": ImportForm()})
    form = ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return render(request, "tournaments/players/import.html", {"event": event, "form": form}, status=400)
    text = form.cleaned_data["text"]
    rows = service.preview_import(event, text)
    if request.POST.get("action") == "confirm":
        try:
            created = service.import_players(event, rows)
        except service.ImportRefused as refusal:
            messages.error(request, str(refusal))
        else:
            if created:
                skipped = sum(1 for row in rows if row.duplicate)
                messages.success(request, imported_message(len(created), skipped))
                return redirect("tournaments:players", slug=event.slug)
            messages.error(request, _("Nothing to import: every player of the list is already registered."))
    return render(request, "tournaments/players/import.html", preview_context(event, text, rows))


def preview_context(event: Event, text: str, rows: list[service.ParsedRow]) -> dict:
    blocked = sum(1 for row in rows if row.errors)
    return {
        "event": event,
        "form": ImportForm(initial={"text": text}),
        "text": text,
        "rows": rows,
        "blocked": blocked,
        "importable": sum(1 for row in rows if row.importable),
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
    path(
        "e/<slug:slug>/organiser/players/<int:player_id>/check-in/",
        player_action(toggle_check_in),
        name="players_check_in",
    ),
    path("e/<slug:slug>/organiser/players/<int:player_id>/drop/", player_action(drop), name="players_drop"),
    path("e/<slug:slug>/organiser/players/<int:player_id>/new-link/", player_action(new_link), name="players_new_link"),
    path(
        "e/<slug:slug>/organiser/players/<int:player_id>/reinstate/",
        player_action(reinstate),
        name="players_reinstate",
    ),
]
