"""A club's season and the statistics in a real browser: the organiser makes a season of two realistic nights, the
ladder on a phone and a laptop, the plots of an event, a player and a person."""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import expect

from tests.club_night import club_night
from tournaments.models import Club, Season
from tournaments.services import people
from tournaments.services.audit import Author

from .helpers import layout_problems, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def two_nights(organiser_user):
    """The realistic night played twice in one club (at two games), every player linked to the club's people."""
    club = Club.objects.create(name="Asociación Lúdica Valenciana")
    club.organisers.add(organiser_user)
    nights = []
    for day, game in ((14, "cheese-rescue"), (21, "vegetables")):
        event = club_night(game=game, complete=3, live_tables=None)
        event.club, event.date = club, datetime.date(2026, 11, day)
        event.save(update_fields=["club", "date"])
        event.organisers.add(organiser_user)
        people.link_players(event, {p.pk: people.NEW_PERSON for p in event.players.all()}, Author(via="organiser"))
        nights.append(event)
    return club, nights


def test_a_season_ladder_and_the_statistics(organiser_page, organiser_phone, organiser_user, live_server):
    club, nights = two_nights(organiser_user)
    desk = organiser_page
    desk.goto(f"{live_server.url}/organiser/clubs/{club.slug}/")
    desk.get_by_role("link", name="Seasons").click()
    desk.get_by_role("link", name="New season").click()
    desk.get_by_label("Season name").fill("Temporada de otoño")
    desk.get_by_label("Only each person's best results count").check()
    desk.get_by_label("Results counted").fill("1")
    for night in nights:
        desk.get_by_label(night.name, exact=False).first.check()
    assert layout_problems(desk) == []
    desk.get_by_role("button", name="Save the season").click()
    expect(desk.get_by_role("heading", name="Temporada de otoño")).to_be_visible()
    season = Season.objects.get()
    assert season.counted == 1 and season.events.count() == 2
    expect(desk.locator("table.ladder tbody tr")).to_have_count(48)
    expect(desk.locator("ol.season-points li.dropped-result").first).to_be_visible()
    assert layout_problems(desk) == []
    screenshot(desk, "season-ladder-desktop")

    phone = organiser_phone
    phone.goto(f"{live_server.url}{season.get_absolute_url()}")
    expect(phone.locator("table.ladder tbody tr")).to_have_count(48)
    assert layout_problems(phone) == []
    screenshot(phone, "season-ladder-phone")

    night = nights[1]
    for page, size in ((phone, "phone"), (desk, "desktop")):
        page.goto(f"{live_server.url}/e/{night.slug}/")
        page.get_by_role("link", name="Statistics").click()
        expect(page.locator("figure.plot svg[role=img]")).to_have_count(4)
        expect(page.get_by_role("img", name="Crosses by pozzo order")).to_be_visible()
        assert layout_problems(page) == []
        screenshot(page, f"statistics-{size}")

    player = night.standings.order_by("rank").last().player
    phone.goto(f"{live_server.url}/e/{night.slug}/players/{player.pk}/")
    movement = phone.get_by_role("img", name="Standings movement by round")
    movement.scroll_into_view_if_needed()
    expect(phone.locator("#player-movement .line.highlight")).to_have_count(1)
    assert layout_problems(phone) == []
    screenshot(phone, "player-plots-phone")

    phone.goto(f"{live_server.url}{player.person.get_absolute_url()}")
    expect(phone.get_by_role("img", name="Rating at VEGEtables")).to_be_visible()
    assert layout_problems(phone) == []
    screenshot(phone, "person-rating-plot-phone")
