"""A club's season: points by final place, all or best N results, ties, unlinked players; its pages and files."""

from __future__ import annotations

import csv
import datetime
import io

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.ranking import competition_ranks
from tournaments.models import Club, Event, Person, Player, Season, Standing
from tournaments.models.seasons import PointsRule
from tournaments.services.ladder import counted, season_ladder, season_points


@pytest.fixture
def club(db, organiser):
    club = Club.objects.create(name="Circolo Ludico Roma")
    club.organisers.add(organiser)
    return club


def night(club, day: int, ranks: dict[str, int], unlinked: dict[str, int] | None = None, public=True) -> Event:
    """A tournament of the club whose final standings rank ``ranks`` (linked to the club's people by name) and
    ``unlinked`` players (linked to nobody)."""
    event = Event.objects.create(
        name=f"Night {day}", date=datetime.date(2026, 1, day), game="vegetables", club=club, public=public
    )
    for name, rank in ranks.items():
        person, _ = Person.objects.get_or_create(club=club, name=name)
        player = Player.objects.create(event=event, name=name, person=person)
        Standing.objects.create(event=event, player=player, rank=rank, rounds_played=3)
    for name, rank in (unlinked or {}).items():
        player = Player.objects.create(event=event, name=name)
        Standing.objects.create(event=event, player=player, rank=rank, rounds_played=3)
    return event


def season_of(club, events, rule=PointsRule.ALL, best=None) -> Season:
    season = Season.objects.create(club=club, name="Winter 2026", rule=rule, best=best)
    season.events.set(events)
    return season


def test_the_winner_scores_as_many_points_as_players_and_the_last_one():
    assert [season_points(rank, 4) for rank in (1, 2, 3, 4)] == [4, 3, 2, 1]
    assert season_points(2, 4) == season_points(2, 4)


def test_best_n_keeps_the_highest_and_the_earlier_of_equal_ones():
    assert counted([5, None, 2, 5, 3], 2) == {0, 3}
    assert counted([1, 4, 4], 1) == {1}
    assert counted([3, None, 1], None) == {0, 2}


def test_equal_totals_share_a_rank_and_the_next_rank_skips():
    assert competition_ranks([(t,) for t in [10, 8, 8, 5, 5, 5, 1]]) == [1, 2, 2, 4, 4, 4, 7]


def test_all_results_count_and_a_player_missing_a_night_scores_nothing_there(club):
    first = night(club, 1, {"Ada": 1, "Bea": 2, "Cyd": 3})
    second = night(club, 8, {"Bea": 1, "Ada": 2})
    ladder = season_ladder(season_of(club, [second, first]))
    assert [event.name for event in ladder.events] == ["Night 1", "Night 8"]
    rows = {row.person.name: row for row in ladder.rows}
    assert [r.points for r in rows["Ada"].results] == [3, 1]
    assert rows["Ada"].total == rows["Bea"].total == 4
    assert rows["Ada"].rank == rows["Bea"].rank == 1
    assert [row.person.name for row in ladder.rows] == ["Ada", "Bea", "Cyd"]
    assert rows["Cyd"].results[1] is None and rows["Cyd"].rank == 3


def test_best_n_counts_only_each_persons_best_results(club):
    events = [
        night(club, 1, {"Ada": 1, "Bea": 2, "Cyd": 3}),
        night(club, 8, {"Ada": 3, "Bea": 1, "Cyd": 2}),
        night(club, 15, {"Ada": 1, "Bea": 3, "Cyd": 2}),
    ]
    ladder = season_ladder(season_of(club, events, PointsRule.BEST, 2))
    rows = {row.person.name: row for row in ladder.rows}
    assert [(r.points, r.counted) for r in rows["Ada"].results] == [(3, True), (1, False), (3, True)]
    assert rows["Ada"].total == 6 and rows["Bea"].total == 5 and rows["Cyd"].total == 4
    assert [row.rank for row in ladder.rows] == [1, 2, 3]


def test_tied_players_share_the_place_and_its_points(club):
    event = night(club, 1, {"Ada": 1, "Bea": 1, "Cyd": 3})
    rows = {row.person.name: row for row in season_ladder(season_of(club, [event])).rows}
    assert rows["Ada"].total == rows["Bea"].total == 3 and rows["Cyd"].total == 1


def test_unlinked_players_count_in_the_field_but_are_not_on_the_ladder(club):
    event = night(club, 1, {"Ada": 2}, unlinked={"Zoe": 1, "Yan": 3})
    ladder = season_ladder(season_of(club, [event]))
    assert ladder.unlinked == 2 and ladder.field_sizes == [3]
    assert [(row.person.name, row.total) for row in ladder.rows] == [("Ada", 2)]


def test_a_best_season_says_how_many_results_count(club):
    from django.core.exceptions import ValidationError

    season = Season(club=club, name="Spring", rule=PointsRule.BEST)
    with pytest.raises(ValidationError):
        season.full_clean()


