"""Pages anyone may see for public events (a private one only its organisers and staff): event, standings,
projector, player."""

from __future__ import annotations

import re
import time

from django.core.paginator import Paginator
from django.db.models import Count, Prefetch, Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import path
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django_tables2 import RequestConfig

from ..access import visible_event
from ..collation import alphabetical
from ..csv_export import csv_response
from ..live_polls import shown_version, unchanged
from ..models import Event, Player, Seat
from ..numbers import whole_number
from ..ratings.public import shown_rating
from ..services.find_table import MAX_QUERY, find_seats, round_now
from ..services.ladder import public_seasons
from ..services.player_links import overview
from ..services.statistics import player_plots
from ..spreadsheets import xlsx_response
from ..standings.figures import figures, metrics_of
from ..standings.metrics import legends
from ..standings.refresh import STANDINGS_PENDING, ensure_fresh_soon, live_partial
from ..standings.rows import movement, split_absent, standings_rows, with_figures
from ..standings.stage import Stage, standings_stage
from ..standings.tables import StandingsTable

#: Rows of a projector page until the page has measured how many its screen shows.
PROJECTOR_ROWS = 10
#: The fewest and most rows a projector page may ask for.
PROJECTOR_MIN_ROWS, PROJECTOR_MAX_ROWS = 3, 60
#: How long a projector page stays up before the next one (when there is more than one).
PROJECTOR_SECONDS = 10
#: The projector's number columns after the names (opponents' points are for the standings page).
PROJECTOR_METRICS = ("points", "score", "tiebreak")
#: When a projector page's time is over, as it sends it: milliseconds since the epoch.
TURN = re.compile(r"[0-9]{1,15}")
#: No event has more pages of standings than this; a larger page number means the first.
MAX_PAGE = 10_000


STANDINGS_PER_PAGE = 100


def make_standings_table(event: Event, stage: Stage | None = None) -> StandingsTable:
    stage = stage or standings_stage(event)
    return StandingsTable(standings_rows(event, stage), event=event)


def standings_table(request, event: Event, stage: Stage) -> StandingsTable:
    table = make_standings_table(event, stage)
    RequestConfig(request, paginate={"per_page": STANDINGS_PER_PAGE}).configure(table)
    return table


def live_version(event: Event, stage: Stage) -> str:
    """What the live standings compare to know whether anything changed: the stored standings or the stage."""
    return f"{event.standings_version}-{stage.key}"


def standings_context(request, event: Event) -> dict:
    stage = standings_stage(event)
    table = standings_table(request, event, stage)
    return {"event": event, "table": table, "stage": stage, "version": live_version(event, stage)}


def home(request):
    events = Event.objects.filter(public=True).annotate(player_count=Count("players", filter=Q(players__active=True)))
    return render(request, "tournaments/home.html", {"events": events})


def event_page(request, slug: str):
    """The event's round now first (its tables, and a search for a player's table), the earlier rounds after."""
    event = visible_event(request, slug)
    seats = Prefetch("tables__seats", queryset=Seat.objects.select_related("player").order_by("position"))
    rounds = list(event.rounds.filter(published=True).order_by("-number").prefetch_related("tables", seats))
    current, earlier = (rounds[0], rounds[1:]) if rounds else (None, [])
    query = request.GET.get("find", "")[:MAX_QUERY]
    context = {
        "event": event,
        "current": current,
        "earlier": earlier,
        "players": alphabetical(event.players.all(), key=lambda player: player.name),
        "query": query,
        "found": find_seats(current, query),
        "seasons": public_seasons(event) if event.club_id else [],
    }
    return render(request, "tournaments/event.html", context)


def find_table(request, slug: str):
    """The seats of the round now whose players' names answer the search (the event page's live results)."""
    event = visible_event(request, slug)
    current = round_now(event)
    query = request.GET.get("find", "")[:MAX_QUERY]
    context = {"event": event, "current": current, "query": query, "found": find_seats(current, query)}
    return render(request, "tournaments/_find_table.html", context)


def standings_event(request, slug: str) -> Event:
    """The event of a standings or projector page or poll, which shows its standings as stored; when they are out of
    date, they are rebuilt after the answer."""
    event = visible_event(request, slug)
    ensure_fresh_soon(event)
    return event


def standings(request, slug: str):
    event = standings_event(request, slug)
    return render(request, "tournaments/standings.html", standings_context(request, event))


