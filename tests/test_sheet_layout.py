"""The layout of printed score sheets against the printed page: the corner marks where it says, every box it lists
drawn there and empty inside, the QR code inside its square; the same layout from the command and on a reprint."""

from __future__ import annotations

import io
import json
import re
import subprocess
from itertools import combinations
from pathlib import Path

import numpy
import pytest
import zxingcpp
from django.core.management import CommandError, call_command
from django.urls import reverse
from PIL import Image
from pypdf import PdfReader

from tests.factories import seat_by_hand
from tests.test_printing import keep, named_event, pages_text, seat_round
from tournaments.printing.boxes import ANY_DIGIT, DIGIT, LETTER, MARK, TABLE, TableLayout
from tournaments.printing.common import FOOTER, MARGIN, page_size
from tournaments.printouts.sheets import (
    round_with_seats,
    score_sheets_pdf,
    sheet_layouts,
    table_sheet_layout,
    table_with_seats,
)

pytestmark = pytest.mark.django_db

DPI = 150
#: Pixels a point on the rendered pages.
PX = DPI / 72
MM = 72 / 25.4
#: How far inside a box's outline its inside is looked at, in points (its 0.8 pt line is half inside).
INSET = 1.5
GOODS = ("strawberries", "bananas", "grapes", "carrots", "mushrooms")
COMPONENTS = {"snacks": ("sandwich", "donut", "sausage", "soda"), "cloths": ("orange", "green")}
DIET = [
    {"kind": "snack", "component": "donut", "modifier": "corners"},
    {"kind": "cloth", "component": "green", "modifier": "most"},
]
#: Each game at a table of four and of two, its tables a page, and the event's other fields.
GAMES = [
    ("vegetables", 4, 1, {}),
    ("vegetables", 2, 1, {}),
    ("veggies", 4, 2, {}),
    ("veggies", 2, 2, {}),
    ("veggies", 4, 1, {"variant": "teams"}),
    ("snack-match", 4, 2, {}),
    ("snack-match", 2, 2, {}),
    ("snack-match", 4, 1, {"variant": "special-diet", "options": {"diet": DIET}}),
    ("cheese-rescue", 4, 2, {}),
    ("cheese-rescue", 3, 2, {}),
    ("cheese-rescue", 2, 2, {}),
]
#: Cheese Rescue's board side by the players at the table.
BOARD_SIDES = {2: 5, 3: 6, 4: 7}


def link(table) -> str:
    """A table's link as the organiser's printouts give it in tests."""
    return f"http://testserver/t/{table.token}/"


def rendered(content: bytes, folder: Path) -> list[numpy.ndarray]:
    """Every page of the PDF in grey at ``DPI``."""
    pdf = folder / "sheets.pdf"
    pdf.write_bytes(content)
    subprocess.run(["pdftoppm", "-r", str(DPI), "-gray", "-png", pdf, folder / "page"], check=True)
    return [numpy.asarray(Image.open(path)) for path in sorted(folder.glob("page-*.png"))]


def pixels(picture: numpy.ndarray, rect, inset: float = 0.0) -> numpy.ndarray:
    """The pixels inside ``rect`` (left, bottom, right, top in points from the page's bottom left), ``inset`` in."""
    height = picture.shape[0] / PX
    x0, y0, x1, y1 = rect
    left, right = round((x0 + inset) * PX), round((x1 - inset) * PX)
    top, bottom = round((height - y1 + inset) * PX), round((height - y0 - inset) * PX)
    return picture[top:bottom, left:right]


def edges_dark(picture: numpy.ndarray, rect) -> float:
    """The share of the pixels along a box's four edges where its outline is drawn dark (the darkest pixel within
    two of the edge, across it)."""
    height = picture.shape[0] / PX
    x0, y0, x1, y1 = rect
    left, right, top, bottom = (round(v) for v in (x0 * PX, x1 * PX, (height - y1) * PX, (height - y0) * PX))
    across = [picture[edge - 2 : edge + 3, left + 2 : right - 1].min(axis=0) for edge in (top, bottom)]
    across += [picture[top + 2 : bottom - 1, edge - 2 : edge + 3].min(axis=1) for edge in (left, right)]
    return float((numpy.concatenate(across) < 120).mean())


