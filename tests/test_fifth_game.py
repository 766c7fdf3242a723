"""A fifth game, registered only here, runs a whole event with nothing outside its bundle changed.

``tests/games/high_score.py`` is a plain game (one number per player) added through ``settings.EXTRA_GAMES``,
the way any bundle is found. Set-up, players, seating, table entry, the JSON API, printing, standings and a
backup must all work for it.
"""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess

import pytest
from django.test import TestCase
from django.urls import reverse
from pypdf import PdfReader

from tournaments import games
from tournaments.models import Event, Manche
from tournaments.services.backup import export_event, import_event

pytestmark = pytest.mark.django_db

KEY = "high-score"
NAMES = ["Ada Rossi", "Bea Martínez", "Cyd Nowak", "Dan Bianchi", "Eva Łukasiewicz", "Fabio Esposito"]


@pytest.fixture(autouse=True)
def fifth_game(settings):
    settings.EXTRA_GAMES = ["tests.games.high_score"]
    yield games.get_game(KEY)


def set_up(client) -> Event:
    """The organiser creates the event through the set-up form, with the game's own defaults."""
    page = client.get(reverse("tournaments:event_new"), {"game": KEY}).content.decode()
    assert f'<option value="{KEY}" selected>High Score</option>' in page
    assert 'value="standard"' in page
    data = {
        "name": "High Score Cup",
        "date": "2026-11-21",
        "game": KEY,
        "variant": "",
        "rounds_planned": "2",
        "manches_per_round": "1",
        "table_size": "3",
        "seating_method": "mixer",
        "placement_points": "",
        "confirmation_required": "on",
        "public": "on",
        "language": "en",
        "paper_size": "A4",
    }
    response = client.post(reverse("tournaments:event_new"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Event.objects.get(game=KEY)


def test_a_game_found_through_the_settings_is_one_of_the_games(fifth_game):
    assert KEY in [game.key for game in games.all_games()]
    assert games.game_choices()[-1] == (KEY, "High Score")
    assert games.score({"game": KEY, "players": ["A", "B"], "scores": [3, 7]})["players"][1]["rank"] == 1


def test_the_fifth_game_runs_a_whole_event(organiser_client, client, tmp_path):
    event = set_up(organiser_client)
    text = "\n".join(NAMES)
    organiser_client.post(reverse("tournaments:players_import", args=[event.slug]), {"text": text, "action": "confirm"})
    assert event.players.count() == len(NAMES)

    response = organiser_client.post(
        reverse("tournaments:round_seat", args=[event.slug]), {"method": "mixer", "confirm": "1"}
    )
    assert response.status_code == 302
    round_ = event.rounds.get(number=1)
    assert sorted(len(table.seats.all()) for table in round_.tables.all()) == [3, 3]
    organiser_client.post(reverse("tournaments:round_publish", args=[event.slug, 1]))
    organiser_client.post(reverse("tournaments:round_start", args=[event.slug, 1]))
    first, second = round_.tables.order_by("number")

    # Table entry through the table's link: the plain form has a "Score" row, one number per player.
    page = client.get(reverse("tournaments:table", args=[first.token])).content.decode()
    assert "Score" in page and 'name="scores[2]"' in page
    save = reverse("tournaments:table_save", args=[first.token, 1])
    bad = client.post(save, {"version": "0", "seat": "1", "scores[0]": "5", "scores[1]": "x", "scores[2]": "9"})
    assert bad.status_code == 400 and "Write a whole number here." in bad.content.decode()
    with TestCase.captureOnCommitCallbacks(execute=True):  # the commit's work, as outside a test's transaction
        client.post(save, {"version": "0", "seat": "1", "scores[0]": "5", "scores[1]": "12", "scores[2]": "9"})
    assert [p["rank"] for p in Manche.objects.get(table=first).result["players"]] == [3, 1, 2]

    # The JSON API.
    api = reverse("tournaments:api_table_sheet", args=[second.token])
    names = client.get(api).json()["players"]
    body = {"manche": 1, "version": 0, "document": {"game": KEY, "players": names, "scores": [40, 40, 1]}}
    with TestCase.captureOnCommitCallbacks(execute=True):
        answer = client.put(api, json.dumps(body), content_type="application/json")
    assert answer.status_code == 200 and [p["rank"] for p in answer.json()["players"]] == [1, 1, 3]

    # Standings, on the page and in the CSV: tied firsts share 4 + 2 points.
    standings = client.get(reverse("tournaments:standings", args=[event.slug])).content.decode()
    assert all(name in standings for name in NAMES)
    rows = list(
        csv.reader(
            io.StringIO(client.get(reverse("tournaments:standings_csv", args=[event.slug])).content.decode("utf-8-sig"))
        )
    )
    points = rows[0].index("Tournament points")
    assert sorted(row[points] for row in rows[1:]) == ["1", "1", "2", "3", "3", "4"]

    # Printing: the score sheets (with the plain sheet's rows and the table's link) and the standings.
    sheets = organiser_client.get(reverse("tournaments:print_sheets", args=[event.slug, 1]))
    pages = [page.extract_text() for page in PdfReader(io.BytesIO(sheets.content)).pages]
    assert len(pages) == 2
    assert "Score" in pages[0] and "Total" in pages[0] and "High Score" in pages[0]
    assert f"/t/{first.token}/" in " ".join(pages[0].split())
    pdf = tmp_path / "sheets.pdf"
    pdf.write_bytes(sheets.content)
    subprocess.run(["pdftoppm", "-r", "150", "-png", "-singlefile", pdf, tmp_path / "page"], check=True)
    decoded = subprocess.run(
        ["zbarimg", "--raw", "-q", "-Sdisable", "-Sqrcode.enable", tmp_path / "page.png"],
        capture_output=True,
        text=True,
    )
    assert decoded.stdout.strip() == f"http://testserver/t/{first.token}/"
    printed = organiser_client.get(reverse("tournaments:print_standings", args=[event.slug]))
    assert "Tournament points" in " ".join(PdfReader(io.BytesIO(printed.content)).pages[0].extract_text().split())

    # Completing the round, then a backup that imports as the same event.
    organiser_client.post(reverse("tournaments:round_complete", args=[event.slug, 1]))
    assert event.rounds.get(number=1).status == "complete"
    backup = export_event(event)
    assert backup["event"]["game"] == KEY
    event.delete()
    restored = import_event(backup)
    assert restored.game == KEY and restored.players.count() == len(NAMES)
    assert re.search(r"High Score", client.get(reverse("tournaments:event", args=[restored.slug])).content.decode())


def test_the_demo_includes_every_registered_game_that_has_one(fifth_game):
    from tournaments.demo import load_demo

    events = load_demo()
    assert KEY in [event.game for event in events]
    assert Manche.objects.filter(table__round__event__game=KEY, result__isnull=False).exists()