def live_fragment(request, event: Event, stage: Stage) -> tuple[str, str | None, bool]:
    """The version, HTML and whether the version of now is on its way (``live_partial``), the partial rendered once
    per standings version, stage, language, sort and page, and not more often than ``LIVE_RENDER_SECONDS`` by the
    processes sharing the cache (perhaps once this poll is answered).
    """
    version = live_version(event, stage)
    language = get_language()
    page = ":".join(
        ["standings-live", str(event.pk), language, request.GET.get("sort", "")[:40], request.GET.get("page", "")[:10]]
    )

    def render() -> str:
        with translation.override(language):
            table = standings_table(request, event, stage)
            context = {"event": event, "table": table, "stage": stage, "version": version}
            return render_to_string("tournaments/_standings_live.html", context, request=request)

    return live_partial(page, version, shown_version(request), render)


def nothing_new(pending: bool) -> HttpResponse:
    """Nothing to swap; with ``pending``, the ``standings-pending`` event, for the page to ask again a second later."""
    response = unchanged()
    if pending:
        response["HX-Trigger"] = STANDINGS_PENDING
    return response


def standings_live(request, slug: str):
    """The standings partial when they changed since version ``v``; 204 (nothing to swap) when not, with the
    ``standings-pending`` event when newer ones are being rendered.

    A poll leaves a rebuild that is due and a render until after its answer: polls come by the hundred, and none
    should wait.
    """
    event = standings_event(request, slug)
    stage = standings_stage(event)
    asked = shown_version(request)
    if asked == live_version(event, stage):
        return unchanged()
    version, html, pending = live_fragment(request, event, stage)
    return nothing_new(pending) if html is None or asked == version else HttpResponse(html)


def standings_file_name(event: Event, stage: Stage, extension: str) -> str:
    """The name of a standings download: final ones say so."""
    return f"{event.slug}-{'final-standings' if stage.final else 'standings'}.{extension}"


def standings_csv(request, slug: str):
    event = visible_event(request, slug)
    stage = standings_stage(event)
    table = make_standings_table(event, stage)
    return csv_response(table.as_values(exclude_columns=("movement",)), standings_file_name(event, stage, "csv"))


def projector_rows(asked: object) -> int:
    """Rows per projector page: as many as the page measured its screen shows (within bounds), else the default."""
    rows = whole_number(asked, maximum=MAX_PAGE)
    return min(max(rows, PROJECTOR_MIN_ROWS), PROJECTOR_MAX_ROWS) if rows else PROJECTOR_ROWS


def projector_page(event: Event, stage: Stage, page_number: int, rows: int) -> dict:
    """A projector page's context; a page past the last is the first."""
    ranked, _absent = split_absent(standings_rows(event, stage))
    paginator = Paginator(ranked, rows)
    page = paginator.page(page_number if page_number <= paginator.num_pages else 1)
    game = event.game_bundle
    return {
        "event": event,
        "stage": stage,
        "page": page,
        "lines": with_figures(page, game, PROJECTOR_METRICS),
        "headings": [metric.short_label_for(game) for metric in metrics_of(game, PROJECTOR_METRICS)],
        "rows": rows,
        "version": live_version(event, stage),
        "legends": legends(game),
    }


def turn_field(seconds_from_now: float, swap: bool = False, restarted: bool = False) -> str:
    """The hidden fields a projector page's polls send: when its page is over (milliseconds since the epoch), and
    whether its cycle of pages began at a change of the standings. Outside the page's partial, which every
    projector shares: each keeps its own time."""
    turn = int((time.time() + seconds_from_now) * 1000)
    oob = mark_safe(' hx-swap-oob="true"') if swap else ""
    return format_html(
        '<input type="hidden" id="projector-turn" name="turn" value="{}"{}>'
        '<input type="hidden" id="projector-restarted" name="restarted" value="{}"{}>',
        turn,
        oob,
        int(restarted),
        oob,
    )


def projector_showing(request, page: int, changed: bool) -> tuple[int, bool, bool]:
    """The page a projector's request is to show, whether it polls the page it shows (it sends ``turn``, when
    that page is over: from then on, the next; after the last, the first) rather than asking for ``page`` anew, and
    whether its cycle began at a change of the standings.

    When the standings ``changed``, a projector past its first page goes back to it at once (the leaders show
    within seconds) and goes on from there; while it does, further changes leave it to turn its pages, so that
    every page still comes round when results come in by the second."""
    turn = request.GET.get("turn", "")
    if not TURN.fullmatch(turn):
        return page, False, False
    restarted = request.GET.get("restarted") == "1"
    if changed and page > 1 and not restarted:
        return 1, True, True
    if time.time() * 1000 < int(turn):
        return page, True, restarted
    pages = whole_number(request.GET.get("pages"), maximum=MAX_PAGE) or 1
    return (page + 1, True, restarted) if page < pages else (1, True, False)


