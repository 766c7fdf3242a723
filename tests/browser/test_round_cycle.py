"""A round's life cycle at the organiser's desk, on a laptop: seat with check-in in use, publish, take the seating
back, seat again, publish, start, complete, reopen and complete again. Each step that cannot be silently undone
is confirmed on its own page, and the one highlighted button is always the next step."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tournaments.models import Player

from .helpers import club_event, enter_remaining_sheets, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The amber of a warning, as the browser computes it.
AMBER = "rgb(255, 246, 224)"


def messages(page: Page):
    return page.locator("ul.messages")


def highlighted(page: Page, label: str) -> None:
    """The page has one highlighted button (or link to a step's confirmation), and it says ``label``."""
    expect(page.locator("main .primary")).to_have_count(1)
    expect(page.locator("main .primary")).to_have_text(label)


def confirm(page: Page, button: str, title: str) -> None:
    """Follow ``button`` (a link), check the confirmation page it opens, and confirm there."""
    page.get_by_role("link", name=button, exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(title)
    highlighted(page, button)
    expect(page.get_by_role("link", name="Cancel")).to_be_visible()
    page.get_by_role("button", name=button).click()


def test_the_organiser_takes_a_round_round_its_life_cycle(organiser_page, organiser_user):
    page = organiser_page
    event = club_event("cheese-rescue", name="Cheese Night", organiser=organiser_user)
    event.players.update(checked_in=True)
    Player.objects.create(event=event, name="Ivo Tardi", club="Mele Club")

    page.goto(f"/e/{event.slug}/organiser/")
    page.get_by_role("button", name="Seat round 1").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Seat round 1")
    expect(page.locator("main")).to_contain_text(
        "8 checked-in players will be seated at 2 tables; left out: 1 not checked in: Ivo Tardi."
    )
    expect(page.get_by_label("Seating method")).to_have_value("mixer")
    page.get_by_label("Seating method").select_option("random")
    highlighted(page, "Seat round 1")
    screenshot(page, "round-seat-confirm")
    page.get_by_role("button", name="Seat round 1").click()
    expect(messages(page)).to_contain_text("Round 1 is seated.")
    expect(page.locator(".table-card")).to_have_count(2)
    expect(page.locator("#round-body")).not_to_contain_text("Ivo Tardi")
    highlighted(page, "Publish the seating")
    screenshot(page, "round-seated")

    confirm(page, "Publish the seating", "Publish the seating of round 1")
    expect(messages(page)).to_contain_text("Round 1 is published.")
    highlighted(page, "Start the round")

    page.get_by_role("button", name="Unpublish the seating").click()
    expect(messages(page)).to_contain_text("The seating of round 1 is no longer published.")
    highlighted(page, "Publish the seating")

    first_draw = page.locator(".table-card ol").all_inner_texts()
    confirm(page, "Re-seat the round", "Seat round 1 again")
    expect(messages(page)).to_contain_text("Round 1 is seated again.")
    assert page.locator(".table-card ol").all_inner_texts() != first_draw
    highlighted(page, "Publish the seating")

    confirm(page, "Publish the seating", "Publish the seating of round 1")
    expect(messages(page)).to_contain_text("Round 1 is published.")
    page.get_by_role("button", name="Start the round").click()
    expect(messages(page)).to_contain_text("Round 1 is in play.")
    highlighted(page, "Complete the round")

    for table in event.rounds.get().tables.order_by("number"):
        enter_remaining_sheets(page.request, table.token, shift=table.number)
    page.get_by_role("link", name="Complete the round").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Complete round 1")
    warning = page.locator("main li.warning")
    expect(warning).to_have_text("Tables 1, 2 have sheets that no second player confirmed.")
    expect(warning).to_have_css("background-color", AMBER)
    screenshot(page, "round-complete-confirm")
    page.get_by_role("button", name="Complete the round").click()
    expect(messages(page).locator("li.success")).to_have_text("Round 1 is complete.")
    expect(messages(page).locator("li.warning")).to_have_css("background-color", AMBER)
    highlighted(page, "Seat round 2")
    screenshot(page, "round-complete")

    confirm(page, "Reopen the round", "Reopen round 1")
    expect(messages(page)).to_contain_text("Round 1 is open again: its tables take corrections.")
    highlighted(page, "Complete the round")

    confirm(page, "Complete the round", "Complete round 1")
    expect(messages(page).locator("li.success")).to_have_text("Round 1 is complete.")
    highlighted(page, "Seat round 2")
