"""Pages anyone may see for public events (a private one only its organisers and staff): event, standings,
projector, player."""

from __future__ import annotations

from django.core.cache import cache
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import path
from django.utils.translation import get_language
from django_tables2 import RequestConfig

from ..access import visible_event
from ..csv_export import csv_response
from ..models import Event, Player, Seat, Standing
from ..numbers import whole_number
from ..spreadsheets import xlsx_response
from ..standings.tables import StandingsTable

PROJECTOR_ROWS = 15
PROJECTOR_SECONDS = 10
#: No event has more pages of standings than this; a larger page number means the first.
MAX_PAGE = 10_000


STANDINGS_PER_PAGE = 100


def standings_rows(event: Event):
    return Standing.objects.filter(event=event).select_related("player")


def make_standings_table(event: Event) -> StandingsTable:
    return StandingsTable(standings_rows(event), event=event)


def standings_table(request, event: Event) -> StandingsTable:
    table = make_standings_table(event)
    RequestConfig(request, paginate={"per_page": STANDINGS_PER_PAGE}).configure(table)
    return table


def home(request):
    events = Event.objects.filter(public=True).annotate(player_count=Count("players", filter=Q(players__active=True)))
    return render(request, "tournaments/home.html", {"events": events})


def event_page(request, slug: str):
    event = visible_event(request, slug)
    rounds = event.rounds.filter(published=True).prefetch_related("tables__seats__player")
    players = event.players.select_related("team")
    return render(request, "tournaments/event.html", {"event": event, "rounds": rounds, "players": players})


def standings(request, slug: str):
    event = visible_event(request, slug)
    context = {"event": event, "table": standings_table(request, event), "version": event.standings_version}
    return render(request, "tournaments/standings.html", context)


def live_fragment(request, event: Event) -> str:
    """The live standings partial, rendered once per standings version, language, sort and page.

    It is kept in Django's cache: each process's own by default, or one shared by every process with CACHE_URL.
    """
    key = ":".join(
        [
            "standings-live",
            str(event.pk),
            str(event.standings_version),
            get_language(),
            request.GET.get("sort", "")[:40],
            request.GET.get("page", "")[:10],
        ]
    )
    html = cache.get(key)
    if html is None:
        context = {"event": event, "table": standings_table(request, event), "version": event.standings_version}
        html = render_to_string("tournaments/_standings_live.html", context, request=request)
        cache.set(key, html, 600)
    return html


def standings_live(request, slug: str):
    """The standings partial when they changed since version ``v``; 204 (nothing to swap) when not."""
    event = visible_event(request, slug)
    if request.GET.get("v") == str(event.standings_version):
        return HttpResponse(status=204)
    return HttpResponse(live_fragment(request, event))


def standings_csv(request, slug: str):
    event = visible_event(request, slug)
    table = make_standings_table(event)
    return csv_response(table.as_values(exclude_columns=("movement",)), f"{event.slug}-standings.csv")


def projector_page(request, event: Event, page_number: int):
    paginator = Paginator(standings_rows(event).order_by("rank", "player__name"), PROJECTOR_ROWS)
    page = paginator.get_page(page_number)
    following = page.next_page_number() if page.has_next() else 1
    return {"event": event, "page": page, "following": following, "seconds": PROJECTOR_SECONDS}


def projector(request, slug: str):
    event = visible_event(request, slug)
    return render(request, "tournaments/projector.html", projector_page(request, event, 1))


def projector_next(request, slug: str):
    """The next page of the projector's standings; the page itself asks again after a few seconds."""
    event = visible_event(request, slug)
    page_number = whole_number(request.GET.get("page"), maximum=MAX_PAGE) or 1
    return render(request, "tournaments/_projector_page.html", projector_page(request, event, page_number))


def player_page(request, slug: str, player_id: int):
    event = visible_event(request, slug)
    player = get_object_or_404(Player.objects.select_related("team"), event=event, pk=player_id)
    published = Seat.objects.filter(player=player, round__published=True)
    seats = list(published.select_related("table", "round").order_by("round__number"))
    tablemates = Seat.objects.filter(table__in=[s.table_id for s in seats]).select_related("player")
    opponents: dict[int, list[Seat]] = {}
    for seat in tablemates.order_by("position"):
        if seat.player_id != player.pk:
            opponents.setdefault(seat.table_id, []).append(seat)
    rows = [(seat, opponents.get(seat.table_id, [])) for seat in seats]
    standing = Standing.objects.filter(event=event, player=player).first()
    context = {"event": event, "player": player, "rows": rows, "standing": standing}
    return render(request, "tournaments/player.html", context)


def standings_xlsx(request, slug: str):
    """The standings as an Excel workbook: the same columns as the CSV, numbers as numbers."""
    event = visible_event(request, slug)
    rows = make_standings_table(event).as_values(exclude_columns=("movement",))
    return xlsx_response(rows, f"{event.slug}-standings.xlsx", event.name)


urlpatterns = [
    path("", home, name="home"),
    path("e/<slug:slug>/", event_page, name="event"),
    path("e/<slug:slug>/standings/", standings, name="standings"),
    path("e/<slug:slug>/standings/live/", standings_live, name="standings_live"),
    path("e/<slug:slug>/standings.csv", standings_csv, name="standings_csv"),
    path("e/<slug:slug>/standings.xlsx", standings_xlsx, name="standings_xlsx"),
    path("e/<slug:slug>/projector/", projector, name="projector"),
    path("e/<slug:slug>/projector/next/", projector_next, name="projector_next"),
    path("e/<slug:slug>/players/<int:player_id>/", player_page, name="player"),
]
