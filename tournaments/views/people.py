"""Organiser page: who each player of an event is among the club's people, linked on the organiser's word."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..access import organiser_event
from ..collation import alphabetical
from ..numbers import record_id
from ..services import people as service
from ..services.audit import organiser_author

FIELD = "person-"


def chosen_links(post) -> dict[int, str]:
    """What the page's form says for each player: ``person-<player id>`` = a person's id or ``new``; a name or a
    value that is no id (``²``, a number past any row) is left out."""
    choices = {}
    for name, value in post.items():
        player_id = record_id(name.removeprefix(FIELD)) if name.startswith(FIELD) else None
        if player_id is not None and (value == service.NEW_PERSON or record_id(value) is not None):
            choices[player_id] = value
    return choices


def event_people(request, slug: str):
    """Unlinked players with the club's people who may be them (ticked when name and club match); linked ones."""
    event = organiser_event(request, slug)
    if request.method == "POST":
        try:
            linked = service.link_players(event, chosen_links(request.POST), organiser_author(request))
        except service.PeopleRefused as refusal:
            messages.error(request, str(refusal))
        else:
            messages.success(
                request, ngettext("%(count)d player linked.", "%(count)d players linked.", linked) % {"count": linked}
            )
        return redirect("tournaments:event_people", slug=event.slug)
    linked = alphabetical(
        event.players.filter(person__isnull=False).select_related("person"), key=lambda player: player.name
    )
    context = {
        "event": event,
        "suggestions": service.suggestions(event) if event.club_id else [],
        "linked": linked,
        "new_person": service.NEW_PERSON,
        "field": FIELD,
    }
    if event.club_id is None:
        messages.info(request, _("Choose the tournament's club in its settings to link its players to people."))
    return render(request, "tournaments/organiser/people.html", context)


urlpatterns = [
    path("e/<slug:slug>/organiser/people/", event_people, name="event_people"),
]
