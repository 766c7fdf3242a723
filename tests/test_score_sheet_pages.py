"""Score sheets that use the page: two tables a page where a game's sheet fits half of it, boxes a hand can write
in on A4 and Letter in every language, and the longest names of a real club night without anything overlapping."""

from __future__ import annotations

import csv
import datetime
import html
import io
import re
import subprocess
from itertools import combinations
from pathlib import Path

import pytest
from django.utils import translation
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Spacer

from tests.test_printing import flat, keep, render
from tournaments.games import get_game
from tournaments.games.cheese_rescue.printing import CARDS, POINTS
from tournaments.models import Event, Player, Round, Seat, Table
from tournaments.printing.boxes import DIGIT
from tournaments.printing.common import SeatLine, SheetHeader, SheetTitles, page_size
from tournaments.printing.fonts import register_fonts
from tournaments.printing.grid import box_height
from tournaments.printouts.sheets import draw_pages, page_slots, round_with_seats, score_sheets_pdf, sheets_per_page

MM = 72 / 25.4
#: Write-in boxes are about 9 mm high at the least; totals take three digits; a digit box is at least 16 points wide.
LEAST_BOX_HEIGHT, THREE_DIGITS, TWO_DIGITS, ONE_DIGIT = 8.8 * MM, 12 * MM, 6 * MM, 16
CLUB_NIGHT = Path(__file__).resolve().parent / "data" / "players-club-night.csv"
DIET = [
    {"kind": "snack", "component": "donut", "modifier": "corners"},
    {"kind": "cloth", "component": "green", "modifier": "most"},
]
#: Sheets of one game per table: two a page.
TWO_A_PAGE = [
    ("veggies", {}, 4),
    ("veggies", {}, 3),
    ("veggies", {"variant": "two-player"}, 2),
    ("snack-match", {}, 4),
    ("snack-match", {}, 2),
    ("cheese-rescue", {}, 4),
    ("cheese-rescue", {}, 3),
    ("cheese-rescue", {}, 2),
]
#: Sheets that fill a page: several manches, the teams' totals, the picnic zones of the special diet.
ONE_A_PAGE = [
    ("vegetables", {"manches_per_round": 4}, 4),
    ("vegetables", {"manches_per_round": 4}, 3),
    ("veggies", {"variant": "teams"}, 4),
    ("snack-match", {"variant": "special-diet", "options": {"diet": DIET}}, 4),
]


def club_night() -> list[dict[str, str]]:
    """The realistic list's players, the longest name and club first."""
    with CLUB_NIGHT.open(encoding="utf-8") as rows:
        return sorted(csv.DictReader(rows), key=lambda row: -len(row["name"] + row["club"]))


def longest_seats(players: int) -> list[SeatLine]:
    return [SeatLine(i + 1, row["name"], row["club"]) for i, row in enumerate(club_night()[:players])]


def unsaved_event(game: str, paper: str, language: str = "en", **fields) -> Event:
    date = datetime.date(2026, 11, 21)
    return Event(name="Campionato regionale", date=date, game=game, paper_size=paper, language=language, **fields)


def half_page_sheet(game: str, fields: dict, players: int, paper: str, language: str = "en"):
    """A game's part of a sheet of the longest names, laid out in its half of a page."""
    register_fonts()
    event = unsaved_event(game, paper, language, **fields)
    with translation.override(language):
        sheet = get_game(game).sheet(event, longest_seats(players))
    slot = page_slots(page_size(event), 2)[0]
    room = slot.room_below(SheetHeader.HEIGHT)
    assert sheet.wrap(slot.width, room)[1] <= room
    return sheet


@pytest.mark.parametrize("paper", ["A4", "letter"])
@pytest.mark.parametrize("language", ["en", "es", "it"])
def test_one_game_a_table_goes_two_a_page_and_full_page_sheets_one_on_both_papers_in_every_language(paper, language):
    register_fonts()
    for cases, expected in ((TWO_A_PAGE, 2), (ONE_A_PAGE, 1)):
        for game, fields, players in cases:
            event = unsaved_event(game, paper, language, **fields)
            with translation.override(language):
                sheet = get_game(game).sheet(event, longest_seats(players))
            assert sheets_per_page([sheet, sheet], page_size(event)) == expected, (game, fields, players)


