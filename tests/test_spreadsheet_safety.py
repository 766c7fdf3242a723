"""Spreadsheets never fail and never hurt: every Excel download opens whatever the names hold, and a player list
upload is refused within its limits, quickly and in little memory, before anything unpacks it whole."""

from __future__ import annotations

import datetime
import io
import itertools
import random
import time
import tracemalloc
import zipfile
from collections.abc import Iterable
from types import SimpleNamespace

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook, load_workbook

from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments import spreadsheets
from tournaments.models import Club, Event, Person, Player, Season, Standing
from tournaments.spreadsheets import sheet_title

pytestmark = pytest.mark.django_db

TITLE = "A/B\\C?D*E[F]G:H"
ANNE, BOBBY = "Ann\x01e", "Bob\x1bby"
FORBIDDEN_IN_TITLES = set("/\\?*[]:")

CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    "</Types>"
)
PACKAGE_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Target="xl/workbook.xml" '
    'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"/>'
    "</Relationships>"
)
WORKBOOK = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    '<sheets><sheet name="Players" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
WORKBOOK_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Target="worksheets/sheet1.xml" '
    'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"/>'
    "</Relationships>"
)
SHEET_START = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
)


def handmade_workbook(rows: Iterable[str], head: str = "") -> bytes:
    """An .xlsx whose only sheet holds ``rows`` (pieces of its sheet data's XML) after ``head``, deflated as it is
    written."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("[Content_Types].xml", CONTENT_TYPES)
        archive.writestr("_rels/.rels", PACKAGE_RELS)
        archive.writestr("xl/workbook.xml", WORKBOOK)
        archive.writestr("xl/_rels/workbook.xml.rels", WORKBOOK_RELS)
        with archive.open("xl/worksheets/sheet1.xml", "w") as sheet:
            sheet.write(f"{SHEET_START}{head}<sheetData>".encode())
            for piece in rows:
                sheet.write(piece.encode())
            sheet.write(b"</sheetData></worksheet>")
    return buffer.getvalue()


def one_row(cells: str) -> bytes:
    return handmade_workbook(['<row r="1">', cells, "</row>"])


def row_bomb(cell: str, count: int) -> bytes:
    """A workbook whose first row holds ``count`` copies of ``cell``, written a hundred thousand at a time."""
    batch = cell * 100_000
    return handmade_workbook(['<row r="1">', *[batch] * (count // 100_000), "</row>"])


def random_cells(count: int, numbers: random.Random) -> str:
    """``count`` cells of small numbers, which pack about as tightly as a real sheet's."""
    return "".join(f"<c><v>{numbers.randrange(1000)}</v></c>" for _ in range(count))


def upload(client, event, name: str, content: bytes, text: str = ""):
    url = reverse("tournaments:players_import", args=[event.slug])
    return client.post(url, {"file": SimpleUploadedFile(name, content), "text": text, "action": "preview"})


def measured_upload(client, event, name: str, content: bytes, text: str = ""):
    """The answer to the upload, the seconds it took and the most memory Python held meanwhile, in bytes; the import
    page is loaded first, so the app's modules and templates are not counted."""
    client.get(reverse("tournaments:players_import", args=[event.slug]))
    tracemalloc.start()
    try:
        started = time.monotonic()
        response = upload(client, event, name, content, text)
        seconds = time.monotonic() - started
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return response, seconds, peak


def file_errors(response) -> list[str]:
    return response.context["form"].errors.get("file", [])


def opened(response):
    assert response.status_code == 200
    return load_workbook(io.BytesIO(response.content))


def values(sheet) -> list[object]:
    return [cell.value for row in sheet.iter_rows() for cell in row]


def assert_valid_title(title: str) -> None:
    assert title and len(title) <= 31
    assert not FORBIDDEN_IN_TITLES & set(title)
    assert not title.startswith("'") and not title.endswith("'")


@pytest.fixture
def club(db, organiser):
    club = Club.objects.create(name="Circolo Ludico Roma")
    club.organisers.add(organiser)
    return club


# Downloads ---------------------------------------------------------------------------------------------------------


