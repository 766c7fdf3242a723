"""An error page on a phone: a player's link opened on a table it does not sit at fits 360 px in every language,
and its ways back lead to the player's own page and to the tournaments; a sheet sent through a replaced link
says why in the alert area, keeping what was typed."""

from __future__ import annotations

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests.browser.helpers import club_event, layout_problems, screenshot, settled
from tests.browser.test_journey import manche_region
from tests.factories import seat_by_hand
from tournaments.models.rounds import RoundStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_link_on_another_table_explains_and_leads_back_on_a_phone(phone, live_server):
    event = club_event("cheese-rescue", name="Cheese Night")
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    mine, theirs = seat_by_hand(event, 1, [ids[:4], ids[4:]], status=RoundStatus.IN_PLAY).tables.order_by("number")
    player = mine.seats.order_by("position").first().player
    page = phone()

    for language in ["es", "it", "en"]:
        page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])
        response = page.goto(f"/p/{player.token}/tables/{theirs.pk}/")
        assert response.status == 404
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("main .actions a")).to_have_count(2)
        assert layout_problems(page) == [], language
    expect(page.get_by_role("heading", level=1)).to_have_text("You do not sit at this table")
    screenshot(page, "error-not-at-this-table", full_page=True)

    page.get_by_role("link", name="Open my page").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(player.name)
    page.go_back()
    page.get_by_role("link", name="Find my tournament and table").click()
    expect(page).to_have_url(f"{live_server.url}/")
    expect(page.get_by_role("link", name="Cheese Night")).to_be_visible()


def test_a_sheet_sent_through_a_replaced_link_says_so_in_the_alert_area(phone):
    event = club_event("cheese-rescue", name="Cheese Night")
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    table = seat_by_hand(event, 1, [ids[:4], ids[4:]], status=RoundStatus.IN_PLAY).tables.get(number=1)
    names = [seat.player.name for seat in table.seats.order_by("position")]
    page = phone()
    page.goto(f"/t/{table.token}/")
    manche = manche_region(page, 1, "Game")
    page.get_by_role("group", name="I am").get_by_role("radio", name=names[0], exact=True).check()
    for name, (points, cards) in zip(names, [(9, 5), (6, 3), (4, 2), (1, 1)]):
        manche.get_by_label(f"Cheese points left: {name}").fill(str(points))
        manche.get_by_label(f"Cheese cards left: {name}").fill(str(cards))
    settled(page)
    table.new_token()
    table.save(update_fields=["token"])

    manche.get_by_role("button", name="Save").click()
    alert = page.locator("#alerts")
    expect(alert).to_contain_text("This table's link no longer works")
    expect(alert.get_by_role("link", name="Find my tournament and table")).to_be_visible()
    expect(manche.get_by_label(f"Cheese points left: {names[0]}")).to_have_value("9")
    assert layout_problems(page) == []
