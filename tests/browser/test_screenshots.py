"""What the main pages look like at phone (360 x 740) and desktop (1280 x 800) sizes, with the realistic list.

Each test saves test-output/screenshots/<page>-<size>.png (docs/screenshots/ holds a copy of the current set)
and checks that the page fits a 360 px phone without scrolling sideways: wide content has to scroll inside
its own box.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .helpers import realistic_night, screenshot, settled, tournament_day

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


#: name: (who looks, address from the day's tournament)
PAGES = {
    "home": ("public", lambda day: "/"),
    "event": ("public", lambda day: f"/e/{day.event.slug}/"),
    "standings": ("public", lambda day: f"/e/{day.event.slug}/standings/"),
    "projector": ("public", lambda day: f"/e/{day.event.slug}/projector/"),
    "player": ("public", lambda day: f"/e/{day.event.slug}/players/{day.player.pk}/"),
    "player-link": ("public", lambda day: f"/p/{day.player.token}/"),
    "table-entry": ("public", lambda day: f"/t/{day.empty.token}/"),
    "table-saved": ("public", lambda day: f"/t/{day.entered.token}/"),
    "login": ("public", lambda day: "/accounts/login/"),
    "dashboard": ("organiser", lambda day: "/organiser/"),
    "event-new": ("organiser", lambda day: "/organiser/events/new/"),
    "desk": ("organiser", lambda day: f"/e/{day.event.slug}/organiser/"),
    "players": ("organiser", lambda day: f"/e/{day.event.slug}/organiser/players/"),
    "round": ("organiser", lambda day: f"/e/{day.event.slug}/organiser/rounds/2/"),
    "desk-table": ("organiser", lambda day: f"/e/{day.event.slug}/organiser/tables/{day.entered.pk}/"),
}
PARAMS = list(PAGES)


def sideways_scroll(page: Page) -> int:
    """How many pixels the page is wider than the window (0 when it fits)."""
    return page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")


@pytest.mark.parametrize("name", PARAMS)
def test_page_at_desktop_and_phone_sizes(name, request, organiser_user):
    day = realistic_night("vegetables", organiser_user)
    who, address = PAGES[name]
    if who == "public":
        desktop, small = request.getfixturevalue("page"), request.getfixturevalue("phone")()
    else:
        desktop, small = request.getfixturevalue("organiser_page"), request.getfixturevalue("organiser_phone")
    for size, visitor in (("desktop", desktop), ("phone", small)):
        visitor.goto(address(day))
        expect(visitor.get_by_role("heading", level=1)).to_be_visible()
        settled(visitor)
        screenshot(visitor, f"{name}-{size}")
    assert sideways_scroll(small) == 0


@pytest.mark.parametrize("game", ["vegetables", "cheese-rescue"])
def test_a_phone_shows_every_player_s_column_of_the_sheet(game, phone, organiser_user):
    day = tournament_day(game, organiser_user)
    table = phone()
    table.goto(f"/t/{day.empty.token}/")
    cards = table.locator("#manche-1 .player-card")
    expect(cards).to_have_count(4)
    for card in cards.all():
        box = card.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= table.viewport_size["width"]
    assert sideways_scroll(table) == 0
