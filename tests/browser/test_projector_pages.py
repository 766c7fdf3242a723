"""The projector turning pages of a long night's standings: a new leader shows within seconds of the save, whichever
page is up; players without a result yet show a dash, not zeros."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import club_event
from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments.models import Player
from tournaments.models.rounds import RoundStatus
from tournaments.standings.rows import standings_rows
from tournaments.standings.stage import standings_stage

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: How soon the new leader must show (seconds), the save's rebuild and render included.
LAG = 6
#: Longer than a projector page stays up (ten seconds, give or take a poll).
PAGE_TURN_MS = 20_000


def test_a_new_leader_shows_within_seconds_while_the_projector_turns_its_pages(new_context):
    event = club_event("cheese-rescue", name="Long Night")
    Player.objects.bulk_create(Player(event=event, name=f"Guest {n:02d}", club="Guests") for n in range(28))
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    round_ = seat_by_hand(event, 1, [ids[i : i + 4] for i in range(0, 36, 4)], status=RoundStatus.IN_PLAY)
    *entered, last = round_.tables.order_by("number")
    for table, top in zip(entered, [3, 4, 5, 6, 7, 8, 5, 4]):
        enter(table, cheese_tallies([top, 2, 1, 0]))
    projector = new_context(viewport={"width": 1280, "height": 720}).new_page()
    projector.goto(f"/e/{event.slug}/projector/")
    section = projector.locator("#projector-page")
    expect(projector.locator(".page-number")).to_contain_text("Page 1 of ")
    unscored = last.seats.order_by("position").first().player.name
    playing = projector.locator("#projector-page tbody tr", has_text=unscored)
    expect(section).to_have_attribute("data-page", "2", timeout=PAGE_TURN_MS)
    if playing.count():
        expect(playing.locator("td.metric-points")).to_have_text("–")
        expect(playing).to_contain_text("playing")

    expect(section).not_to_have_attribute("data-page", "1", timeout=1)
    leader = projector.locator("#projector-page tbody td.name").first
    saved = time.monotonic()
    enter(last, cheese_tallies([10, 2, 1, 0]), via="link")
    expect(leader).to_have_text(unscored, timeout=LAG * 1000)
    assert time.monotonic() - saved < LAG, "shown within seconds, not when page 1 comes round"
    assert standings_rows(event, standings_stage(event))[0].player.name == unscored
    expect(section).to_have_attribute("data-page", "1")
    expect(projector.locator(".page-number")).to_contain_text("Page 1 of ")