@pytest.mark.parametrize("paper", ["A4", "letter"])
def test_boxes_on_half_a_page_are_big_enough_to_write_in(paper):
    for players in (4, 3, 2):
        veggies = half_page_sheet("veggies", {}, players, paper)
        snacks = half_page_sheet("snack-match", {}, players, paper)
        for sheet in (veggies, snacks):
            with_boxes = [row for row in sheet.rows if row.kind in ("good", "mice", "groups")]
            assert len(with_boxes) >= 6
            assert min(box_height(sheet.row_height(row)) for row in with_boxes) >= LEAST_BOX_HEIGHT
            assert min(sheet.row_height(row) for row in sheet.rows if row.grows) >= LEAST_BOX_HEIGHT, "plain cells"
            lines = [line for cell in sheet.cells() if (line := sheet.cell_line(*cell))]
            assert len(lines) == len(with_boxes) * players
            digits = [box for line in lines for box in line.boxes if box.kind == DIGIT]
            assert min(box.width for box in digits) >= ONE_DIGIT
            assert min(box.height for box in digits) >= LEAST_BOX_HEIGHT
            written = [width for line in lines for _x, _y, width, _height in line.write_ins]
            assert len(written) == len(lines) and min(written) >= TWO_DIGITS, "each line's points"
            assert sheet.player_width >= THREE_DIGITS, "the total's cell"
        cheese = half_page_sheet("cheese-rescue", {}, players, paper)
        assert cheese.square >= 9 * MM and cheese.row >= 10 * MM
        assert min(box.width for box in cheese.boxes()) >= 4 * MM, "tick boxes"
        assert min(CARDS, POINTS) >= 16 * MM


@pytest.mark.parametrize("paper", ["A4", "letter"])
def test_several_manches_grow_into_the_whole_page(paper):
    register_fonts()
    event = unsaved_event("vegetables", paper, manches_per_round=4)
    sheet = get_game("vegetables").sheet(event, longest_seats(4))
    slot = page_slots(page_size(event), 1)[0]
    room = slot.room_below(SheetHeader.HEIGHT)
    height = sheet.wrap(slot.width, room)[1]
    assert 0.9 * room <= height <= room
    boxes = dict(sheet.rows(sheet.scale))
    assert min(boxes["pozzo"], boxes["partial"], boxes["total"]) >= 10 * MM
    assert sheet.player_width >= 16 * MM


def seat_a_big_round(game: str, tables: int, paper: str) -> Event:
    """An event of 4 x ``tables`` players seated four a table in round 1."""
    event = Event.objects.create(
        name="Open",
        date=datetime.date(2026, 11, 21),
        game=game,
        paper_size=paper,
        manches_per_round=4 if game == "vegetables" else 1,
    )
    players = Player.objects.bulk_create(Player(event=event, name=f"Player {i:04d}") for i in range(4 * tables))
    round_ = Round.objects.create(event=event, number=1, published=True)
    table_rows = Table.objects.bulk_create(Table(round=round_, number=n + 1) for n in range(tables))
    Seat.objects.bulk_create(
        Seat(table=table, round=round_, player=players[4 * t + p], position=p + 1)
        for t, table in enumerate(table_rows)
        for p in range(4)
    )
    return event


def link(table) -> str:
    return f"https://scores.example.org/t/{table.token}/"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("game", "paper", "pages"),
    [
        ("vegetables", "A4", 250),
        ("veggies", "letter", 125),
        ("snack-match", "A4", 125),
        ("snack-match", "letter", 125),
        ("cheese-rescue", "A4", 125),
    ],
)
def test_a_round_of_250_tables_prints_on_125_pages_where_two_fit_a_page(game, paper, pages):
    event = seat_a_big_round(game, 250, paper)
    round_ = round_with_seats(event, 1)
    tables = list(round_.tables.all())

    reader = PdfReader(io.BytesIO(score_sheets_pdf(event, round_, link)))

    assert len(reader.pages) == pages
    assert [entry.title for entry in reader.outline] == [f"Table {n}" for n in range(1, 251)]
    last = reader.pages[-1].extract_text()
    assert link(tables[-1]) in last and (link(tables[-2]) in last) == (pages == 125)
    assert link(tables[-3]) not in last


@pytest.mark.django_db
def test_an_odd_table_out_has_the_last_page_to_itself(tmp_path):
    event = seat_a_big_round("veggies", 5, "A4")

    content = score_sheets_pdf(event, round_with_seats(event, 1), link)

    reader = PdfReader(io.BytesIO(content))
    assert len(reader.pages) == 3
    assert reader.pages[2].extract_text().count("https://scores.example.org/t/") == 1