def check_against_picture(layout: TableLayout, picture: numpy.ndarray, size: tuple[float, float]) -> None:
    """The layout's corner marks are solid, dark and clear of everything else, and inside the printable area;
    every box is drawn and white inside; the QR code inside the layout's square is the table's link."""
    width, height = size
    for mark in layout.marks:
        x0, y0, x1, y1 = mark.x, mark.y, mark.x + mark.side, mark.y + mark.side
        assert pixels(picture, (x0, y0, x1, y1), 1).max() < 100, (layout.table, mark)
        beside = [(x0 - 4, y0 - 4, x0 - 1.5, y1 + 4), (x1 + 1.5, y0 - 4, x1 + 4, y1 + 4)]
        beside += [(x0 - 4, y0 - 4, x1 + 4, y0 - 1.5), (x0 - 4, y1 + 1.5, x1 + 4, y1 + 4)]
        assert min(pixels(picture, rect).min() for rect in beside) > 200, "nothing else near a mark"
        assert x0 >= 5 * MM and x1 <= width - 5 * MM and y0 >= 5 * MM and y1 <= height - 5 * MM, "printable"
    for box in layout.boxes:
        assert edges_dark(picture, box.rect) >= 0.95, box
        assert pixels(picture, box.rect, INSET).min() > 200, box
    qr = layout.qr
    margin = qr.side * 0.12
    crop = pixels(picture, (qr.x - margin, qr.y - margin, qr.x + qr.side + margin, qr.y + qr.side + margin))
    codes = zxingcpp.read_barcodes(numpy.ascontiguousarray(crop), formats=zxingcpp.BarcodeFormat.QRCode)
    assert [code.text for code in codes] == [layout.link]
    corners = codes[0].position
    found = (corners.top_left.x, corners.top_left.y, corners.bottom_right.x, corners.bottom_right.y)
    expected = (margin * PX, margin * PX, (margin + qr.side) * PX, (margin + qr.side) * PX)
    assert numpy.allclose(found, expected, atol=2.5), "the square is the code's own"


def check_marks_frame_the_slot(layout: TableLayout, size: tuple[float, float], per_page: int) -> None:
    """Top left, top right, bottom right, bottom left: beside the slot's corners, level with its top and bottom,
    clear of the cut line and the footer."""
    left, bottom, right, top = layout.frame
    top_left, top_right, bottom_right, bottom_left = layout.marks
    assert top_left.x == bottom_left.x and top_left.x + top_left.side < left
    assert top_right.x == bottom_right.x and top_right.x > right
    assert top_left.y + top_left.side == top_right.y + top_right.side == pytest.approx(top)
    assert bottom_left.y == bottom_right.y == pytest.approx(bottom)
    middle = size[1] / 2
    for mark in layout.marks:
        if per_page == 2:
            assert mark.y > middle + 6 or mark.y + mark.side < middle - 6, "clear of the cut line and scissors"
        assert mark.y > MARGIN - FOOTER + 6 + 7, "above the footer"


def expected_paths(game: str, players: int, variant: str = "") -> set[str]:
    paths = set()
    if game == "cheese-rescue":
        squares = [(r, c) for r in range(BOARD_SIDES[players]) for c in range(BOARD_SIDES[players])]
        paths |= {f"{key}[{r}][{c}]" for key in ("board", "cheese_seat", "cheese_points") for r, c in squares}
    for p in range(players):
        if game == "vegetables":
            paths |= {f"manches[0].{key}[{p}]" for key in ("pozzo", "sequences", "family_bonuses", "penalties")}
        elif game == "veggies":
            paths |= {f"stands[{p}].declared", f"stands[{p}].mice"}
            paths |= {f"stands[{p}].goods.{good}.{key}" for good in GOODS for key in ("largest", "groups")}
        elif game == "snack-match" and variant == "special-diet":
            squares = [(r, c) for r in range(4) for c in range(4)]
            paths |= {f"zones[{p}].grid[{r}][{c}].{kind}" for r, c in squares for kind in ("snack", "cloth")}
        elif game == "snack-match":
            paths |= {
                f"zones[{p}].groups.{kind}.{key}[{i}]"
                for kind, keys in COMPONENTS.items()
                for key in keys
                for i in range(3)
            }
        else:
            paths.add(f"tallies[{p}].cheeses")
    return paths


def seat_of(path: str) -> int:
    """The player a path is of: its last index in a manche, none for a square of the board, else its first."""
    if path.startswith(("board", "cheese_")):
        return TABLE
    indexes = re.findall(r"\[(\d+)\]", path)
    return int(indexes[-1] if path.startswith("manches") else indexes[0])


