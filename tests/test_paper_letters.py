"""Letters read from paper: Cheese Rescue's final board (a card's letter over a cheese's seat and points, square by
square) and Snack Match's special-diet picnic zones (a snack's letter beside a tablecloth's) are printed as boxes to
write in, read back from a phone's photo into the board and the grids the rules score, and checked at the desk."""

from __future__ import annotations

import re
import string

import numpy as np
import pytest
from django.test import TestCase
from django.urls import reverse

import scoring
from tests import paper_letters, paper_photos
from tests.factories import seat_by_hand
from tests.paper_sheets import stored_sheet
from tests.test_printing import flat, named_event, pages_text, seat_round
from tests.test_sheet_layout import check_against_picture, link, rendered
from tournaments.entry.paths import put
from tournaments.games.cheese_rescue.paper import finish as finish_cheese_rescue
from tournaments.games.snack_match.paper import finish as finish_snack_match
from tournaments.games.snack_match.printing import short_codes
from tournaments.models import PaperSheet
from tournaments.models.rounds import RoundStatus
from tournaments.models.sheets import Via
from tournaments.printing.boxes import DIGIT, LETTER, TABLE, Box, TableLayout
from tournaments.printing.common import page_size
from tournaments.printouts.sheets import round_with_seats, score_sheets_pdf, sheet_layouts
from tournaments.services.paper import Layouts, paper_document, read_file
from tournaments.services.sheets import with_event_fields

pytestmark = pytest.mark.django_db

#: Pages are drawn at this resolution before they are photographed.
DPI = 300
#: The share of a photo's written squares (letters and digits) read right, as the other paper tests ask of boxes.
RIGHT = 0.95
DIET = [
    {"kind": "snack", "component": "donut", "modifier": "corners"},
    {"kind": "cloth", "component": "green", "modifier": "most"},
]
#: A two-player game's final board as the rules check it: each player's six cheeses, one start card.
BOARD = [
    ["D", "C", "M", "Q1:1", "S"],
    ["Q1:1", "Q1:1", "Q1:2", "D", "C"],
    ["M", "Q1:2", "Q1:3", "Q2:1", "Q2:1"],
    ["Q2:1", "Q2:2", "Q2:2", "D", "C"],
    ["M", "D", "C", "M", "Q2:3"],
]
#: Two players' picnic zones, every square a card.
ZONES = [
    [
        ["sandwich/green", "sandwich/green", "donut/orange", "soda/orange"],
        ["sandwich/green", "donut/green", "donut/orange", "soda/green"],
        ["sausage/orange", "donut/green", "soda/green", "soda/green"],
        ["sausage/orange", "sausage/orange", "sandwich/green", "donut/orange"],
    ],
    [
        ["donut/orange", "donut/orange", "donut/orange", "sausage/green"],
        ["soda/green", "sandwich/orange", "sausage/green", "sausage/green"],
        ["soda/green", "sandwich/orange", "sandwich/green", "soda/orange"],
        ["donut/green", "donut/green", "sandwich/green", "soda/orange"],
    ],
]
SQUARE = re.compile(r"^(board|cheese_seat|cheese_points)\[(\d+)\]\[(\d+)\]$")
ZONE_SQUARE = re.compile(r"^zones\[(\d+)\]\.grid\[(\d+)\]\[(\d+)\]\.(snack|cloth)$")


def board_squares(layout: TableLayout) -> dict[tuple[int, int], dict[str, Box]]:
    """The board's boxes by square: its letter's (``board``), its seat's and its points'."""
    squares: dict[tuple[int, int], dict[str, Box]] = {}
    for box in layout.boxes:
        if found := SQUARE.match(box.path):
            squares.setdefault((int(found[2]), int(found[3])), {})[found[1]] = box
    return squares


def zone_squares(layout: TableLayout) -> dict[tuple[int, int, int], dict[str, Box]]:
    """The zones' boxes by player and square: the snack's and the tablecloth's."""
    squares: dict[tuple[int, int, int], dict[str, Box]] = {}
    for box in layout.boxes:
        if found := ZONE_SQUARE.match(box.path):
            squares.setdefault((int(found[1]), int(found[2]), int(found[3])), {})[found[4]] = box
    return squares


