"""A club's pages in a real browser: linking a realistic night's players to people on a phone, the ratings."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.club_night import club_night
from tournaments.models import Club, Person
from tournaments.services import people
from tournaments.services.audit import Author

from .helpers import layout_problems, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def club_with_a_night(organiser_user):
    """The realistic night (48 players, rounds 1 and 2 complete) in a club that knows some of them already: a third by
    name and club, a few by name under another club."""
    club = Club.objects.create(name="Asociación Lúdica Valenciana")
    club.organisers.add(organiser_user)
    event = club_night(game="veggies", complete=2, live_tables=None)
    event.club = club
    event.save(update_fields=["club"])
    event.organisers.add(organiser_user)
    players = list(event.players.order_by("pk"))
    for player in players[:16]:
        Person.objects.create(club=club, name=player.name, affiliation=player.club)
    for player in players[16:20]:
        Person.objects.create(club=club, name=player.name, affiliation="Otro Club de Juegos de Mesa")
    return club, event


def test_the_people_page_on_a_phone_links_the_night(organiser_phone, organiser_page, organiser_user, live_server):
    club, event = club_with_a_night(organiser_user)
    page = organiser_phone
    page.goto(f"{live_server.url}/e/{event.slug}/organiser/people/")
    expect(page.locator("input[type=checkbox]:checked")).to_have_count(44)
    expect(page.locator(".people-form select")).to_have_count(4)
    assert layout_problems(page) == []
    page.locator(".people-form select").first.scroll_into_view_if_needed()
    screenshot(page, "people-phone")
    page.get_by_role("button", name="Link the chosen players").click()
    expect(page.get_by_text("44 players linked.")).to_be_visible()
    assert event.players.filter(person__isnull=False).count() == 44

    page.goto(f"{live_server.url}/organiser/clubs/{club.slug}/")
    expect(page.locator("table.ratings tbody tr")).to_have_count(44)
    screenshot(page, "club-ratings-phone")
    assert layout_problems(page) == []
    page.locator("table.ratings tbody a").first.click()
    expect(page.get_by_role("heading", name="Tournaments played")).to_be_visible()
    assert layout_problems(page) == []
    screenshot(page, "person-phone")

    desk = organiser_page
    desk.goto(f"{live_server.url}/organiser/clubs/{club.slug}/")
    assert layout_problems(desk) == []
    screenshot(desk, "club-ratings-desktop")
    desk.goto(f"{live_server.url}/organiser/clubs/{club.slug}/people/")
    assert layout_problems(desk) == []
    screenshot(desk, "club-people-desktop")


def test_a_player_page_on_a_phone_shows_the_rating(phone, organiser_user, live_server):
    club, event = club_with_a_night(organiser_user)
    people.link_players(event, {p.pk: people.NEW_PERSON for p in event.players.all()}, Author(via="organiser"))
    player = event.players.order_by("name").first()
    page = phone()
    page.goto(f"{live_server.url}/e/{event.slug}/players/{player.pk}/")
    expect(page.get_by_role("heading", name=f"Rating at {club.name}")).to_be_visible()
    assert layout_problems(page) == []
    page.get_by_role("heading", name=f"Rating at {club.name}").scroll_into_view_if_needed()
    screenshot(page, "player-rating-phone")
