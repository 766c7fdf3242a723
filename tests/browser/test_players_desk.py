"""The players page at a laptop (1280 x 800) with the realistic list of 48: the table starts on the first screen, a
check-in flips in its row without a reload, three ticked players are checked in after a confirmation, the roll
call checks a player in by keyboard (Enter with several matches keeps the list to pick from), and axe-core finds
nothing serious."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.club_night import club_night
from tournaments.collation import alphabetical
from tournaments.services.players import roll_call_matches

from .helpers import layout_problems, screenshot, settled
from .test_accessibility import serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NURIA = "Núria Sánchez i Puig"


@pytest.fixture
def event(organiser_user):
    event = club_night(game="veggies", complete=0, live_tables=None)
    first = event.players.order_by("pk").first()
    event.players.filter(pk=first.pk).update(name=NURIA)
    event.organisers.add(organiser_user)
    return event


def rows(page):
    return page.locator("#player-list ~ table tbody tr")


def open_players(page, event):
    page.goto(f"/e/{event.slug}/organiser/players/")
    expect(rows(page)).to_have_count(48)
    page.evaluate("window.samePage = true")


def test_the_table_starts_on_the_first_screen_and_a_check_in_flips_in_its_row(organiser_page, event):
    page = organiser_page
    open_players(page, event)
    screenshot(page, "players-desk")
    for row in rows(page).all()[:3]:
        box = row.bounding_box()
        assert box["y"] + box["height"] <= 800, f"a first row ends at {box['y'] + box['height']} px"
    for name in ("Name", "Club", "Team", "Checked in", "Status"):
        expect(page.get_by_role("columnheader", name=name)).to_be_visible()
    assert layout_problems(page) == []

    row = rows(page).nth(2)
    row.get_by_role("button", name=re.compile("^Check in")).click()
    expect(row.get_by_role("button", name=re.compile("^Undo"))).to_be_visible()
    expect(page.locator("#player-counts")).to_contain_text("48 players, 1 checked in")
    assert page.evaluate("window.samePage") is True
    assert event.players.filter(checked_in=True).count() == 1


def test_the_column_header_sorts_the_table(organiser_page, event):
    page = organiser_page
    open_players(page, event)
    page.get_by_role("columnheader", name="Club").get_by_role("link").click()
    expect(page.get_by_role("columnheader", name="Club")).to_have_attribute("aria-sort", "ascending")
    clubs = [text.strip() for text in rows(page).locator("td:nth-child(3)").all_inner_texts()]
    named = [club for club in clubs if club]
    assert clubs == named + [""] * (len(clubs) - len(named))
    assert named == alphabetical(named)


def test_three_ticked_players_are_checked_in_after_a_confirmation(organiser_page, event):
    page = organiser_page
    open_players(page, event)
    chosen = []
    for row in rows(page).all()[:3]:
        tick = row.get_by_role("checkbox")
        tick.check()
        chosen.append(int(tick.get_attribute("value")))
    asked = []

    def accept(dialog):
        asked.append(dialog.message)
        dialog.accept()

    page.once("dialog", accept)
    page.locator("summary", has_text="Several players").click()
    page.get_by_role("button", name="Check in the ticked").click()
    expect(page.locator("ul.messages")).to_contain_text("3 players checked in.")
    assert asked == ["Check in the ticked players?"]
    assert set(event.players.filter(checked_in=True).values_list("pk", flat=True)) == set(chosen)
    expect(page.locator("#player-counts")).to_contain_text("48 players, 3 checked in")


def test_the_roll_call_checks_a_player_in_by_keyboard(organiser_page, event):
    page = organiser_page
    open_players(page, event)
    box = page.get_by_label("Roll call")
    box.click()
    box.press_sequentially("nuria", delay=30)
    expect(page.locator("#roll-call-matches")).to_contain_text(NURIA)
    expect(page.locator("#roll-call-matches button")).to_have_count(1)
    assert serious_violations(page) == []
    screenshot(page, "players-desk-roll-call")
    box.press("Enter")
    expect(page.locator("#roll-call-said")).to_have_text(f"{NURIA} checked in.")
    expect(box).to_have_value("")
    expect(box).to_be_focused()
    settled(page)
    row = page.locator("tr", has=page.get_by_role("link", name=f"{NURIA} (edit)"))
    expect(row.get_by_role("button", name=re.compile("^Undo"))).to_be_visible()
    assert event.players.get(name=NURIA).checked_in
    assert page.evaluate("window.samePage") is True


def test_enter_with_several_matches_keeps_the_list_to_pick_from(organiser_page, event):
    page = organiser_page
    open_players(page, event)
    names = [player.name for player in roll_call_matches(event, "ana")]
    assert len(names) > 1
    box = page.get_by_label("Roll call")
    box.click()
    box.press_sequentially("ana", delay=30)
    choices = page.locator("#roll-call-matches button")
    expect(choices).to_have_count(len(names))
    box.press("Enter")
    expect(page.locator("#roll-call-said")).to_have_text(
        f"{len(names)} players match: type more of the name, or pick one."
    )
    settled(page)
    expect(choices).to_have_count(len(names))
    expect(page.locator("#roll-call-matches")).to_be_visible()
    expect(box).to_have_value("ana")
    assert event.players.filter(checked_in=True).count() == 0
    screenshot(page, "players-desk-roll-call-several")

    box.press("ArrowDown")
    box.press("Enter")
    expect(page.locator("#roll-call-said")).to_have_text(f"{names[0]} checked in.")
    expect(box).to_have_value("")
    assert list(event.players.filter(checked_in=True).values_list("name", flat=True)) == [names[0]]


def test_the_desk_layout_has_no_serious_violation(organiser_page, event):
    page = organiser_page
    open_players(page, event)
    assert serious_violations(page) == []
