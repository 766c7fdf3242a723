"""A club's seasons: the organiser's list and form, and the ladder (public when every tournament in it is),
as a page, CSV, Excel and PDF."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.text import slugify
from django.utils.translation import gettext as _

from ..access import organiser_club, season_access, visible_season
from ..csv_export import csv_response
from ..forms.seasons import SeasonForm
from ..printing.common import pdf_response
from ..printouts.ladder import ladder_pdf, rule_text, unlinked_text
from ..services.ladder import ladder_table, season_ladder
from ..spreadsheets import xlsx_response


def season_list(request, slug: str):
    """The club's seasons, newest first."""
    club = organiser_club(request, slug)
    seasons = club.seasons.all()
    return render(request, "tournaments/clubs/seasons.html", {"club": club, "seasons": seasons})


def season_form(request, slug: str, season_id: int | None = None):
    """A new season (no ``season_id``) or an existing one: its name, rule and tournaments."""
    club = organiser_club(request, slug)
    season = get_object_or_404(club.seasons, pk=season_id) if season_id else None
    form = SeasonForm(request.POST or None, instance=season, club=club)
    if request.method == "POST" and form.is_valid():
        season = form.save()
        messages.success(request, _("The season “%(name)s” is saved.") % {"name": season.name})
        return redirect(season.get_absolute_url())
    context = {"club": club, "season": season, "form": form}
    return render(request, "tournaments/clubs/season_form.html", context, status=400 if form.errors else 200)


def ladder_page(request, slug: str, season_id: int):
    """The season's ladder: each person's season points per tournament, the counted ones, total and rank."""
    season, runs_club, public = season_access(request, slug, season_id)
    ladder = season_ladder(season)
    context = {
        "club": season.club,
        "season": season,
        "ladder": ladder,
        "rule": rule_text(ladder),
        "unlinked": unlinked_text(ladder.unlinked) if ladder.unlinked else "",
        "runs_club": runs_club,
        "public": public,
    }
    return render(request, "tournaments/clubs/ladder.html", context)


def file_name(season, extension: str) -> str:
    return f"{season.club.slug}-{slugify(season.name) or 'season'}-ladder.{extension}"


def ladder_csv(request, slug: str, season_id: int):
    season = visible_season(request, slug, season_id)
    return csv_response(ladder_table(season_ladder(season)), file_name(season, "csv"))


def ladder_xlsx(request, slug: str, season_id: int):
    season = visible_season(request, slug, season_id)
    return xlsx_response(ladder_table(season_ladder(season)), file_name(season, "xlsx"), season.name)


def ladder_print(request, slug: str, season_id: int):
    season = visible_season(request, slug, season_id)
    return pdf_response(ladder_pdf(season_ladder(season)), file_name(season, "pdf"))


urlpatterns = [
    path("organiser/clubs/<slug:slug>/seasons/", season_list, name="seasons"),
    path("organiser/clubs/<slug:slug>/seasons/new/", season_form, name="season_new"),
    path("organiser/clubs/<slug:slug>/seasons/<int:season_id>/edit/", season_form, name="season_edit"),
    path("c/<slug:slug>/seasons/<int:season_id>/", ladder_page, name="season"),
    path("c/<slug:slug>/seasons/<int:season_id>/ladder.csv", ladder_csv, name="season_csv"),
    path("c/<slug:slug>/seasons/<int:season_id>/ladder.xlsx", ladder_xlsx, name="season_xlsx"),
    path("c/<slug:slug>/seasons/<int:season_id>/ladder.pdf", ladder_print, name="season_pdf"),
]
