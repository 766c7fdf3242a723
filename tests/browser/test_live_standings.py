"""The live standings alone on a screen: when a poll's answer says that newer standings are being rendered, the page
asks again a second later rather than at its next poll, three seconds on."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import club_event
from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments.models.rounds import RoundStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_lone_live_page_asks_again_a_second_after_its_answer_says_newer_standings_are_on_their_way(page):
    event = club_event("cheese-rescue", name="Cheese Night")
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    first, second = seat_by_hand(event, 1, [ids[:4], ids[4:]], status=RoundStatus.IN_PLAY).tables.order_by("number")
    polls: list[tuple[float, int, str]] = []

    def note(response) -> None:
        if "/standings/live/" in response.url:
            polls.append((time.monotonic(), response.status, response.headers.get("hx-trigger", "")))

    page.on("response", note)
    page.goto(f"/e/{event.slug}/standings/")
    leader = page.locator("table.standings tbody tr").first
    enter(first, cheese_tallies([9, 5, 3, 1]))
    winner = first.seats.get(position=1).player.name
    expect(leader).to_contain_text(winner)
    enter(second, cheese_tallies([10, 0, 0, 0]))
    top = second.seats.get(position=1).player.name
    expect(leader).to_contain_text(top)

    pending = [n for n, (_at, status, trigger) in enumerate(polls) if status == 204 and trigger == "standings-pending"]
    assert pending, f"no answer said that newer standings were on their way: {polls}"
    after = polls[pending[-1] + 1 :]
    assert after and after[0][1] == 200, f"the poll after the pending answer got the newer standings: {polls}"
    assert after[0][0] - polls[pending[-1]][0] < 2.0, f"asked again about a second later, not three: {polls}"
