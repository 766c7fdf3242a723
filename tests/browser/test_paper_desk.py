"""Paper in, at the desk, in Chromium: a photo of filled printed sheets uploaded, what was read checked beside the
picture of its boxes, one box corrected, saved, and the public standings moved; on a laptop and on a phone."""

from __future__ import annotations

import numpy as np
import pytest
from playwright.sync_api import Page, expect

from tests.factories import seat_by_hand
from tests.paper_photos import fill, page_picture, phone_photo
from tests.paper_sheets import stored_sheet
from tournaments.models import PaperSheet, SheetRevision
from tournaments.models.sheets import Via
from tournaments.printouts.sheets import round_with_seats, score_sheets_pdf, sheet_layouts
from tournaments.services.rounds import start_round

from .conftest import WAIT_MS
from .helpers import PLAYER_NAMES, club_event, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DPI = 150


def two_tables_in_play(game: str, name: str, organiser):
    """A club event of ``game`` whose round 1 is in play at two tables of four."""
    event = club_event(game, name=name, organiser=organiser)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    start_round(seat_by_hand(event, 1, [ids[:4], ids[4:]]))
    return event


def photographed(event, live_server, values, tmp_path, seed: int) -> str:
    """The round's first page printed, filled in by hand with ``values`` (per table), photographed by a phone."""
    round_ = round_with_seats(event, 1)
    link = lambda table: f"{live_server.url}/t/{table.token}/"  # noqa: E731
    pdf = score_sheets_pdf(event, round_, link)
    layouts = [layout for layout in sheet_layouts(event, round_, link) if layout.page == 0]
    rng = np.random.default_rng(seed)
    page = fill(page_picture(pdf, 0, DPI), DPI, layouts, values, rng)
    path = tmp_path / "IMG_2041.jpg"
    path.write_bytes(phone_photo(page, rng).jpeg)
    return str(path)


def upload(page: Page, event, photo: str, sheets: int) -> None:
    """The photo uploaded from the round's paper page: the first sheet's form shown, the others listed."""
    page.goto(f"/e/{event.slug}/organiser/rounds/1/")
    page.get_by_role("link", name="Read paper sheets").click()
    page.locator("#paper-files").set_input_files(photo)
    page.get_by_role("button", name="Read the sheets").click()
    expect(page.locator(".paper-sheet")).to_have_count(1, timeout=WAIT_MS * 2)
    expect(page.locator(".paper-others li")).to_have_count(sheets - 1)


def standings_top(page: Page, event) -> str:
    """The public standings' first row (or what stands in its place)."""
    page.goto(f"/e/{event.slug}/standings/")
    rows = page.locator(".standings-list li")
    return rows.first.inner_text() if rows.count() else page.locator("main").inner_text()


def test_a_photo_of_two_tables_is_read_corrected_and_saved_on_a_laptop(
    organiser_page, organiser_user, live_server, tmp_path
):
    page = organiser_page
    event = two_tables_in_play("cheese-rescue", "Paper Night", organiser_user)
    ticks = {
        1: [["1", "1", "3"], ["1"], [], ["2", "2"]],
        2: [["3"], ["1", "2"], ["1", "1", "1", "2", "2", "3"], []],
    }
    values = {
        table: {f"tallies[{p}].cheeses": chosen for p, chosen in enumerate(rows)} for table, rows in ticks.items()
    }
    photo = photographed(event, live_server, values, tmp_path, seed=7)
    upload(page, event, photo, sheets=2)
    expect(page.get_by_text("2 sheets read (tables 1, 2)")).to_be_visible()
    first = page.locator(".paper-sheet").filter(has_text="Table 1 · round 1")
    for seat, chosen in enumerate(ticks[1]):
        boxes = first.locator(f'input[name="tallies[{seat}].cheeses"]')
        expect(boxes).to_have_count(6)
        assert sum(box.is_checked() for box in boxes.all()) == len(chosen)
    expect(first.locator("svg.paper-crop").first).to_be_visible()
    screenshot(page, "paper-desk-1280", full_page=True)
    assert "No results yet" in standings_top(page, event)
    page.go_back()
    page.locator(".paper-others").get_by_role("link", name="Table 2 · round 1").click()
    second = page.locator(".paper-sheet").filter(has_text="Table 2 · round 1")
    second.locator('input[name="tallies[2].cheeses"][value="3"]').uncheck()
    second.get_by_role("button", name="Save table 2").click()
    expect(page.get_by_text("Table 2 saved from its paper sheet")).to_be_visible()
    page.locator(".paper-sheet").filter(has_text="Table 1 · round 1").get_by_role("button", name="Save table 1").click()
    expect(page.get_by_text("Table 1 saved from its paper sheet")).to_be_visible()
    expect(page.get_by_text("No sheet is waiting")).to_be_visible()
    expect(page.locator(".paper-others")).to_have_count(0)
    assert not PaperSheet.objects.exists()
    assert set(SheetRevision.objects.values_list("via", flat=True)) == {Via.PAPER}
    assert all(revision.paper for revision in SheetRevision.objects.all())
    assert PLAYER_NAMES[6] in standings_top(page, event)


