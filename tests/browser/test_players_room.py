"""The players page is a table: at 1280 x 800, in English, Spanish and Italian, the 48 players of a club night's list
fill the first screen fifteen or more at a time, one line each, under a toolbar of one line; on a wide screen more of
them; on a 360 px phone nothing is wider than the phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.club_night import import_club_night

from .conftest import PHONE, WAIT_MS, logged_in
from .helpers import layout_problems, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 800}
WIDE = {"width": 1920, "height": 1080}
#: The tallest a row of one line may be: a line of text is about 23 px, its switch and buttons 28 px.
ONE_LINE_PX = 40

#: Where the rows of the table and the toolbar's controls are on the screen.
MEASURE = """() => {
  const height = window.innerHeight;
  const width = document.documentElement.clientWidth;
  const rows = [...document.querySelectorAll("table.players-table tbody tr")].map((row) => row.getBoundingClientRect());
  const whole = rows.filter((box) => box.top >= 0 && box.bottom <= height && box.left >= 0 && box.right <= width);
  const toolbar = document.querySelector(".players-toolbar");
  const controls = [...toolbar.children].map((child) => child.getBoundingClientRect()).filter((box) => box.width > 0);
  return {
    rows: rows.length,
    heights: whole.map((box) => box.height),
    toolbarTops: [...new Set(controls.map((box) => Math.round(box.top)))],
    toolbarHeight: toolbar.getBoundingClientRect().height,
    toolbarRight: Math.max(...controls.map((box) => box.right)),
    width,
  };
}"""


@pytest.fixture
def event(make_event, organiser_user):
    event = make_event("cheese-rescue", players=0)
    event.name = "Noche de juegos — Cheese Rescue"
    event.save(update_fields=["name"])
    import_club_night(event)
    event.organisers.add(organiser_user)
    return event


@pytest.fixture
def players_page(new_context, organiser_user, live_server, event):
    """Opens the players page of the club night in ``language`` on a screen of ``viewport``."""

    def open_page(language: str, viewport: dict, **options) -> Page:
        context = logged_in(new_context(viewport=viewport, **options), organiser_user, live_server)
        context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        context.set_default_timeout(WAIT_MS)
        page = context.new_page()
        page.goto(f"/e/{event.slug}/organiser/players/")
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("table.players-table tbody tr")).to_have_count(48)
        return page

    return open_page


def one_line_rows(page: Page) -> dict:
    """The page's measures, once every row wholly on the screen has been found to be one line of the same height."""
    measured = page.evaluate(MEASURE)
    heights = measured["heights"]
    assert max(heights) < ONE_LINE_PX, f"rows of {heights} px"
    assert max(heights) - min(heights) < 1, f"rows of {heights} px"
    return measured


@pytest.mark.parametrize("language", ["en", "es", "it"])
def test_fifteen_players_one_line_each_under_a_one_line_toolbar(players_page, language):
    page = players_page(language, LAPTOP)
    screenshot(page, f"players-room-{language}-1280")
    measured = one_line_rows(page)
    assert len(measured["heights"]) >= 15, f"{len(measured['heights'])} rows on the first screen"
    assert len(measured["toolbarTops"]) == 1, f"the toolbar's controls start at {measured['toolbarTops']} px"
    assert measured["toolbarHeight"] < 45
    assert measured["toolbarRight"] <= measured["width"]
    assert layout_problems(page) == []


def test_a_wide_screen_shows_more_players(players_page):
    page = players_page("en", WIDE)
    screenshot(page, "players-room-en-1920")
    measured = one_line_rows(page)
    assert len(measured["heights"]) >= 24, f"{len(measured['heights'])} rows on the first screen"
    assert layout_problems(page) == []


@pytest.mark.parametrize("language", ["en", "es", "it"])
def test_a_phone_scrolls_down_never_sideways(players_page, language):
    page = players_page(language, PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    screenshot(page, f"players-room-{language}-360")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert layout_problems(page) == []
