"""A season's ladder: each event's final places turned into season points, each person's best results summed.

Season points: in a tournament where N players have a result, the winner scores N, the next N - 1, down to 1 for
the last; players tied in the standings share the place and its points. With the "best N" rule only each person's
N highest scores count (on equal scores, the earlier tournament).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from scoring.ranking import competition_ranks

from ..collation import sort_key
from ..models import Event, Person, Season, Standing


def season_points(rank: int, ranked: int) -> int:
    """The season points of a final place among ``ranked`` players with a result: N for the first ... 1 for the last."""
    return max(ranked + 1 - rank, 0)


def counted(points: Sequence[int | None], best: int | None) -> set[int]:
    """The positions of the results that count: all of them, or the ``best`` highest (earlier first on equal ones)."""
    played = [i for i, p in enumerate(points) if p is not None]
    if best is None:
        return set(played)
    return set(sorted(played, key=lambda i: (-points[i], i))[:best])


@dataclass(frozen=True)
class EventResult:
    """One person's result at one tournament of the season."""

    rank: int
    points: int
    counted: bool


@dataclass
class LadderRow:
    person: Person
    results: list[EventResult | None]
    total: int = 0
    rank: int = 0


@dataclass
class Ladder:
    season: Season
    events: list[Event]
    rows: list[LadderRow] = field(default_factory=list)
    #: Players with a result in the season's tournaments who are linked to no person: they are not on the ladder.
    unlinked: int = 0
    #: How many players had a result at each event (its winner's season points).
    field_sizes: list[int] = field(default_factory=list)


def public_seasons(event: Event) -> list[Season]:
    """The seasons the event counts towards whose ladder anyone may see (every event of them public), in one query."""
    private = Season.objects.filter(events__public=False).values("pk")
    seasons = event.seasons.select_related("club").exclude(pk__in=private)
    return list(seasons.order_by("-created_at", "name"))


def season_events(season: Season) -> list[Event]:
    """The season's tournaments, oldest first."""
    return list(season.events.order_by("date", "name", "pk"))


def season_ladder(season: Season) -> Ladder:
    """The ladder of a season in three queries: its events, their final standings, the people ranked."""
    events = season_events(season)
    position = {event.pk: i for i, event in enumerate(events)}
    standings = Standing.objects.filter(event__in=events, rounds_played__gt=0).values_list(
        "event_id", "rank", "player__person_id"
    )
    field_sizes = [0] * len(events)
    places: dict[int, list[int | None]] = {}
    unlinked = 0
    for event_id, rank, person_id in standings:
        field_sizes[position[event_id]] += 1
        if person_id is None:
            unlinked += 1
        else:
            places.setdefault(person_id, [None] * len(events))[position[event_id]] = rank
    people = Person.objects.in_bulk(list(places))
    for person in people.values():
        person.club = season.club
    rows = []
    for person_id, ranks in places.items():
        points = [None if rank is None else season_points(rank, field_sizes[i]) for i, rank in enumerate(ranks)]
        chosen = counted(points, season.counted)
        results = [None if rank is None else EventResult(rank, points[i], i in chosen) for i, rank in enumerate(ranks)]
        total = sum(points[i] for i in chosen)
        rows.append(LadderRow(people[person_id], results, total))
    rows.sort(key=lambda row: (-row.total, sort_key(row.person.name), row.person.pk))
    for row, rank in zip(rows, competition_ranks([(row.total,) for row in rows]), strict=True):
        row.rank = rank
    return Ladder(season, events, rows, unlinked, field_sizes)


def ladder_table(ladder: Ladder) -> list[list[object]]:
    """The ladder as rows of cells for a spreadsheet: a heading row, then rank, name, club, each event, total.

    An event's cell is its season points, in brackets when they do not count; empty when the person did not play.
    """
    heading = [_("Rank"), _("Name"), _("Club"), *(event.name for event in ladder.events), _("Total")]
    rows: list[list[object]] = [heading]
    for row in ladder.rows:
        cells: list[object] = [row.rank, row.person.name, row.person.affiliation]
        for result in row.results:
            cells.append("" if result is None else result.points if result.counted else f"({result.points})")
        rows.append([*cells, row.total])
    return rows