def board_values(board: list[list[str]]) -> dict[str, object]:
    """The board's fields as a perfect reader reads ``board``: each square's card letter, and a cheese's seat and
    points."""
    values: dict[str, object] = {}
    for r, row in enumerate(board):
        for c, code in enumerate(row):
            seat, _colon, points = code[1:].partition(":")
            values[f"board[{r}][{c}]"] = code[0]
            values[f"cheese_seat[{r}][{c}]"] = int(seat) if code[0] == "Q" else None
            values[f"cheese_points[{r}][{c}]"] = int(points) if code[0] == "Q" else None
    return values


def zone_values(zones: list[list[list[str]]]) -> dict[str, object]:
    """The zones' fields as a perfect reader reads ``zones``: each square's snack and tablecloth."""
    values: dict[str, object] = {}
    for p, zone in enumerate(zones):
        for r, row in enumerate(zone):
            for c, square in enumerate(row):
                snack, cloth = square.split("/")
                values |= {f"zones[{p}].grid[{r}][{c}].snack": snack, f"zones[{p}].grid[{r}][{c}].cloth": cloth}
    return values


def table_of(make_event, game: str, players: int, **fields):
    """An event of one table of ``players``, round 1 in play: the event and its table."""
    event = make_event(game, players=players, table_size=players, **fields)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    return event, seat_by_hand(event, 1, [ids], status=RoundStatus.IN_PLAY).tables.get()


# Printing


@pytest.mark.parametrize(("players", "size", "letters"), [(2, 5, "DCMSQ"), (3, 6, "DCMQ"), (4, 7, "DCMSQ")])
def test_every_board_square_is_printed_as_a_letter_box_over_a_cheeses_seat_and_points(
    make_event, tmp_path, players, size, letters
):
    event = named_event(make_event, "cheese-rescue", players=3 * players, table_size=players)
    seat_round(event)
    round_ = round_with_seats(event, 1)

    content = score_sheets_pdf(event, round_, link)
    layouts = sheet_layouts(event, round_, link)

    pages = pages_text(content)
    assert len(pages) == 2, "two tables a page"
    assert f"Final board ({size} × {size})" in flat(pages[0])
    assert "Q cheese" in flat(pages[0]) and "A cheese: Q, and under it its owner's seat and its points." in flat(
        pages[0]
    )
    assert ("S start card" in flat(pages[0])) == ("S" in letters)
    pictures = rendered(content, tmp_path)
    for layout in layouts:
        squares = board_squares(layout)
        assert sorted(squares) == [(r, c) for r in range(size) for c in range(size)]
        for (r, c), boxes in squares.items():
            letter, seat, points = boxes["board"], boxes["cheese_seat"], boxes["cheese_points"]
            assert (letter.kind, letter.allowed, "".join(letter.means)) == (LETTER, letters, letters)
            assert (seat.kind, seat.allowed, points.kind, points.allowed) == (DIGIT, "1234"[:players], DIGIT, "123")
            assert {letter.seat, seat.seat, points.seat} == {TABLE}
            assert letter.y >= max(seat.y + seat.height, points.y + points.height), "the card's letter on top"
            assert seat.x + seat.width <= points.x, "the seat, then the points"
            assert min(box.width for box in (seat, points)) >= 14 and min(seat.height, points.height) >= 14
            assert letter.width >= 18 and letter.height >= 14, "room to write one character"
            if c:
                assert letter.x > squares[r, c - 1]["board"].x + squares[r, c - 1]["board"].width
            if r:
                assert letter.y + letter.height < squares[r - 1, c]["cheese_seat"].y
        check_against_picture(layout, pictures[layout.page], page_size(event))


def test_a_spanish_board_takes_the_spanish_letters_and_stands_for_the_cards(make_event):
    event = named_event(make_event, "cheese-rescue", players=4, table_size=4, language="es")
    seat_round(event)
    round_ = round_with_seats(event, 1)

    (layout,) = sheet_layouts(event, round_, link)
    text = flat(pages_text(score_sheets_pdf(event, round_, link))[0])

    letter = board_squares(layout)[0, 0]["board"]
    assert (letter.allowed, letter.means) == ("PGRIQ", ("D", "C", "M", "S", "Q"))
    assert [letter.meaning(written) for written in "PRQX"] == ["D", "M", "Q", None]
    assert "P perro · G gato · R ratón" in text


