"""Two players' phones at 360 px: one disputes a sheet with a reason, the other sees it and cannot confirm; a locked
table says so on the phone, and a save that meets the lock keeps what was typed on screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import screenshot
from tests.browser.test_desk_live import round_in_play
from tests.browser.test_journey import manche_region
from tests.browser.test_phone_entry import card, fits
from tests.factories import cheese_tallies, enter
from tournaments.models import Table
from tournaments.models.rounds import TableStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REASON = "Seat 3 counted the same cheese twice"


def test_one_phone_disputes_with_a_reason_the_other_sees_it_and_cannot_confirm(phone, organiser_user):
    _event, round_ = round_in_play(organiser_user)
    table = round_.tables.get(number=1)
    enter(table, cheese_tallies([9, 5, 3, 1]))
    seats = {seat.position: seat.player for seat in table.seats.select_related("player")}

    first, second = phone(), phone()
    second.goto(f"/p/{seats[3].token}/tables/{table.pk}/")
    expect(
        manche_region(second, 1, "Game").get_by_role("button", name=f"Confirm this result as {seats[3].name}")
    ).to_be_visible()
    first.goto(f"/p/{seats[2].token}/tables/{table.pk}/")
    region = manche_region(first, 1, "Game")
    region.get_by_text("Something is wrong: call the organiser").click()
    region.get_by_role("button", name="Call the organiser").click()
    expect(region.get_by_role("alert")).to_have_text("Reason: say in a few words what is wrong; a dispute needs one.")
    field = region.get_by_label("What is wrong?")
    expect(field).to_have_attribute("aria-invalid", "true")
    fits(first)
    field.fill(REASON)
    region.get_by_role("button", name="Call the organiser").click()
    expect(region.get_by_role("status")).to_have_text("The organiser has been told; they will come to your table.")
    shown = f"Disputed: {REASON}; the organiser will settle it."
    expect(first.locator("#table-notice")).to_have_text(shown)
    expect(first.locator("#table-status")).to_have_text("Disputed")
    fits(first)
    screenshot(first, "dispute-sent")
    table.refresh_from_db()
    assert table.status == TableStatus.DISPUTED and table.dispute_reason == REASON

    other = manche_region(second, 1, "Game")
    other.get_by_role("button", name=f"Confirm this result as {seats[3].name}").click()
    expect(other.get_by_role("alert")).to_have_text(f"{shown} Nobody confirms it until then.")
    expect(second.locator("#table-notice")).to_have_text(shown)
    expect(other.get_by_role("button", name=f"Confirm this result as {seats[3].name}")).to_have_count(0)
    fits(second)
    screenshot(second, "dispute-seen-on-another-phone")
    second.reload()
    expect(second.locator("#table-notice")).to_have_text(shown)
    expect(manche_region(second, 1, "Game")).to_contain_text("nobody confirms its sheets")
    expect(second.get_by_role("button", name=f"Confirm this result as {seats[3].name}")).to_have_count(0)
    assert table.manches.get(number=1).confirmed_at is None


def test_a_locked_table_says_so_and_a_save_that_meets_the_lock_keeps_what_was_typed(phone, organiser_user):
    _event, round_ = round_in_play(organiser_user)
    table = round_.tables.get(number=2)
    page = phone()
    page.goto(f"/t/{table.token}/")
    page.get_by_role("radio", name=table.seats.get(position=1).player.name).check()
    Table.objects.filter(pk=table.pk).update(locked=True)
    locked = (
        "The organiser has locked this table: scores can no longer be changed here. "
        "For a correction, ask the organiser at the desk."
    )
    player = card(page, 1, 0)
    player.get_by_label("Cheese points left").fill("9")
    player.get_by_label("Cheese cards left").fill("5")
    page.locator("#save-1").click()
    region = manche_region(page, 1, "Game")
    expect(region.get_by_role("status")).to_have_text(
        f"{locked} Not saved: what you typed is kept below, to show the organiser."
    )
    expect(player.get_by_label("Cheese points left")).to_have_value("9")
    expect(player.get_by_label("Cheese points left")).to_be_disabled()
    expect(page.locator("#save-1")).to_have_count(0)
    expect(page.locator("#table-notice")).to_have_text(locked)
    fits(page)
    screenshot(page, "locked-save-refused")
    assert table.manches.get(number=1).document is None

    page.reload()
    expect(page.locator("#table-notice")).to_have_text(locked)
    expect(region).to_contain_text(locked)
    expect(page.get_by_role("button", name="Save")).to_have_count(0)
    fits(page)
    screenshot(page, "locked-table")
