"""The players page in a browser: clearing every check-in asks first (a dialog with JavaScript, a page without) and
can be undone; a player never seated is deleted after a dialog, the counts following."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.factories import seat_by_hand

from .conftest import DESKTOP, WAIT_MS, logged_in
from .helpers import PLAYER_NAMES, club_event, screenshot, settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARRIVED = PLAYER_NAMES[:5]


@pytest.fixture
def event(organiser_user):
    event = club_event("cheese-rescue", name="Cheese Night", organiser=organiser_user)
    event.players.filter(name__in=ARRIVED).update(checked_in=True)
    return event


def checked_in(event) -> set[str]:
    return set(event.players.filter(checked_in=True).values_list("name", flat=True))


def test_check_in_none_asks_in_a_dialog_and_is_undone(organiser_page, event):
    page = organiser_page
    page.goto(f"/e/{event.slug}/organiser/players/")
    asked = []

    def dismiss(dialog):
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismiss)
    page.locator("summary", has_text="Several players").click()
    page.get_by_role("button", name="Check in none").click()
    expect(page.locator("#player-counts")).to_have_text("8 players, 5 checked in, 0 dropped")
    assert asked == ["Clear the check-ins of 5 players?"]
    assert checked_in(event) == set(ARRIVED)

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Check in none").click()
    notice = page.locator("#check-in-undo")
    expect(notice).to_contain_text("5 check-ins cleared.")
    expect(page.locator("#player-counts")).to_have_text("8 players, 0 checked in, 0 dropped")
    assert checked_in(event) == set()
    screenshot(page, "players-check-ins-cleared")
    notice.get_by_role("button", name="Undo").click()
    expect(page.locator("ul.messages")).to_contain_text("5 check-ins put back as they were.")
    expect(page.locator("#player-counts")).to_have_text("8 players, 5 checked in, 0 dropped")
    assert checked_in(event) == set(ARRIVED)


def test_without_javascript_check_in_none_asks_on_a_page(new_context, organiser_user, live_server, event):
    context = logged_in(new_context(viewport=DESKTOP, java_script_enabled=False), organiser_user, live_server)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.goto(f"/e/{event.slug}/organiser/players/")
    page.locator("summary", has_text="Several players").click()
    page.get_by_role("button", name="Check in none").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Check in none")
    expect(page.locator("main")).to_contain_text("The check-ins of 5 players will be cleared.")
    assert checked_in(event) == set(ARRIVED)
    page.get_by_role("button", name="Clear 5 check-ins").click()
    expect(page.locator("#check-in-undo")).to_contain_text("5 check-ins cleared.")
    assert checked_in(event) == set()


def test_a_player_never_seated_is_deleted_after_a_dialog(organiser_page, event):
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    seat_by_hand(event, 1, [ids[:4]])
    page = organiser_page
    page.goto(f"/e/{event.slug}/organiser/players/")
    seated = page.locator("tr", has=page.get_by_role("link", name=f"{PLAYER_NAMES[0]} (edit)"))
    expect(seated.get_by_role("button", name=re.compile("^Delete"))).to_have_count(0)
    absent = PLAYER_NAMES[6]
    row = page.locator("tr", has=page.get_by_role("link", name=f"{absent} (edit)"))
    messages = []

    def accept(dialog):
        messages.append(dialog.message)
        dialog.accept()

    page.once("dialog", accept)
    row.get_by_role("button", name=f"Delete {absent}").click()
    settled(page)
    expect(page.get_by_role("link", name=f"{absent} (edit)")).to_have_count(0)
    expect(page.locator("#player-counts")).to_have_text("7 players, 5 checked in, 0 dropped")
    assert messages == [f"Delete {absent} for good?"]
    assert not event.players.filter(name=absent).exists()