def test_the_special_diet_sheet_has_a_snacks_and_a_tablecloths_letter_box_in_every_zone_square(make_event, tmp_path):
    event = named_event(make_event, "snack-match", players=12, variant="special-diet", options={"diet": DIET})
    seat_round(event)
    round_ = round_with_seats(event, 1)

    content = score_sheets_pdf(event, round_, link)
    layouts = sheet_layouts(event, round_, link)

    pages = pages_text(content)
    assert len(pages) == 3
    assert "Snack: S = sandwich · D = donut · A = sausage · O = soda" in flat(pages[0])
    assert "Tablecloth: O = orange · G = green" in flat(pages[0])
    assert "the snack's letter in the left box and the tablecloth's in the right one" in flat(pages[0])
    pictures = rendered(content, tmp_path)
    for layout in layouts:
        squares = zone_squares(layout)
        assert sorted(squares) == [(p, r, c) for p in range(4) for r in range(4) for c in range(4)]
        assert not [box for box in layout.boxes if ".groups." in box.path], "the special diet takes only grids"
        for (p, _r, _c), boxes in squares.items():
            snack, cloth = boxes["snack"], boxes["cloth"]
            assert (snack.kind, snack.allowed, snack.means) == (
                LETTER,
                "SDAO",
                ("sandwich", "donut", "sausage", "soda"),
            )
            assert (cloth.kind, cloth.allowed, cloth.means) == (LETTER, "OG", ("orange", "green"))
            assert snack.seat == cloth.seat == p and snack.x + snack.width < cloth.x and snack.y == cloth.y
            assert min(snack.width, cloth.width) >= 16 and min(snack.height, cloth.height) >= 20, "room to write"
        check_against_picture(layout, pictures[layout.page], page_size(event))


def test_each_component_gets_a_letter_of_its_own_kind():
    rulebook = {"sandwich": "sandwich", "donut": "donut", "sausage": "sausage", "soda": "soda"}
    assert short_codes(rulebook) == {"sandwich": "S", "donut": "D", "sausage": "A", "soda": "O"}
    assert short_codes({"ñoquis": "Ñoquis", "name": "ñame", "x": "¡Olé!"}) == {"ñoquis": "N", "name": "A", "x": "O"}
    sixteen = short_codes({f"snack{n}": "Snack" for n in range(16)})
    assert len(set(sixteen.values())) == 16 and all(len(code) == 1 and code.isupper() for code in sixteen.values())
    many = list(short_codes({f"k{n}": "same" for n in range(28)}).values())
    assert sorted(many[:26]) == list(string.ascii_uppercase) and many[26:] == ["0", "1"], "digits once letters run out"


# From what is read to the sheet's document


def test_a_written_board_is_the_sheet_and_its_ticks_are_left_out():
    values = board_values(BOARD) | {"tallies[0].cheeses": ["1", "3"], "tallies[1].cheeses": ["2"]}
    sheet = {"game": "cheese-rescue", "players": ["Ada", "Bea"]}

    document = finish_cheese_rescue(sheet_with(sheet, values))

    assert document == {"game": "cheese-rescue", "players": ["Ada", "Bea"], "board": BOARD}
    assert [player["score"] for player in scoring.score(document)["players"]] == [4, 6]


def test_ticks_are_the_tallies_where_the_board_is_empty_or_only_begun_and_a_digit_alone_is_no_card():
    empty = dict.fromkeys(board_values(BOARD)) | {"tallies[0].cheeses": ["1", "3"], "tallies[1].cheeses": []}
    tallies = [{"cheese_points": 4, "cheese_cards": 2}, {"cheese_points": 0, "cheese_cards": 0}]
    assert finish_cheese_rescue(sheet_with({}, empty)) == {"tallies": tallies}
    assert finish_cheese_rescue(sheet_with({}, empty | {"cheese_seat[2][2]": 2})) == {"tallies": tallies}
    begun = empty | {"board[0][0]": "D", "board[0][1]": "C"}
    assert finish_cheese_rescue(sheet_with({}, begun)) == {"tallies": tallies}