def projector(request, slug: str):
    event = standings_event(request, slug)
    stage = standings_stage(event)
    context = projector_page(event, stage, 1, projector_rows(request.GET.get("rows")))
    context["turn"] = turn_field(PROJECTOR_SECONDS)
    return render(request, "tournaments/projector.html", context)


def projector_next(request, slug: str):
    """A projector page's poll, every few seconds, with the version it shows (``v``), its page and its ``turn``: 204
    while the stored standings are that version and the page's time is not over; else the page to show (the next
    once its time is over), as the live standings' polls get theirs (``live_partial``). Without ``turn`` (the page
    measured its screen), the page asked for, its time starting now. A page sent before the version of now is
    rendered says so (``standings-pending``): the projector asks again a second later. A projector sent back to its
    first page by a change gets that page at the version of now, rendered first when it is not yet.
    """
    event = standings_event(request, slug)
    stage = standings_stage(event)
    version, shown = live_version(event, stage), shown_version(request)
    page_number = whole_number(request.GET.get("page"), maximum=MAX_PAGE) or 1
    showing, polled, restarted = projector_showing(request, page_number, changed=bool(shown) and shown != version)
    same_page = polled and showing == page_number
    if same_page and shown == version:
        return unchanged()
    rows = projector_rows(request.GET.get("rows"))
    language = get_language()
    swapped = "htmx" if request.htmx else "whole"
    page = ":".join(["projector", str(event.pk), language, swapped, str(rows), str(showing)])

    def render() -> str:
        with translation.override(language):
            context = projector_page(event, stage, showing, rows)
            return render_to_string("tournaments/_projector_page.html", context, request=request)

    jumped = restarted and request.GET.get("restarted") != "1"
    sent, html, pending = live_partial(page, version, shown, render, anew=not polled, now=jumped)
    if sent == shown and (same_page or html is None):
        return nothing_new(pending)
    response = HttpResponse(html if same_page else html + turn_field(PROJECTOR_SECONDS, swap=True, restarted=restarted))
    if pending:
        response["HX-Trigger"] = STANDINGS_PENDING
    return response


def player_page(request, slug: str, player_id: int):
    """A player's table now first, then their results, latest first, and their place in the standings."""
    event = visible_event(request, slug)
    player = get_object_or_404(Player.objects.select_related("team", "event"), event=event, pk=player_id)
    seats = overview(player)
    stage = standings_stage(event) if seats.standing else Stage()
    standing = seats.standing
    moved = movement(standing, stage) if standing else None
    context = {
        "event": event,
        "player": player,
        "overview": seats,
        "stage": stage,
        "moved": moved,
        "places": abs(moved or 0),
        "figures": figures(standing, event.game_bundle) if standing else [],
        "plots": player_plots(event, player) if standing else [],
        "rating": shown_rating(player) if event.club_id else None,
    }
    return render(request, "tournaments/player.html", context)


def standings_xlsx(request, slug: str):
    """The standings as an Excel workbook: the same columns as the CSV, numbers as numbers."""
    event = visible_event(request, slug)
    stage = standings_stage(event)
    rows = make_standings_table(event, stage).as_values(exclude_columns=("movement",))
    return xlsx_response(rows, standings_file_name(event, stage, "xlsx"), event.name)


urlpatterns = [
    path("", home, name="home"),
    path("e/<slug:slug>/", event_page, name="event"),
    path("e/<slug:slug>/find/", find_table, name="find_table"),
    path("e/<slug:slug>/standings/", standings, name="standings"),
    path("e/<slug:slug>/standings/live/", standings_live, name="standings_live"),
    path("e/<slug:slug>/standings.csv", standings_csv, name="standings_csv"),
    path("e/<slug:slug>/standings.xlsx", standings_xlsx, name="standings_xlsx"),
    path("e/<slug:slug>/projector/", projector, name="projector"),
    path("e/<slug:slug>/projector/next/", projector_next, name="projector_next"),
    path("e/<slug:slug>/players/<int:player_id>/", player_page, name="player"),
]
