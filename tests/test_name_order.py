"""Names in alphabetical order wherever an organiser reads a list of them, the same on SQLite and PostgreSQL.

The names are a club night's (accents, other alphabets, particles) and the ones a tester saw out of place:
Íñigo, Ólafur and Łukasz sorted after Zoë, and "Núria de la Fuente" after "Núria Sánchez-Vicario".
"""

from __future__ import annotations

import csv
import datetime
import html
import io
import re
from pathlib import Path

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from tournaments.collation import sort_key
from tournaments.models import Event, Player, Standing
from tournaments.services.rounds import standings_order
from tournaments.services.seat_preview import seat_preview

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

CLUB_NIGHT = Path(__file__).resolve().parent / "data" / "players-club-night.csv"
SEEN_OUT_OF_PLACE = [
    ("Zoë Achterberg", "Zoetermeer Spellenclub"),
    ("Íñigo Zubizarreta", "Club Dau Barcelona"),
    ("Ólafur Eggertsson", "Spilavinir Reykjavík"),
    ("Łukasz Żak", "Łódzki Klub Gier"),
    ("Núria Sánchez-Vicario", "Club Dau Barcelona"),
    ("Núria de la Fuente", "Ágora Lúdica Sevilla"),
]


def club_night() -> list[tuple[str, str]]:
    with CLUB_NIGHT.open(encoding="utf-8", newline="") as handle:
        return [(row["name"], row["club"]) for row in csv.DictReader(handle)] + SEEN_OUT_OF_PLACE


@pytest.fixture
def event(make_event) -> Event:
    event = make_event("cheese-rescue", players=0)
    Player.objects.bulk_create(Player(event=event, name=name, club=club) for name, club in club_night())
    return event


def expected_names() -> list[str]:
    return sorted((name for name, _club in club_night()), key=sort_key)


def assert_readers_order(names: list[str]) -> None:
    """The tester's cases, and a few of the club night's, where byte order and alphabetical order differ."""
    before = names.index
    assert before("Íñigo Zubizarreta") < before("Joaquín Nagy-Tóth") < before("Zoë Achterberg")
    assert before("Ólafur Eggertsson") < before("Siobhán Etxeberria") < before("Zoë Achterberg")
    assert before("Łukasz Żak") < before("Małgosia Etxeberria") < before("Zoë Achterberg")
    assert before("Núria de la Fuente") < before("Núria Sánchez-Vicario")
    assert before("Dragoş Dell'Acqua") < before("Éloïse Castelló-Ribera") < before("Françoise Brzęczyszczykiewicz")
    assert before("Zdeněk Nováková") < before("Željko Mäkinen") < before("Παναγιώτης Lefèvre")


def listed_names(page: str) -> list[str]:
    """The players' names as the players page lists them, one per row."""
    return [html.unescape(name) for name in re.findall(r'/edit/">([^<]+)<span class="visually-hidden">', page)]


def test_the_players_page_lists_names_alphabetically(organiser_client, event, django_assert_max_num_queries):
    url = reverse("tournaments:players", args=[event.slug])
    with django_assert_max_num_queries(12):
        page = organiser_client.get(url).content.decode()
    names = listed_names(page)
    assert names == expected_names()
    assert_readers_order(names)


def test_a_filtered_players_page_keeps_the_order(organiser_client, event):
    page = organiser_client.get(reverse("tournaments:players", args=[event.slug]), {"q": "Club Dau"}).content.decode()
    assert listed_names(page) == ["Íñigo Zubizarreta", "Núria Sánchez-Vicario"]


def test_the_club_filter_lists_clubs_alphabetically(organiser_client, event):
    page = organiser_client.get(reverse("tournaments:players", args=[event.slug])).content.decode()
    select = page[page.index('id="player-club"') :]
    select = select[: select.index("</select>")]
    clubs = [html.unescape(club) for club in re.findall(r"<option>([^<]+)</option>", select)]
    assert clubs == sorted({club for _name, club in club_night() if club}, key=sort_key)
    assert clubs.index("Ágora Lúdica Sevilla") < clubs.index('Associació Lúdica "El Dau Groc", Girona')
    assert clubs.index("Łódzki Klub Gier") < clubs.index("Spilavinir Reykjavík")


def test_the_csv_and_excel_exports_list_names_alphabetically(organiser_client, event):
    body = organiser_client.get(reverse("tournaments:players_csv", args=[event.slug])).content.decode("utf-8")
    rows = list(csv.reader(io.StringIO(body.lstrip("\ufeff"))))
    assert [row[0] for row in rows[1:]] == expected_names()
    assert {row[3] for row in rows[1:]} == {"No"} and {row[4] for row in rows[1:]} == {"Yes"}
    response = organiser_client.get(reverse("tournaments:players_xlsx", args=[event.slug]))
    sheet = load_workbook(io.BytesIO(response.content)).active
    values = [[cell.value for cell in row] for row in sheet.iter_rows()]
    assert [row[0] for row in values[1:]] == expected_names()
    assert values[1][3:5] == [False, True]


def test_a_csv_export_says_yes_and_no_in_the_readers_language(organiser_client, event):
    response = organiser_client.get(
        reverse("tournaments:players_csv", args=[event.slug]), headers={"accept-language": "es"}
    )
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8").lstrip("\ufeff"))))
    assert rows[0][0] != "Name" and {row[4] for row in rows[1:]} == {"Sí"}


def test_the_seat_preview_names_players_alphabetically(event):
    preview = seat_preview(event, 1)
    assert preview.seated == expected_names()
    assert_readers_order(preview.seated)


def test_players_without_a_standing_follow_alphabetically_and_ties_too(event):
    by_name = {player.name: player for player in event.players.all()}
    ranked = ["Zoë Achterberg", "Łukasz Żak", "Íñigo Zubizarreta"]
    Standing.objects.bulk_create(
        Standing(event=event, player=by_name[name], rank=rank) for name, rank in zip(ranked, [1, 2, 2], strict=True)
    )
    order = [Player.objects.get(pk=pk).name for pk in standings_order(event)]
    assert order[:3] == ["Zoë Achterberg", "Íñigo Zubizarreta", "Łukasz Żak"]
    assert order[3:] == [name for name in expected_names() if name not in ranked]


def test_the_dashboard_lists_one_days_events_alphabetically(organiser_client, organiser, django_assert_max_num_queries):
    names = ["Zoë's Open", "Òpera Cup", "Ñandú Night", "Open of Łódź"]
    for name in names:
        Event.objects.create(name=name, date=datetime.date(2026, 11, 22), game="veggies").organisers.add(organiser)
    older = Event.objects.create(name="Autumn Cup", date=datetime.date(2026, 10, 1), game="veggies")
    older.organisers.add(organiser)
    with django_assert_max_num_queries(6):
        page = organiser_client.get(reverse("tournaments:dashboard")).content.decode()
    shown = [html.unescape(name) for name in re.findall(r'/e/[^/]+/organiser/"><strong>([^<]+)</strong>', page)]
    assert shown == ["Ñandú Night", "Open of Łódź", "Òpera Cup", "Zoë's Open", "Autumn Cup"]
