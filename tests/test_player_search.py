"""The organiser's *Find a player* and roll call: accents, case and punctuation do not matter, as in the public *Find
my table*, each typed word begins a word of the name (or club), and the page costs as many queries whatever the
search."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments.models import Player
from tournaments.services.find_table import folded
from tournaments.services.players import begins_words, parse_player_csv, roll_call_matches, search_text, search_words

pytestmark = pytest.mark.django_db

DATA = Path(__file__).parent / "data"
MORE = ["Núria Sánchez", "Łukasz Wiśniewski", "Søren Ærø", "Siobhán O'Neill", "Íñigo Ruiz", "Ólafur Þórsson"]


@pytest.fixture
def club_night(make_event):
    """The 48 players of a club night's list, and a few more whose names need folding."""
    event = make_event("cheese-rescue", players=0)
    rows = parse_player_csv((DATA / "players-club-night.csv").read_text(encoding="utf-8"))
    names = [row.name for row in rows] + MORE
    Player.objects.bulk_create(Player(event=event, name=name, club="Club Ñandú") for name in names)
    return event


def found(client, event, query: str) -> list[str]:
    page = client.get(reverse("tournaments:players", args=[event.slug]), {"q": query}).content.decode()
    return sorted(p.name for p in event.players.all() if f">{p.name.replace(chr(39), '&#x27;')}<" in page)


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("nuria", ["Núria Sánchez"]),
        ("NÚRIA", ["Núria Sánchez"]),
        ("lukasz", ["Łukasz Wiśniewski"]),
        ("soren", ["Søren Ærø"]),
        ("oneill", ["Siobhán O'Neill"]),
        ("o'neill", ["Siobhán O'Neill"]),
        ("inigo", ["Íñigo Ruiz"]),
        ("thorsson", ["Ólafur Þórsson"]),
        ("zeljko", ["Željko Mäkinen"]),
        ("hans jurgen", ["Hans-Jürgen Jørgensen"]),
        ("dell acqua", ["Dragoş Dell'Acqua"]),
        ("acqua", ["Dragoş Dell'Acqua"]),
        ("ellacqua", []),
        ("ssandro", []),
        ("nobody like this", []),
    ],
)
def test_the_search_ignores_accents_case_and_punctuation(organiser_client, club_night, query, names):
    assert found(organiser_client, club_night, query) == names


def test_the_search_finds_a_club_without_its_accents(organiser_client, club_night):
    assert len(found(organiser_client, club_night, "nandu")) == 48 + len(MORE)


def test_the_search_folds_names_as_the_public_search_does():
    assert search_text("Siobhán O'Neill") == "siobhanoneill"
    assert search_text("Łukasz") == folded("Łukasz") == "lukasz"


def test_the_page_costs_as_many_queries_with_and_without_a_search(organiser_client, club_night):
    url = reverse("tournaments:players", args=[club_night.slug])
    counts = []
    for query in ({}, {"q": "nuria"}, {"q": "d'alessandro", "show": "out"}):
        with CaptureQueriesContext(connection) as queries:
            assert organiser_client.get(url, query).status_code == 200
        counts.append(len(queries))
    assert len(set(counts)) == 1


@pytest.mark.parametrize(
    ("name", "typed", "found"),
    [
        ("Lucía D'Angelo Fernández", "dangelo", True),
        ("Lucía D'Angelo Fernández", "d'angelo", True),
        ("Lucía D'Angelo Fernández", "angelo", True),
        ("Lucía D'Angelo Fernández", "dangelo f", True),
        ("Lucía D'Angelo Fernández", "DANGELO fernan", True),
        ("Lucía D'Angelo Fernández", "dangelo n", False),
        ("Lucía D'Angelo Fernández", "ernandez", False),
        ("Lucía D'Angelo Fernández", "ucia", False),
        ("Nicolás D'Angelo", "dangelo n", True),
        ("Hans-Jürgen Jørgensen", "jurgen", True),
        ("Hans-Jürgen Jørgensen", "gensen", False),
        ("Ólafur Þórsson", "thor", True),
    ],
)
def test_each_typed_word_begins_a_word_of_the_name(name, typed, found):
    assert begins_words(name, search_words(typed)) is found


def test_the_roll_call_matches_word_starts_not_letters_inside_words(make_event):
    event = make_event("cheese-rescue", players=0)
    names = ["Lucía D'Angelo Fernández", "Nicolás D'Angelo", "Anna Nagy"]
    Player.objects.bulk_create(Player(event=event, name=name) for name in names)
    assert [player.name for player in roll_call_matches(event, "dangelo n")] == ["Nicolás D'Angelo"]
    assert [player.name for player in roll_call_matches(event, "dangelo")] == names[:2]
    assert [player.name for player in roll_call_matches(event, "n")] == ["Anna Nagy", "Nicolás D'Angelo"]
