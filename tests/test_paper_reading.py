"""Paper in, end to end: a round's printed sheets filled in by hand (a hand a table, of the sources the reader never
trained on), photographed by a phone or scanned, read back as an upload is, and compared box by box with what was
written."""

from __future__ import annotations

import numpy as np
import pytest
from django.urls import reverse

from tests import paper_letters, paper_photos
from tests.factories import seat_by_hand
from tournaments.printouts.sheets import round_with_seats, score_sheets_pdf, sheet_layouts
from tournaments.services.paper import Layouts, read_file

#: Pages are drawn at this resolution before they are photographed or scanned.
DPI = 300
#: The share of a photo's filled boxes that must be read right (the benchmark measures the rate over many).
RIGHT = 0.95


def table_link(table) -> str:
    return "http://testserver" + reverse("tournaments:table", args=[table.token])


def printed(make_event, game: str, tables: int = 2, **fields):
    """An event of ``tables`` 4-player tables seated in round 1: the event, its sheets' PDF and their layouts."""
    event = make_event(game, players=4 * tables, **fields)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    seat_by_hand(event, 1, [ids[i : i + 4] for i in range(0, len(ids), 4)])
    round_ = round_with_seats(event, 1)
    return event, score_sheets_pdf(event, round_, table_link), sheet_layouts(event, round_, table_link)


def filled_page(pdf: bytes, layouts, page: int, rng) -> tuple[np.ndarray, dict, dict]:
    """Page ``page`` drawn and filled by hand: the picture, its tables' layouts by number, the values written."""
    on_page = {layout.table: layout for layout in layouts if layout.page == page}
    values = paper_letters.random_values(on_page.values(), rng)
    page_picture = paper_photos.page_picture(pdf, page, DPI)
    picture = paper_letters.fill(page_picture, DPI, on_page.values(), values, rng, writer="any")
    return picture, on_page, values


def check_sheet(sheet, layout, values: dict) -> None:
    """The sheet's boxes as written: enough of the filled ones right, every empty one read empty, at most one box
    in 200 filled ones (one at least) wrong without being marked unsure, and every other field the reader is sure
    of right."""
    filled, right, empty_written, wrong_sure = paper_letters.misreads(sheet, layout, values)
    assert right >= RIGHT * filled, f"{right} of {filled} filled boxes right"
    assert not empty_written, empty_written
    assert len(wrong_sure) <= max(1, filled // 200), wrong_sure
    reading, unsure = sheet.reading(), set(sheet.unsure()) | {field for field, *_rest in wrong_sure}
    assert {name: reading[name] for name in values if name not in unsure} == {
        name: value for name, value in values.items() if name not in unsure
    }


@pytest.mark.parametrize(
    ("game", "fields", "seed"),
    [
        ("vegetables", {"manches_per_round": 3}, 11),
        ("veggies", {}, 12),
        ("snack-match", {}, 13),
        ("cheese-rescue", {}, 14),
    ],
)
def test_a_phone_photo_of_a_filled_sheet_is_read(make_event, game, fields, seed):
    rng = np.random.default_rng(seed)
    event, pdf, layouts = printed(make_event, game, **fields)
    picture, on_page, values = filled_page(pdf, layouts, 0, rng)
    photo = paper_photos.phone_photo(picture, rng)

    found = read_file(photo.jpeg, "photo.jpg", Layouts(event))

    assert sorted(sheet.layout.table for _page, sheet in found) == sorted(on_page)
    for page, sheet in found:
        assert page is None
        assert sheet.marks_found >= 3
        check_sheet(sheet, on_page[sheet.layout.table], values[sheet.layout.table])


def test_an_upside_down_photo_is_read(make_event):
    rng = np.random.default_rng(21)
    event, pdf, layouts = printed(make_event, "cheese-rescue")
    picture, on_page, values = filled_page(pdf, layouts, 0, rng)
    photo = paper_photos.phone_photo(picture, rng, turn=180 + rng.uniform(-10, 10))

    found = read_file(photo.jpeg, "upside-down.jpg", Layouts(event))

    assert sorted(sheet.layout.table for _page, sheet in found) == sorted(on_page)
    for _page, sheet in found:
        check_sheet(sheet, on_page[sheet.layout.table], values[sheet.layout.table])


def test_a_scanned_pdf_of_two_pages_is_read_page_by_page(make_event):
    rng = np.random.default_rng(31)
    event, pdf, layouts = printed(make_event, "vegetables", manches_per_round=2)
    assert [layout.page for layout in layouts] == [0, 1]
    pages = [filled_page(pdf, layouts, page, rng) for page in (0, 1)]
    scans = paper_photos.pdf_of_scans([paper_photos.scan(picture, rng) for picture, _on_page, _values in pages])

    found = read_file(scans, "scans.pdf", Layouts(event))

    assert [(page, sheet.layout.table) for page, sheet in found] == [(1, 1), (2, 2)]
    for (_picture, on_page, values), (_page, sheet) in zip(pages, found):
        check_sheet(sheet, on_page[sheet.layout.table], values[sheet.layout.table])


def test_a_photo_without_a_sheet_gives_nothing(make_event):
    rng = np.random.default_rng(41)
    event, _pdf, _layouts = printed(make_event, "veggies")
    page = np.full((3508, 2480), 250, np.uint8)
    page[300:400, 300:2200] = 40
    page[3000:3100, 2000:2100] = 20
    photo = paper_photos.phone_photo(page, rng)

    assert read_file(photo.jpeg, "table.jpg", Layouts(event)) == []
