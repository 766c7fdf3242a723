"""Organiser pages of a club: its clubs, ratings per game, people, a person's history, merging and unlinking."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Count
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..access import clubs_of, organiser_club
from ..collation import alphabetical
from ..forms.clubs import ClubForm, MergeForm
from ..ratings.pages import club_games, club_ratings, person_history
from ..services import people as service
from ..services.audit import organiser_author
from ..services.statistics import rating_plot


@login_required
def club_list(request):
    """The clubs the organiser runs, and a new one."""
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            club = form.save()
            club.organisers.add(request.user)
        messages.success(request, _("The club “%(name)s” is set up.") % {"name": club.name})
        return redirect("tournaments:club", slug=club.slug)
    clubs = clubs_of(request.user).annotate(
        event_count=Count("events", distinct=True), person_count=Count("people", distinct=True)
    )
    context = {"clubs": alphabetical(clubs, key=lambda club: club.name), "form": form}
    return render(request, "tournaments/clubs/clubs.html", context, status=400 if form.errors else 200)


def club_page(request, slug: str):
    """The club's ratings at one of its games (``?game=``; the first of them by default)."""
    club = organiser_club(request, slug)
    played = club_games(club)
    asked = request.GET.get("game")
    game = next((g for g in played if g.key == asked), played[0] if played else None)
    context = {
        "club": club,
        "games": played,
        "game": game,
        "rows": club_ratings(club, game.key) if game else [],
        "events": club.events.order_by("-date", "name")[:20],
    }
    return render(request, "tournaments/clubs/club.html", context)


def people_page(request, slug: str):
    """The club's people, how many events each played, and merging two of them."""
    club = organiser_club(request, slug)
    people = club.people.annotate(event_count=Count("players__event", distinct=True))
    context = {
        "club": club,
        "people": alphabetical(people, key=lambda person: person.name),
        "form": MergeForm(club=club),
    }
    return render(request, "tournaments/clubs/people.html", context)


def person_page(request, slug: str, person_id: int):
    """One person: the events they played, as which player, and their rating history at each game."""
    club = organiser_club(request, slug)
    person = get_object_or_404(club.people, pk=person_id)
    players = person.players.select_related("event").order_by("-event__date", "event__name")
    history = [(each, rating_plot(each)) for each in person_history(person)]
    context = {"club": club, "person": person, "players": players, "history": history}
    return render(request, "tournaments/clubs/person.html", context)


def merge(request, slug: str):
    """Asks (GET) and merges (POST) one person of the club into another."""
    club = organiser_club(request, slug)
    form = MergeForm(request.POST if request.method == "POST" else request.GET, club=club)
    if not form.is_valid():
        messages.error(request, _("Choose two people of the club to merge."))
        return redirect("tournaments:club_people", slug=club.slug)
    keep, other = form.people()
    refusal = service.merge_refusal(keep, other)
    if request.method == "POST" and refusal is None and request.POST.get("confirm") == "1":
        moved = service.merge_people(keep, other, organiser_author(request))
        messages.success(
            request,
            _("%(other)s merged into %(keep)s: %(count)d players moved.")
            % {"other": other, "keep": keep, "count": moved},
        )
        return redirect(keep.get_absolute_url())
    players = other.players.select_related("event").order_by("-event__date")
    context = {"club": club, "keep": keep, "other": other, "refusal": refusal, "players": players}
    return render(request, "tournaments/clubs/merge.html", context, status=400 if refusal else 200)


@require_POST
def unlink(request, slug: str, person_id: int, player_id: int):
    """The player is not this person after all: their results leave the person's ratings."""
    club = organiser_club(request, slug)
    person = get_object_or_404(club.people, pk=person_id)
    player = person.players.select_related("event").filter(pk=player_id).first()
    if player is None:
        raise Http404
    service.unlink_player(player, organiser_author(request))
    messages.success(
        request,
        _("%(player)s (%(event)s) is no longer linked to %(person)s.")
        % {"player": player, "event": player.event.name, "person": person},
    )
    return redirect(person.get_absolute_url())


urlpatterns = [
    path("organiser/clubs/", club_list, name="clubs"),
    path("organiser/clubs/<slug:slug>/", club_page, name="club"),
    path("organiser/clubs/<slug:slug>/people/", people_page, name="club_people"),
    path("organiser/clubs/<slug:slug>/people/merge/", merge, name="people_merge"),
    path("organiser/clubs/<slug:slug>/people/<int:person_id>/", person_page, name="person"),
    path("organiser/clubs/<slug:slug>/people/<int:person_id>/unlink/<int:player_id>/", unlink, name="person_unlink"),
]