def test_the_standings_download_opens_with_control_characters_and_a_sheet_unfit_name(client, make_event):
    event = make_event("cheese-rescue", players=4, manches_per_round=1)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    Player.objects.filter(pk=ids[0]).update(name=ANNE)
    Player.objects.filter(pk=ids[1]).update(name=BOBBY, club="Club\x1b B")
    Event.objects.filter(pk=event.pk).update(name=TITLE)
    enter(seat_by_hand(event, 1, [ids]).tables.get(), cheese_tallies([6, 4, 2, 1]))
    sheet = opened(client.get(reverse("tournaments:standings_xlsx", args=[event.slug]))).active
    assert {"Anne", "Bobby", "Club B"} <= set(values(sheet))
    assert_valid_title(sheet.title)
    assert sheet.title == "A B C D E F G H"


def test_the_players_download_opens_with_control_characters(organiser_client, make_event):
    event = make_event("cheese-rescue", players=2)
    Player.objects.filter(event=event, name="Player 00").update(name=ANNE, club="Club\x01 A")
    Player.objects.filter(event=event, name="Player 01").update(name=BOBBY)
    sheet = opened(organiser_client.get(reverse("tournaments:players_xlsx", args=[event.slug]))).active
    assert {"Anne", "Bobby", "Club A"} <= set(values(sheet))
    assert_valid_title(sheet.title)


def test_the_ladder_download_opens_with_control_characters_and_a_sheet_unfit_name(organiser_client, club):
    event = Event.objects.create(name="Night\x1b 1", date=datetime.date(2026, 1, 8), game="vegetables", club=club)
    for rank, name in enumerate((ANNE, BOBBY), start=1):
        player = Player.objects.create(event=event, name=name, person=Person.objects.create(club=club, name=name))
        Standing.objects.create(event=event, player=player, rank=rank, rounds_played=3)
    season = Season.objects.create(club=club, name=TITLE)
    season.events.set([event])
    response = organiser_client.get(reverse("tournaments:season_xlsx", args=[club.slug, season.pk]))
    sheet = opened(response).active
    assert {"Anne", "Bobby", "Night 1"} <= set(values(sheet))
    assert_valid_title(sheet.title)
    assert sheet.title == "A B C D E F G H"


# Sheet names -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "title, taken, expected",
    [
        (TITLE, [], "A B C D E F G H"),
        ("'Quoted'", [], "Quoted"),
        ("???", [], "Sheet"),
        ("A very long championship name, spring edition", [], "A very long championship name,"),
        ("Club\x01 night", ["CLUB NIGHT"], "Club night (2)"),
        ("Club night", ["club night", "Club night (2)"], "Club night (3)"),
        ("x" * 40, ["x" * 31], "x" * 27 + " (2)"),
        ("History", [], "History (2)"),
    ],
)
def test_sheet_names_are_ones_every_spreadsheet_accepts(title, taken, expected):
    assert sheet_title(title, taken) == expected
    assert_valid_title(expected)


def test_every_sheet_of_a_workbook_gets_a_name_of_its_own():
    workbook = Workbook(write_only=True)
    for _ in range(3):
        spreadsheets.add_sheet(workbook, TITLE)
    buffer = io.BytesIO()
    workbook.save(buffer)
    assert load_workbook(buffer).sheetnames == ["A B C D E F G H", "A B C D E F G H (2)", "A B C D E F G H (3)"]


# Uploads -----------------------------------------------------------------------------------------------------------


def test_the_handmade_workbook_of_these_tests_is_read_when_small(organiser_client, make_event):
    event = make_event("cheese-rescue", players=0)
    cells = '<c t="inlineStr"><is><t>Ada</t></is></c><c t="inlineStr"><is><t>Circolo</t></is></c>'
    response = upload(organiser_client, event, "players.xlsx", one_row(cells))
    assert response.status_code == 200 and "Ada" in response.content.decode()


def test_a_row_of_six_million_cells_is_refused_at_once_in_little_memory(organiser_client, make_event):
    event = make_event("cheese-rescue", players=0)
    bomb = row_bomb("<c><v>1</v></c>", 6_000_000)
    assert len(bomb) < 1_000_000
    typed = "Ada, Circolo\nBea, Circolo"
    response, seconds, peak = measured_upload(organiser_client, event, "players.xlsx", bomb, typed)
    assert response.status_code == 400
    assert file_errors(response) == ["The file is too large once unpacked: at most 20 MB."]
    assert seconds < 2
    assert peak < 100_000_000
    assert response.context["form"]["text"].value() == typed