def test_a_photo_of_a_veggies_sheet_is_read_and_saved_on_a_phone(
    organiser_phone, organiser_user, live_server, tmp_path
):
    page = organiser_phone
    event = two_tables_in_play("veggies", "Paper Veggies", organiser_user)
    stands = [(5, 1, 0), (4, 1, 1), (3, 2, 0), (2, 1, 3)]
    values = {}
    for table in (1, 2):
        values[table] = {}
        for p, (largest, groups, mice) in enumerate(stands):
            values[table][f"stands[{p}].declared"] = ["grapes"]
            values[table][f"stands[{p}].goods.grapes.largest"] = largest
            values[table][f"stands[{p}].goods.grapes.groups"] = groups
            values[table][f"stands[{p}].mice"] = mice
    photo = photographed(event, live_server, values, tmp_path, seed=11)
    upload(page, event, photo, sheets=2)
    sheet = page.locator(".paper-sheet").filter(has_text="Table 1 · round 1")
    misread = 0
    for name, value in values[1].items():
        if isinstance(value, int):
            box = sheet.locator(f'input[name="{name}"]')
            if box.input_value() != str(value):
                misread += 1
                box.fill(str(value))
    assert misread <= 2
    screenshot(page, "paper-desk-360", full_page=True)
    sheet.locator('input[name="stands[2].goods.grapes.largest"]').fill("4")
    sheet.get_by_role("button", name="Save table 1").click()
    expect(page.get_by_text("Table 1 saved from its paper sheet")).to_be_visible()
    overflow = page.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth")
    assert not overflow
    assert PLAYER_NAMES[2] in standings_top(page, event)


#: A VEGEtables manche read right: each player's pozzo and crosses (16 in all).
POZZO, CROSSES = (30, 20, 10, 0), (6, 4, 3, 3)


def test_a_refused_save_brings_its_first_error_into_view_on_a_laptop(organiser_page, organiser_user):
    page = organiser_page
    event = two_tables_in_play("vegetables", "Paper Refused", organiser_user)
    table = event.rounds.get(number=1).tables.get(number=1)
    values = {}
    for manche in range(1, event.manches_per_round + 1):
        for p, (pozzo, crosses) in enumerate(zip(POZZO, CROSSES)):
            values[f"{manche}:manches[0].pozzo[{p}]"] = pozzo
            values[f"{manche}:manches[0].sequences[{p}]"] = crosses
    values["4:manches[0].sequences[3]"] = 2
    stored_sheet(table, values)
    page.goto(f"/e/{event.slug}/organiser/rounds/1/paper/")
    page.get_by_role("button", name="Save table 1").click()
    first = page.locator(".paper-field.invalid").first
    expect(first).to_contain_text("16")
    expect(first).to_be_in_viewport()
    expect(first.locator('input[name="4:manches[0].sequences[0]"]')).to_be_focused()
    screenshot(page, "paper-refused-1280")
    summary = page.locator(".paper-problems")
    expect(summary).to_contain_text("Table 1 was not saved")
    summary.get_by_role("link").first.click()
    expect(first).to_be_in_viewport()
    assert table.manches.get(number=4).document is None