def words(pdf: Path, page: int) -> list[tuple[float, float, float, float, str]]:
    """Each word of a page with its box (left, top, right, bottom, in points from the top left), as poppler
    reads it."""
    out = subprocess.run(
        ["pdftotext", "-bbox", "-f", str(page), "-l", str(page), str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found = re.findall(r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', out)
    return [(float(a), float(b), float(c), float(d), html.unescape(text)) for a, b, c, d, text in found]


def overlap(one, other) -> float:
    width = min(one[2], other[2]) - max(one[0], other[0])
    height = min(one[3], other[3]) - max(one[1], other[1])
    return width * height if width > 0 and height > 0 else 0.0


@pytest.mark.django_db
@pytest.mark.parametrize(("paper", "language"), [("A4", "en"), ("letter", "es"), ("A4", "it")])
@pytest.mark.parametrize(
    ("game", "fields"),
    [
        ("vegetables", {"manches_per_round": 4}),
        ("veggies", {}),
        ("veggies", {"variant": "teams"}),
        ("snack-match", {}),
        ("snack-match", {"variant": "special-diet", "options": {"diet": DIET}}),
        ("cheese-rescue", {}),
    ],
    ids=lambda value: value if isinstance(value, str) else "-".join(map(str, value.values()))[:20],
)
def test_the_longest_names_of_a_club_night_fit_without_overlapping_anything(tmp_path, paper, language, game, fields):
    event = Event.objects.create(
        name="Campionato Regionale di Primavera — Torneo Open",
        date=datetime.date(2026, 11, 21),
        venue="Circolo Ludico „Il Dado Verde”, Sala Grande",
        game=game,
        paper_size=paper,
        language=language,
        **fields,
    )
    rows = club_night()[:8]
    players = [Player.objects.create(event=event, name=row["name"], club=row["club"]) for row in rows]
    round_ = Round.objects.create(event=event, number=1, published=True)
    for t in range(2):
        table = Table.objects.create(round=round_, number=t + 1)
        for p in range(4):
            Seat.objects.create(table=table, round=round_, player=players[4 * t + p], position=p + 1)

    content = score_sheets_pdf(event, round_with_seats(event, 1), link)

    pdf = tmp_path / "sheets.pdf"
    pdf.write_bytes(content)
    reader = PdfReader(io.BytesIO(content))
    width, height = page_size(event)
    per_page = 2 if len(reader.pages) == 1 else 1
    qr = SheetHeader.QR
    qr_boxes = [
        (width - 34 - qr, height - slot.top, width - 34, height - slot.top + qr, "QR")
        for slot in page_slots((width, height), per_page)
    ]
    text = "\n".join(page.extract_text() for page in reader.pages)
    for row in rows:
        assert row["name"] in flat(text) and row["club"] in flat(text)
    assert "…" not in text
    for page in range(1, len(reader.pages) + 1):
        found = words(pdf, page)
        assert len(found) > 100
        clashes = [(a[4], b[4]) for a, b in combinations(found + qr_boxes[:per_page], 2) if overlap(a, b) > 0.5]
        assert clashes == []
        assert all(left > 0 and right < width and top > 0 and bottom < height for left, top, right, bottom, _w in found)
    keep(
        render(content, 1, tmp_path, "club-night"),
        f"club-night-{game}-{fields.get('variant', 'standard')}-{paper}-{language}",
    )


@pytest.mark.django_db
def test_a_sheet_taller_than_a_page_is_drawn_smaller_on_its_own_page(tmp_path):
    snacks = {f"snack{n}": f"Snack number {n}" for n in range(1, 17)}
    cloths = {f"cloth{n}": f"Cloth number {n}" for n in range(1, 17)}
    event = seat_a_big_round("snack-match", 3, "letter")
    event.options = {"names": {"snacks": snacks, "cloths": cloths}}
    event.save()

    content = score_sheets_pdf(event, round_with_seats(event, 1), link)

    pdf = tmp_path / "sheets.pdf"
    pdf.write_bytes(content)
    reader = PdfReader(io.BytesIO(content))
    assert len(reader.pages) == 3
    text = flat(reader.pages[0].extract_text())
    assert "Snack: Snack number 16" in text and "Tablecloth: Cloth number 16" in text and "Largest group" in text
    found = words(pdf, 1)
    width, height = page_size(event)
    footer = max(bottom for _left, _top, _right, bottom, _word in found)
    above_footer = [bottom for _left, _top, _right, bottom, word in found if bottom < footer - 1]
    assert max(above_footer) < height - 34
    assert [(a[4], b[4]) for a, b in combinations(found, 2) if overlap(a, b) > 0.5] == []


def test_a_header_of_more_than_four_seats_lists_their_names_one_a_line_without_overlapping(tmp_path):
    register_fonts()
    event = unsaved_event("veggies", "A4")
    seats = longest_seats(7)
    header = SheetHeader(SheetTitles.of(event, 3), 12, seats, "https://scores.example.org/t/abcdefghijklmnopqrstuv/")
    pdf = tmp_path / "header.pdf"
    canvas = Canvas(str(pdf), pagesize=page_size(event))
    draw_pages(canvas, page_size(event), [(header, Spacer(1, 1))], 1, "Campionato regionale")
    canvas.save()

    text = flat(PdfReader(pdf).pages[0].extract_text())
    assert "…" not in text
    for seat in seats:
        assert seat.name in text
    found = words(pdf, 1)
    assert [(a[4], b[4]) for a, b in combinations(found, 2) if overlap(a, b) > 0.5] == []