def test_a_row_of_more_cells_than_a_spreadsheet_has_columns_is_refused_in_little_memory(organiser_client, make_event):
    event = make_event("cheese-rescue", players=0)
    workbook = one_row(random_cells(300_000, random.Random(7)))
    response, _, peak = measured_upload(organiser_client, event, "players.xlsx", workbook)
    assert response.status_code == 400
    assert file_errors(response) == ["A row has too many cells: at most 16384."]
    assert peak < 100_000_000


def test_a_sheet_of_more_cells_than_allowed_is_refused(organiser_client, make_event):
    event = make_event("cheese-rescue", players=0)
    numbers = random.Random(7)
    workbook = handmade_workbook(f"<row>{random_cells(60, numbers)}</row>" for _ in range(2_000))
    response = upload(organiser_client, event, "players.xlsx", workbook)
    assert response.status_code == 400
    assert file_errors(response) == ["A sheet has too many cells: at most 100000."]


def test_a_part_packed_far_tighter_than_a_spreadsheet_is_refused(organiser_client, make_event):
    event = make_event("cheese-rescue", players=0)
    rows = '<row r="1"><c t="inlineStr"><is><t>' + " " * 5_000_000 + "Ada</t></is></c></row>"
    response = upload(organiser_client, event, "players.xlsx", handmade_workbook([rows]))
    assert response.status_code == 400
    assert file_errors(response) == ["A part of the file unpacks to more than 100 times its packed size."]


def test_a_sheet_claiming_the_largest_size_is_read_as_it_is(organiser_client, make_event):
    event = make_event("cheese-rescue", players=0)
    rows = (f'<row r="{n}"><c t="inlineStr"><is><t>Player {n}</t></is></c></row>' for n in range(1, 301))
    content = handmade_workbook(rows, head='<dimension ref="A1:XFD1048576"/>')
    text, _ = spreadsheets.read_upload("players.xlsx", content, 2_000)
    assert text.splitlines() == [f"Player {n}" for n in range(1, 301)]
    response = upload(organiser_client, event, "players.xlsx", content)
    assert response.status_code == 200 and "300</strong> to import" in response.content.decode()


def test_a_workbook_that_takes_too_long_is_refused(organiser_client, make_event, monkeypatch):
    clock = itertools.count(step=10)
    monkeypatch.setattr(spreadsheets, "time", SimpleNamespace(monotonic=lambda: next(clock)))
    event = make_event("cheese-rescue", players=0)
    response = upload(organiser_client, event, "players.xlsx", one_row("<c><v>1</v></c>"))
    assert response.status_code == 400
    assert file_errors(response) == ["The file takes too long to read: at most 5 seconds."]


def test_a_large_real_club_list_is_still_read(organiser_client, make_event):
    event = make_event("cheese-rescue", players=0)
    workbook = Workbook()
    workbook.active.append(["Name", "Club", "Team"])
    for number in range(1_500):
        workbook.active.append([f"Player {number:04d}", f"Club {number % 40}", f"Team {number % 300}"])
    buffer = io.BytesIO()
    workbook.save(buffer)
    response = upload(organiser_client, event, "players.xlsx", buffer.getvalue())
    assert response.status_code == 200 and "1500</strong> to import" in response.content.decode()


@pytest.mark.parametrize(
    "content, message",
    [
        ("".join(f"Player {n},Club\n" for n in range(2_001)).encode(), "The list is too long: at most 2000 lines."),
        (b"Player,Club\n" * 20_000, "The file is too large: at most 200 kB."),
    ],
    ids=["too-many-rows", "too-large"],
)
def test_a_csv_file_beyond_the_limits_is_refused_at_the_file(organiser_client, make_event, content, message):
    event = make_event("cheese-rescue", players=0)
    typed = "Ada, Circolo"
    response = upload(organiser_client, event, "players.csv", content, typed)
    assert response.status_code == 400
    assert file_errors(response) == [message]
    assert response.context["form"]["text"].value() == typed