def test_a_board_begun_without_ticks_is_the_sheet_for_the_rules_to_name_its_empty_squares():
    begun = dict.fromkeys(board_values(BOARD)) | {"board[0][0]": "D", "tallies[0].cheeses": []}
    sheet = finish_cheese_rescue(sheet_with({}, begun))
    assert set(sheet) == {"board"}
    assert sheet["board"][0] == ["D", None, None, None, None] and sheet["board"][4] == [None] * 5

    values = board_values(BOARD) | {"cheese_points[0][3]": None}
    assert finish_cheese_rescue(sheet_with({}, values))["board"][0][2:5] == ["M", "Q", "S"]


def test_written_zone_squares_are_the_grid_and_an_empty_square_is_null():
    values = zone_values(ZONES) | {"zones[1].grid[0][0].snack": None, "zones[1].grid[0][0].cloth": None}
    values |= {"zones[1].grid[0][1].cloth": None}

    zones = finish_snack_match(sheet_with({}, values))["zones"]

    assert zones[0] == {"grid": ZONES[0]}
    assert zones[1]["grid"][0] == [None, "donut/", "donut/orange", "sausage/green"]


def sheet_with(sheet: dict, values: dict) -> dict:
    """``sheet`` with ``values`` put at their paths."""
    for path, value in values.items():
        put(sheet, path, value)
    return sheet


# Read from a photo


def read_photo(event, layouts, values: dict, seed: int):
    """``values`` written on the event's one printed table by hand, photographed by a phone and read back."""
    rng = np.random.default_rng(seed)
    (layout,) = layouts
    pdf = score_sheets_pdf(event, round_with_seats(event, 1), table_link)
    picture = paper_letters.fill(paper_photos.page_picture(pdf, 0, DPI), DPI, layouts, {layout.table: values}, rng)
    photo = paper_photos.phone_photo(picture, rng)
    found = read_file(photo.jpeg, "photo.jpg", Layouts(event))
    assert [sheet.layout.table for _page, sheet in found] == [layout.table]
    return found[0][1]


def table_link(table) -> str:
    return "http://testserver" + reverse("tournaments:table", args=[table.token])


def checked(sheet, values: dict) -> dict:
    """What the organiser saves from the sheet's reading: the fields the reader is unsure of corrected, the others as
    read. Nearly every square's field written is read right, and every one read wrong is among those to check."""
    reading, unsure = sheet.reading(), set(sheet.unsure())
    written = [
        name for name, value in values.items() if value is not None and (SQUARE.match(name) or ZONE_SQUARE.match(name))
    ]
    assert sum(reading[name] == values[name] for name in written) >= RIGHT * len(written)
    wrong = {name for name in values if reading[name] != values[name]}
    assert wrong <= unsure, {name: (values[name], reading[name]) for name in wrong - unsure}
    return {name: values[name] if name in unsure else reading[name] for name in reading}


def test_a_photo_of_a_written_board_is_read_into_the_board_the_rules_score(make_event):
    event, table = table_of(make_event, "cheese-rescue", 2)
    layouts = sheet_layouts(event, round_with_seats(event, 1), table_link)
    values = board_values(BOARD) | {"tallies[0].cheeses": [], "tallies[1].cheeses": []}

    sheet = read_photo(event, layouts, values, seed=51)

    fields = [read.box for read in sheet.boxes if read.box.kind == LETTER]
    assert len(fields) == 25 and {box.path for box in fields} == {
        f"board[{r}][{c}]" for r in range(5) for c in range(5)
    }
    names = list(table.seats.order_by("position").values_list("player__name", flat=True))
    document = paper_document(event, names, checked(sheet, values))
    assert document["board"] == BOARD and "tallies" not in document
    result = scoring.score(with_event_fields(event, document))
    assert [player["score"] for player in result["players"]] == [4, 6]


def test_a_photo_of_written_picnic_zones_is_read_into_the_grids_the_special_diet_scores(make_event):
    event, table = table_of(make_event, "snack-match", 2, variant="special-diet", options={"diet": DIET})
    layouts = sheet_layouts(event, round_with_seats(event, 1), table_link)
    values = zone_values(ZONES)

    sheet = read_photo(event, layouts, values, seed=52)

    names = list(table.seats.order_by("position").values_list("player__name", flat=True))
    document = with_event_fields(event, paper_document(event, names, checked(sheet, values)))
    assert document["zones"] == [{"grid": ZONES[0]}, {"grid": ZONES[1]}]
    expected = {**document, "zones": [{"grid": zone} for zone in ZONES]}
    assert scoring.score(document) == scoring.score(expected)