def check_boxes(layout: TableLayout, game: str, names: list[str], manches: int, variant: str = "") -> None:
    """The boxes the game's sheet is read by, with their paths, digits, values, manches and labels; all inside
    the slot, none over another, every digit box big enough to write in."""
    boxes = layout.boxes
    left, bottom, right, top = layout.frame
    for box in boxes:
        assert left <= box.x and box.x + box.width <= right and bottom <= box.y and box.y + box.height <= top
        assert box.seat == seat_of(box.path)
        assert box.label.startswith(f"{names[box.seat]} · " if box.seat != TABLE else "Final board · ")
    for one, other in combinations(boxes, 2):
        across = min(one.x + one.width, other.x + other.width) - max(one.x, other.x)
        up = min(one.y + one.height, other.y + other.height) - max(one.y, other.y)
        assert across <= 0.01 or up <= 0.01, (one, other)
    assert all(box.width >= 16 and box.height >= 20 for box in boxes if box.kind == DIGIT and box.seat != TABLE), (
        "room for a digit"
    )
    assert all(min(box.width, box.height) >= 14 for box in boxes if box.seat == TABLE), "room for one character"
    by_path: dict[str, list] = {}
    for box in boxes:
        by_path.setdefault(box.path, []).append(box)
    assert set(by_path) == expected_paths(game, len(names), variant)

    def shape(path: str) -> list[tuple]:
        """A path's boxes as (kind, place, allowed, value, manche), sorted."""
        return sorted((box.kind, box.place, box.allowed, box.value, box.manche) for box in by_path[path])

    one_digit = [(DIGIT, 0, ANY_DIGIT, "", None)]
    two_digits = [(DIGIT, 0, ANY_DIGIT, "", None), (DIGIT, 1, "01234", "", None)]
    for p in range(len(names)):
        if game == "vegetables":
            blocks = range(1, manches + 1)
            tens = "0123"[: len(names)]
            pozzo = [(DIGIT, 1, tens, "", m) for m in blocks] + [(DIGIT, 0, "0", "", m) for m in blocks]
            assert shape(f"manches[0].pozzo[{p}]") == sorted(pozzo)
            assert shape(f"manches[0].sequences[{p}]") == sorted([(MARK, 0, ANY_DIGIT, "", m) for m in blocks] * 16)
            assert shape(f"manches[0].family_bonuses[{p}]") == [(DIGIT, 0, "01234", "", m) for m in blocks]
            assert shape(f"manches[0].penalties[{p}]") == [(DIGIT, 0, ANY_DIGIT, "", m) for m in blocks]
        elif game == "veggies":
            assert shape(f"stands[{p}].declared") == sorted((MARK, 0, ANY_DIGIT, good, None) for good in GOODS)
            for good in GOODS:
                assert shape(f"stands[{p}].goods.{good}.largest") == two_digits
                assert shape(f"stands[{p}].goods.{good}.groups") == one_digit
            assert shape(f"stands[{p}].mice") == two_digits
        elif game == "snack-match" and variant == "special-diet":
            codes = {"snack": "SDAO", "cloth": "OG"}
            for kind, letters in codes.items():
                shapes = {tuple(shape(f"zones[{p}].grid[{r}][{c}].{kind}")) for r in range(4) for c in range(4)}
                assert shapes == {((LETTER, 0, letters, "", None),)}
        elif game == "snack-match":
            for kind, keys in COMPONENTS.items():
                for key in keys:
                    path = f"zones[{p}].groups.{kind}.{key}"
                    assert shape(f"{path}[0]") == [(DIGIT, 0, ANY_DIGIT, "", None), (DIGIT, 1, "01", "", None)]
                    assert shape(f"{path}[1]") == shape(f"{path}[2]") == one_digit
        else:
            assert [box.value for box in by_path[f"tallies[{p}].cheeses"]] == ["1", "1", "1", "2", "2", "3"]
            assert {box.kind for box in by_path[f"tallies[{p}].cheeses"]} == {MARK}
    if game == "cheese-rescue":
        letters = "DCMSQ" if len(names) != 3 else "DCMQ"
        for square in [path for path in by_path if path.startswith("board")]:
            assert shape(square) == [(LETTER, 0, letters, "", None)]
            assert shape(square.replace("board", "cheese_seat")) == [(DIGIT, 0, "1234"[: len(names)], "", None)]
            assert shape(square.replace("board", "cheese_points")) == [(DIGIT, 0, "123", "", None)]


