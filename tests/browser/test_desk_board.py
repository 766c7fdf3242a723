"""The desk's board in a browser: a round with a table in each state, counted and named right, filtered by state, a
tile changed live by a save, no serious accessibility finding, and a layout that holds from a phone to a wide
screen with the board's first row in view on a laptop."""

from __future__ import annotations

import datetime
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.helpers import layout_problems, screenshot
from tests.browser.test_accessibility import serious_violations
from tests.club_night import import_club_night
from tests.factories import cheese_tallies, enter
from tests.test_desk_board import every_state
from tournaments.models import Event, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STATES = ["empty", "entered", "to confirm", "confirmed", "disputed", "locked"]


@pytest.fixture
def playing(organiser_user):
    """Round 1 of a Cheese Rescue evening with the club night's long names, its clock running: six tables, one in
    each state."""
    event = Event.objects.create(
        name="Noche de queso", date=datetime.date(2026, 11, 21), game="cheese-rescue", table_size=4,
        manches_per_round=2, rounds_planned=3, seed=20261121,
    )  # fmt: skip
    import_club_night(event)
    event.organisers.add(organiser_user)
    round_ = every_state(event)
    Round.objects.filter(pk=round_.pk).update(clock_seconds=3600, clock_started_at=timezone.now())
    return event, round_


def test_the_board_counts_names_filters_and_changes_live(organiser_page, playing):
    event, round_ = playing
    desk = organiser_page
    desk.goto(f"/e/{event.slug}/organiser/")
    board = desk.locator("#desk-board")
    filters = board.get_by_role("navigation", name="Tables by state")
    expect(filters.get_by_role("link")).to_have_text(["All 6 tables"] + [f"1 {state}" for state in STATES])
    expect(board.locator(".tile-state")).to_have_text(STATES)
    first = board.locator(".board-tile").first
    screenshot(desk, "desk-board")
    assert first.bounding_box()["y"] + first.bounding_box()["height"] <= 800, "the first row is in view at 1280 x 800"
    screenshot(desk, "desk-board")

    filters.get_by_role("link", name="1 to confirm").click()
    expect(desk).to_have_url(re.compile(r"\?state=to_confirm$"))
    expect(board.locator(".board-tile")).to_have_count(1)
    expect(board.locator(".tile-state")).to_have_text(["to confirm"])
    expect(filters.get_by_role("link", name="1 to confirm")).to_have_attribute("aria-current", "true")

    filters.get_by_role("link", name="All 6 tables").click()
    expect(board.locator(".board-tile")).to_have_count(6)
    tile = board.locator("#tile-1")
    expect(tile.locator(".tile-state")).to_have_text("empty")
    enter(round_.tables.get(number=1), cheese_tallies([9, 5, 3, 1]))
    expect(tile.locator(".tile-state")).to_have_text("entered", timeout=6_000)
    expect(tile.locator(".tile-time")).to_contain_text("Last change")
    expect(filters.get_by_role("link")).to_have_text(
        ["All 6 tables", "2 entered", "1 to confirm", "1 confirmed", "1 disputed", "1 locked"]
    )

    tile.click()
    expect(desk).to_have_url(re.compile(rf"/e/{event.slug}/organiser/tables/\d+/$"))


def test_the_board_has_no_serious_violation_and_holds_at_every_width(organiser_page, playing):
    event, _ = playing
    desk = organiser_page
    found = {}
    for width, height in [(360, 740), (1280, 800), (1920, 1080)]:
        desk.set_viewport_size({"width": width, "height": height})
        desk.goto(f"/e/{event.slug}/organiser/")
        expect(desk.locator(".board-tile")).to_have_count(6)
        found[width] = layout_problems(desk) + serious_violations(desk)
        screenshot(desk, f"desk-board-{width}", full_page=width == 360)
    tiles = desk.locator(".board-tile")
    assert found == {360: [], 1280: [], 1920: []}
    desk.set_viewport_size({"width": 360, "height": 740})
    lefts = {round(tiles.nth(i).bounding_box()["x"]) for i in range(6)}
    assert len(lefts) == 1, "on a phone the tiles stack"