# At the desk


def paper_url(event, name: str, paper: PaperSheet) -> str:
    return reverse(f"tournaments:{name}", args=[event.slug, paper.pk])


def test_the_desk_shows_each_board_square_with_its_letter_to_choose_and_its_picture(organiser_client, make_event):
    event, table = table_of(make_event, "cheese-rescue", 2, language="es")
    stored_sheet(table, values=board_values(BOARD) | {"board[0][0]": None}, unsure=["board[0][1]"])

    html = organiser_client.get(reverse("tournaments:round_paper", args=[event.slug, 1])).content.decode()

    selects = re.findall(r'<select [^>]*name="(board\[\d\]\[\d\])"[^>]*>(.*?)</select>', html, re.S)
    assert [name for name, _options in selects] == [f"board[{r}][{c}]" for r in range(5) for c in range(5)]
    options = dict(selects)
    assert re.findall(r'<option value="([^"]*)"', options["board[0][1]"]) == ["", "D", "C", "M", "S", "Q"]
    assert re.findall(r"<option [^>]*>([^<]*)</option>", options["board[0][1]"]) == ["–", "P", "G", "R", "I", "Q"]
    assert '<option value="C" selected>G</option>' in options["board[0][1]"]
    assert " selected" not in options["board[0][0]"]
    assert 'name="cheese_seat[0][3]" value="1"' in html and 'name="cheese_points[1][2]" value="2"' in html
    board = html[html.index("<legend>Final board</legend>") :]
    assert board.count('class="paper-crop"') == 3 * 25
    assert "Row 1, column 2" in board and 'class="paper-field unsure' in board


def test_a_board_checked_at_the_desk_is_saved_as_the_sheet_and_scored(organiser_client, make_event):
    event, table = table_of(make_event, "cheese-rescue", 2)
    paper = stored_sheet(table, values=board_values(BOARD))
    posted = {name: "" if value is None else str(value) for name, value in board_values(BOARD).items()}

    with TestCase.captureOnCommitCallbacks(execute=True):
        response = organiser_client.post(paper_url(event, "paper_save", paper), posted | {"manche": "1"})

    assert response.status_code == 302
    manche = table.manches.get(number=1)
    assert manche.entered_via == Via.PAPER
    assert manche.document["board"] == BOARD and "tallies" not in manche.document
    assert [player["score"] for player in manche.result["players"]] == [4, 6]


def test_a_letter_the_box_does_not_allow_is_refused_and_kept(organiser_client, make_event):
    event, table = table_of(make_event, "cheese-rescue", 2)
    paper = stored_sheet(table, values=board_values(BOARD))
    posted = {name: "" if value is None else str(value) for name, value in board_values(BOARD).items()}

    response = organiser_client.post(
        paper_url(event, "paper_save", paper), posted | {"manche": "1", "board[0][0]": "X"}
    )

    assert response.status_code == 400
    assert "Choose one of the letters this box allows, or leave it empty." in response.content.decode()
    assert table.manches.get(number=1).document is None


def test_picnic_zones_checked_at_the_desk_are_saved_as_grids(organiser_client, make_event):
    event, table = table_of(make_event, "snack-match", 2, variant="special-diet", options={"diet": DIET})
    paper = stored_sheet(table, values=zone_values(ZONES))

    html = organiser_client.get(reverse("tournaments:round_paper", args=[event.slug, 1])).content.decode()
    assert html.count('<select id="paper-') == 2 * 16 * 2
    assert '<option value="sausage" selected>A</option>' in html
    posted = zone_values(ZONES)
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = organiser_client.post(paper_url(event, "paper_save", paper), posted | {"manche": "1"})

    assert response.status_code == 302
    manche = table.manches.get(number=1)
    assert manche.document["zones"] == [{"grid": ZONES[0]}, {"grid": ZONES[1]}]
    assert manche.result is not None