@pytest.mark.parametrize(
    ("game", "players", "per_page", "fields"), GAMES, ids=lambda v: v.get("variant", "") if isinstance(v, dict) else v
)
def test_the_layout_is_where_the_printed_sheets_have_their_marks_boxes_and_qr_codes(
    make_event, tmp_path, game, players, per_page, fields
):
    event = named_event(make_event, game, players=3 * players, table_size=players, **fields)
    seat_round(event)
    round_ = round_with_seats(event, 1)
    tables = list(round_.tables.all())

    content = score_sheets_pdf(event, round_, link)
    layouts = sheet_layouts(event, round_, link)

    pictures = rendered(content, tmp_path)
    size = page_size(event)
    assert len(pictures) == len(PdfReader(io.BytesIO(content)).pages) == -(-3 // per_page)
    assert [layout.page for layout in layouts] == [i // per_page for i in range(3)], "two a page where they were"
    assert [(layout.table, layout.link) for layout in layouts] == [(table.number, link(table)) for table in tables]
    for layout, table in zip(layouts, tables):
        check_marks_frame_the_slot(layout, size, per_page)
        names = [seat.player.name for seat in table.seats.all()]
        check_boxes(layout, game, names, event.manches_per_round, fields.get("variant", ""))
        check_against_picture(layout, pictures[layout.page], size)
    by_token = sheet_layouts(event, round_, lambda table: table.token)
    assert [(layout.qr, layout.boxes) for layout in by_token] == [(layout.qr, layout.boxes) for layout in layouts]
    keep(tmp_path / "page-1.png", f"layout-{game}-{fields.get('variant', 'standard')}-{players}")


def test_a_sheet_drawn_smaller_to_fit_its_page_has_its_boxes_drawn_smaller_too(make_event, tmp_path):
    snacks = {f"snack{n}": f"Snack number {n}" for n in range(1, 17)}
    cloths = {f"cloth{n}": f"Cloth number {n}" for n in range(1, 17)}
    event = named_event(make_event, "snack-match", players=4, paper_size="letter")
    event.options = {"names": {"snacks": snacks, "cloths": cloths}}
    event.save()
    seat_round(event)
    round_ = round_with_seats(event, 1)

    layout = sheet_layouts(event, round_, link)[0]

    assert len(layout.boxes) == 4 * 32 * 4
    assert max(box.width for box in layout.boxes) < 16, "drawn smaller"
    picture = rendered(score_sheets_pdf(event, round_, link), tmp_path)[0]
    check_against_picture(layout, picture, page_size(event))


def layout_json(layouts: list[TableLayout], size) -> list[dict]:
    """The command's lines as the layouts give them."""
    pages: dict[int, list] = {}
    for layout in layouts:
        qr = layout.qr
        pages.setdefault(layout.page, []).append(
            {
                "table": layout.table,
                "link": layout.link,
                "qr": [qr.x, qr.y, qr.x + qr.side, qr.y + qr.side],
                "marks": [[m.x, m.y, m.x + m.side, m.y + m.side] for m in layout.marks],
                "boxes": [
                    {
                        "path": box.path,
                        "kind": box.kind,
                        "rect": list(box.rect),
                        "place": box.place,
                        "value": box.value,
                        "allowed": box.allowed,
                        "seat": box.seat,
                        "label": box.label,
                        "manche": box.manche,
                        "means": list(box.means),
                    }
                    for box in layout.boxes
                ],
            }
        )
    return [{"page": page + 1, "size": list(size), "tables": tables} for page, tables in sorted(pages.items())]


def same(found, expected) -> bool:
    """Equal, numbers to a thousandth of a point."""
    if isinstance(expected, dict):
        return (
            isinstance(found, dict)
            and found.keys() == expected.keys()
            and all(same(found[k], v) for k, v in expected.items())
        )
    if isinstance(expected, list):
        return isinstance(found, list) and len(found) == len(expected) and all(map(same, found, expected))
    if isinstance(expected, float):
        return isinstance(found, (int, float)) and abs(found - expected) <= 0.001
    return found == expected


def command_lines(*args) -> list[dict]:
    out = io.StringIO()
    call_command("sheet_layout", *args, stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.mark.parametrize(("game", "players"), [("veggies", 4), ("vegetables", 4), ("cheese-rescue", 3)])
def test_the_command_prints_the_layout_a_page_a_line_with_the_printed_links(
    organiser_client, make_event, settings, game, players
):
    settings.PUBLIC_URL = ""
    event = named_event(make_event, game, players=3 * players, table_size=players)
    seat_round(event)
    round_ = round_with_seats(event, 1)

    lines = command_lines(event.slug, "1", "--address", "http://testserver")

    assert same(lines, layout_json(sheet_layouts(event, round_, link), page_size(event)))
    printed = "\n".join(
        pages_text(organiser_client.get(reverse("tournaments:print_sheets", args=[event.slug, 1])).content)
    )
    links = [table["link"] for line in lines for table in line["tables"]]
    assert len(links) == 3 and all(found in printed for found in links)


def test_the_command_takes_the_events_own_address_as_the_printouts_do(organiser_client, make_event, settings):
    settings.PUBLIC_URL = ""
    event = named_event(make_event, "cheese-rescue")
    event.public_url = "http://192.168.1.20:8000"
    event.save()
    round_ = seat_round(event)

    lines = command_lines(event.slug, "1")

    tokens = [table.token for table in round_.tables.order_by("number")]
    assert [table["link"] for table in lines[0]["tables"]] == [f"http://192.168.1.20:8000/t/{t}/" for t in tokens]
    printed = pages_text(organiser_client.get(reverse("tournaments:print_sheets", args=[event.slug, 1])).content)
    assert all(table["link"] in printed[0] for table in lines[0]["tables"])


def test_the_command_names_what_is_missing(make_event, settings):
    settings.PUBLIC_URL = ""
    event = named_event(make_event, "veggies")
    seat_round(event)

    with pytest.raises(CommandError, match="No tournament has the web address “no-such-event”"):
        command_lines("no-such-event", "1")
    with pytest.raises(CommandError, match=r"has no round 4 \(its rounds: 1\)"):
        command_lines(event.slug, "4")
    with pytest.raises(CommandError, match="--address"):
        command_lines(event.slug, "1")
    with pytest.raises(CommandError, match="--address: The address must start with http"):
        command_lines(event.slug, "1", "--address", "ftp://example.org")


def relative(layout: TableLayout) -> list[tuple]:
    """The layout's QR code and boxes measured from its top left corner mark."""
    origin = layout.marks[0]
    qr = layout.qr
    found = [("qr", round(qr.x - origin.x, 3), round(qr.y - origin.y, 3), round(qr.side, 3))]
    found += [(mark.x - origin.x, mark.y - origin.y, mark.side) for mark in layout.marks]
    for box in layout.boxes:
        where = (box.x - origin.x, box.y - origin.y, box.width, box.height)
        found.append((box.path, box.place, *(round(value, 3) for value in where)))
    return found


@pytest.mark.parametrize(
    ("game", "fields", "sizes"),
    [("veggies", {}, [4, 4, 4]), ("veggies", {"variant": "teams"}, [4, 3]), ("vegetables", {}, [4, 4])],
    ids=["two-a-page", "one-a-page-decided-by-another-table", "vegetables"],
)
def test_a_reprinted_sheet_has_its_boxes_where_the_rounds_has_them_around_its_marks(
    organiser_client, make_event, tmp_path, game, fields, sizes
):
    event = named_event(make_event, game, players=sum(sizes), **fields)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    tables = [ids[sum(sizes[:i]) : sum(sizes[: i + 1])] for i in range(len(sizes))]
    seat_by_hand(event, 1, tables)
    round_ = round_with_seats(event, 1)
    in_round = sheet_layouts(event, round_, link)
    assert [layout.page for layout in in_round] == [i // (2 if sizes == [4, 4, 4] else 1) for i in range(len(sizes))]
    table = table_with_seats(event, round_.tables.all()[1].pk)

    response = organiser_client.get(reverse("tournaments:print_table_sheet", args=[event.slug, table.pk]))
    reprint = table_sheet_layout(event, table, link)

    assert response.status_code == 200
    assert reprint.page == 0 and reprint.table == 2
    assert relative(reprint) == relative(in_round[1])
    pictures = rendered(response.content, tmp_path)
    assert len(pictures) == 1
    check_against_picture(reprint, pictures[0], page_size(event))