def test_the_organiser_creates_a_season_of_the_clubs_events(organiser_client, club):
    events = [night(club, 1, {"Ada": 1}), night(club, 8, {"Ada": 1})]
    other = Event.objects.create(name="Elsewhere", date=datetime.date(2026, 1, 2), game="vegetables")
    url = reverse("tournaments:season_new", args=[club.slug])
    page = organiser_client.get(url).content.decode()
    assert "Night 1" in page and "Elsewhere" not in page
    refused = organiser_client.post(url, {"name": "Winter", "rule": "all", "events": [other.pk]})
    assert refused.status_code == 400
    response = organiser_client.post(
        url, {"name": "Winter", "rule": "best", "best": "1", "events": [e.pk for e in events]}
    )
    season = Season.objects.get()
    assert response.status_code == 302 and response.url == season.get_absolute_url()
    assert season.counted == 1 and set(season.events.all()) == set(events)


def test_the_ladder_is_public_only_when_every_event_of_it_is(organiser_client, club):
    client = Client()
    public = night(club, 1, {"Ada": 1, "Bea": 2})
    private = night(club, 8, {"Ada": 2, "Bea": 1}, public=False)
    season = season_of(club, [public, private])
    url = season.get_absolute_url()
    assert client.get(url).status_code == 404
    assert client.get(reverse("tournaments:season_csv", args=[club.slug, season.pk])).status_code == 404
    assert organiser_client.get(url).status_code == 200
    season.events.remove(private)
    assert client.get(url).status_code == 200
    assert reverse("tournaments:seasons", args=[club.slug]).startswith("/organiser/")


def test_the_ladder_page_reads_a_few_queries_and_names_unlinked_players(
    organiser_client, club, django_assert_max_num_queries
):
    events = [night(club, day, {f"P{i}": i + 1 for i in range(12)}, unlinked={"Zoe": 13}) for day in (1, 8, 15, 22)]
    season = season_of(club, events, PointsRule.BEST, 3)
    with django_assert_max_num_queries(12):
        response = organiser_client.get(season.get_absolute_url())
    page = response.content.decode()
    assert response.status_code == 200
    assert "4 players are linked to nobody" in page and "People page" in page
    assert "Each person&#x27;s best 3 results count" in page


def test_the_ladder_as_csv_xlsx_and_pdf(organiser_client, club):
    events = [
        night(club, 1, {"Íñigo Ærøskøbing-Łukasiewicz": 1, "Bea": 2}),
        night(club, 8, {"Bea": 1, "Cyd": 2, "Dan": 3}),
    ]
    season = season_of(club, events, PointsRule.BEST, 1)
    args = [club.slug, season.pk]
    text = organiser_client.get(reverse("tournaments:season_csv", args=args)).content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["Rank", "Name", "Club", "Night 1", "Night 8", "Total"]
    assert rows[1] == ["1", "Bea", "", "(1)", "3", "3"]
    assert rows[2] == ["2", "Cyd", "", "", "2", "2"]
    assert rows[3] == ["2", "Íñigo Ærøskøbing-Łukasiewicz", "", "2", "", "2"]
    data = organiser_client.get(reverse("tournaments:season_xlsx", args=args)).content
    sheet = load_workbook(io.BytesIO(data)).active
    assert [cell.value for cell in sheet[2]] == [1, "Bea", None, "(1)", 3, 3]
    pdf = organiser_client.get(reverse("tournaments:season_pdf", args=args))
    assert pdf["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(pdf.content))
    words = reader.pages[0].extract_text()
    assert len(reader.pages) == 1
    assert "Winter 2026" in words and "Season ladder" in words and "Bea" in words and "(1)" in words


def test_an_event_moved_to_another_club_leaves_the_old_clubs_seasons(club):
    from tournaments.services.people import club_changed

    event = night(club, 1, {"Ada": 1})
    season = season_of(club, [event])
    other = Club.objects.create(name="Tana dei Goblin")
    event.club = other
    event.save(update_fields=["club"])
    club_changed(event, club.pk)
    assert not season.events.exists()


def test_the_seasons_pages_list_and_edit_a_season(organiser_client, club, django_assert_max_num_queries):
    event = night(club, 1, {"Ada": 1})
    season = season_of(club, [event], PointsRule.BEST, 2)
    with django_assert_max_num_queries(6):
        listing = organiser_client.get(reverse("tournaments:seasons", args=[club.slug]))
    assert "Winter 2026" in listing.content.decode() and "Best 2 results count" in listing.content.decode()
    url = reverse("tournaments:season_edit", args=[club.slug, season.pk])
    assert organiser_client.get(url).status_code == 200
    response = organiser_client.post(url, {"name": "Winter", "rule": "all", "best": "2", "events": [event.pk]})
    season.refresh_from_db()
    assert response.status_code == 302 and season.name == "Winter" and season.counted is None and season.best is None


def test_the_event_page_links_to_its_public_seasons_only(club, django_assert_max_num_queries):
    first, second = night(club, 1, {"Ada": 1}), night(club, 8, {"Ada": 1}, public=False)
    open_season, closed_season = season_of(club, [first]), season_of(club, [first, second])
    closed_season.name = "Members only"
    closed_season.save(update_fields=["name"])
    with django_assert_max_num_queries(6):
        html = Client().get(first.get_absolute_url()).content.decode()
    assert open_season.get_absolute_url() in html and "Members only" not in html
