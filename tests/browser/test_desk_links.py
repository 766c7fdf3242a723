"""A table's link at the organiser's desk, on a laptop: its QR code on screen for a phone to scan, a new link only
after a confirmation that says what stops working (with and without JavaScript), the table's own sheet to reprint,
and the round's steps opened at clean addresses."""

from __future__ import annotations

import io

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from tests.factories import seat_by_hand
from tournaments.models import Table
from tournaments.models.rounds import RoundStatus

from .conftest import DESKTOP, WAIT_MS, logged_in
from .helpers import club_event, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WARNING = "Phones holding the old link of table 1, and the QR code printed on its sheet, will stop working."


@pytest.fixture
def table(organiser_user) -> Table:
    event = club_event("vegetables", name="Link Night", organiser=organiser_user)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    return seat_by_hand(event, 1, [ids[:4], ids[4:]], status=RoundStatus.IN_PLAY).tables.get(number=1)


def desk_address(table: Table) -> str:
    return f"/e/{table.round.event.slug}/organiser/tables/{table.pk}/"


def scanned(page: Page) -> str:
    """What a phone reads from the QR code on the screen."""
    image = Image.open(io.BytesIO(page.locator("svg.qr-code").screenshot()))
    codes = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCodeModel2)
    assert len(codes) == 1
    return codes[0].text


def shown_link(page: Page) -> str:
    return page.locator(".link-qr figcaption a").inner_text()


def test_the_qr_code_on_screen_reads_as_the_link_and_a_new_one_is_confirmed_first(organiser_page, table, live_server):
    page = organiser_page
    page.goto(desk_address(table))
    old = shown_link(page)
    assert old == f"{live_server.url}/t/{table.token}/"
    expect(page.locator("svg.qr-code")).to_be_visible()
    assert scanned(page) == old
    box = page.locator("svg.qr-code").bounding_box()
    assert box["width"] >= 150 and box["width"] == box["height"]
    screenshot(page, "desk-table-link")

    page.get_by_role("link", name="Revoke the link and issue a new one").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("New link for table 1")
    expect(page.locator("main")).to_contain_text(WARNING)
    expect(page.locator("main")).to_contain_text("Then reprint this table's sheet")
    assert not page.url.endswith("?")
    page.get_by_role("link", name="Cancel").click()
    expect(page.locator(".link-qr figcaption a")).to_have_text(old)

    page.get_by_role("link", name="Revoke the link and issue a new one").click()
    page.get_by_role("button", name="Revoke the link and issue a new one").click()
    expect(page.locator("ul.messages")).to_contain_text("The old table link no longer works")
    assert page.url.endswith(f"{desk_address(table)}#table-link")
    table.refresh_from_db()
    new = f"{live_server.url}/t/{table.token}/"
    expect(page.locator(".link-qr figcaption a")).to_have_text(new)
    assert new != old and scanned(page) == new
    assert page.request.get(old).status == 404

    sheet = page.get_by_role("link", name="Print this table's sheet (PDF)")
    expect(sheet).to_be_in_viewport()
    response = page.request.get(sheet.get_attribute("href"))
    assert response.ok and response.headers["content-type"] == "application/pdf"
    pdf = PdfReader(io.BytesIO(response.body()))
    assert len(pdf.pages) == 1 and new in pdf.pages[0].extract_text()


def test_without_javascript_the_new_link_is_confirmed_on_its_own_page(new_context, organiser_user, table, live_server):
    context = logged_in(new_context(viewport=DESKTOP, java_script_enabled=False), organiser_user, live_server)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.goto(desk_address(table))
    old = table.token
    page.get_by_role("link", name="Revoke the link and issue a new one").click()
    expect(page.locator("main")).to_contain_text(WARNING)
    table.refresh_from_db()
    assert table.token == old, "opening the confirmation changes nothing"
    page.get_by_role("button", name="Revoke the link and issue a new one").click()
    expect(page.locator("ul.messages")).to_contain_text("The old table link no longer works")
    table.refresh_from_db()
    assert table.token != old and scanned(page) == f"{live_server.url}/t/{table.token}/"


def test_the_rounds_steps_open_their_confirmation_without_an_empty_query(organiser_page, organiser_user):
    event = club_event("vegetables", name="Step Night", organiser=organiser_user)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    round_ = seat_by_hand(event, 1, [ids[:4], ids[4:]])
    round_.published = False
    round_.save(update_fields=["published"])
    page = organiser_page
    page.goto(f"/e/{event.slug}/organiser/rounds/1/")
    for step, title in (("Publish the seating", "Publish the seating of round 1"), ("Re-seat the round", "again")):
        page.get_by_role("link", name=step, exact=True).click()
        expect(page.get_by_role("heading", level=1)).to_contain_text(title)
        assert "?" not in page.url, page.url
        page.get_by_role("link", name="Cancel").click()
