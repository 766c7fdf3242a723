"""The live standings alone on a screen: when a poll's answer says that newer standings are being rendered, the page
asks again a second later rather than at its next poll, three seconds on. The projector polls the same way while it
turns its pages: a change shows within seconds, the projector going back to its first page for it."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import club_event
from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments.models import Event, Player, Table
from tournaments.models.rounds import RoundStatus
from tournaments.standings.rows import standings_rows
from tournaments.standings.stage import standings_stage

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


#: How soon a change must show on the projector's page that is up (seconds).
PROJECTOR_LAG = 5
#: Longer than a projector page stays up (ten seconds, give or take a poll).
PAGE_TURN_MS = 20_000


def counted(event: Event) -> str:
    """The live version of the event's standings once they count every sheet."""
    deadline = time.monotonic() + PROJECTOR_LAG
    while time.monotonic() < deadline:
        event.refresh_from_db()
        if not event.standings_stale and event.standings_lease is None:
            return f"{event.standings_version}-{standings_stage(event).key}"
        time.sleep(0.05)
    raise AssertionError("the standings never counted the sheet")


def ranked_names(event: Event) -> list[str]:
    return [row.player.name for row in standings_rows(event, standings_stage(event))]


def save_and_expect(projector, event: Event, table: Table, points: list[int], page: str) -> None:
    """A table saves a sheet that makes a new leader: the projector shows page ``page`` of the new standings within
    ``PROJECTOR_LAG`` seconds, without waiting for its turn to come round."""
    section = projector.locator("#projector-page")
    leader = ranked_names(event)[0]
    saved = time.monotonic()
    enter(table, cheese_tallies(points), via="link")
    version = counted(event)
    names = ranked_names(event)
    assert names[0] != leader, "the sheet made a new leader"
    rows = int(section.get_attribute("data-rows"))
    first = (int(page) - 1) * rows
    expect(section).to_have_attribute("data-version", version, timeout=PROJECTOR_LAG * 1000)
    expect(projector.locator("#projector-page tbody td.name")).to_have_text(names[first : first + rows], timeout=1)
    assert time.monotonic() - saved < PROJECTOR_LAG
    assert section.get_attribute("data-page") == page


def test_a_new_leader_shows_on_the_projector_within_seconds_whatever_page_is_up(new_context):
    event = club_event("cheese-rescue", name="Projector Night")
    Player.objects.bulk_create(Player(event=event, name=f"Ospite {n:02d}", club="Ospiti") for n in range(16))
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    round_ = seat_by_hand(event, 1, [ids[i : i + 4] for i in range(0, 24, 4)], status=RoundStatus.IN_PLAY)
    *entered, fifth, sixth = round_.tables.order_by("number")
    for table, top in zip(entered, [5, 6, 7, 8]):
        enter(table, cheese_tallies([top, 3, 2, 1]))
    projector = new_context(viewport={"width": 1280, "height": 720}).new_page()
    projector.goto(f"/e/{event.slug}/projector/")
    expect(projector.locator(".page-number")).to_have_text("Page 1 of 2")
    section = projector.locator("#projector-page")

    expect(section).to_have_attribute("data-page", "2", timeout=PAGE_TURN_MS)
    save_and_expect(projector, event, fifth, [9, 3, 2, 1], page="1")
    expect(section).to_have_attribute("data-page", "1", timeout=PAGE_TURN_MS)
    save_and_expect(projector, event, sixth, [10, 3, 2, 1], page="1")
