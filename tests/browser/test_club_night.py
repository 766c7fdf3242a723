"""A whole club night in the browser: 48 players imported, 40 checked in, the address phones reach the laptop at,
four rounds with two late arrivals, one drop, one re-seat and one reopened round, phones scanning printed QR codes.
"""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path

import pytest
from django.test import Client
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.test_printing import sheet_links as printed_links
from tournaments.models import Event, Player, Standing
from tournaments.models.event import EventStatus
from tournaments.public_address import lan_addresses
from tournaments.services import players as player_service

from .conftest import DESKTOP, PHONE, WAIT_MS
from .helpers import screenshot, settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CLUB_NIGHT = Path(__file__).resolve().parents[1] / "data" / "players-club-night.csv"
#: Cheese Rescue tallies (points left, cheese cards left) that six cheeses allow, best first.
TALLIES = [(9, 5), (6, 3), (4, 2), (1, 1)]


@pytest.fixture
def venue(settings):
    """The app served on every address of this machine, as `make run HOST=0.0.0.0` does at a venue."""
    settings.ALLOWED_HOSTS = ["*"]
    server = LiveServer("0.0.0.0:0")
    yield server
    server.stop()


def the_list() -> str:
    """48 players with the names and clubs of a real club night (accents, quotes, commas inside clubs)."""
    return CLUB_NIGHT.read_text(encoding="utf-8")


def signed_in(new_context, user, origin: str, **options) -> Page:
    client = Client()
    client.force_login(user)
    context = new_context(**options)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": origin}])
    context.set_default_timeout(WAIT_MS)
    return context.new_page()


def confirm(page: Page, button: str) -> None:
    """Follow the link ``button``, then press the same button on the confirmation page it opens."""
    page.locator("main").get_by_role("link", name=button, exact=True).first.click()
    expect(page.get_by_role("link", name="Cancel")).to_be_visible()
    page.locator("main form").get_by_role("button", name=button, exact=True).click()


def messages(page: Page):
    return page.locator("ul.messages")


def seat_round(desk: Page, origin: str, slug: str, number: int, seated: int) -> None:
    desk.goto(f"{origin}/e/{slug}/organiser/")
    desk.get_by_role("button", name=f"Seat round {number}").first.click()
    expect(desk.locator("main")).to_contain_text(f"{seated} checked-in players will be seated")
    desk.locator("main form").get_by_role("button", name=f"Seat round {number}").click()
    expect(messages(desk)).to_contain_text(f"Round {number} is seated.")


def publish_and_start(desk: Page) -> None:
    confirm(desk, "Publish the seating")
    expect(messages(desk)).to_contain_text("is published.")
    desk.get_by_role("button", name="Start the round").click()
    expect(messages(desk)).to_contain_text("is in play.")


def sheet_links(desk: Page, origin: str, slug: str, number: int, folder: Path) -> list[str]:
    """The QR code of every printed score sheet of the round, decoded, in table order."""
    pdf = desk.request.get(f"{origin}/e/{slug}/organiser/rounds/{number}/sheets.pdf")
    assert pdf.ok
    return printed_links(pdf.body(), folder)


def enter_by_api(page: Page, link: str, shift: int) -> None:
    """The table's sheet through the JSON API, at the address the QR code gave."""
    api = re.sub(r"/t/([^/]+)/$", r"/api/tables/\1/sheet", link)
    sheet = page.request.get(api).json()
    players = sheet["players"]
    tallies = [TALLIES[(i + shift) % len(TALLIES)] for i in range(len(players))]
    document = {"game": sheet["game"], "variant": sheet["variant"], "players": players}
    document["tallies"] = [{"cheese_points": p, "cheese_cards": c} for p, c in tallies]
    for manche in sheet["manches"]:
        body = {"manche": manche["number"], "version": manche["version"], "document": document}
        response = page.request.put(api, data=json.dumps(body), headers={"Content-Type": "application/json"})
        assert response.status == 200, response.text()


def complete(desk: Page) -> None:
    confirm(desk, "Complete the round")
    expect(messages(desk)).to_contain_text("is complete.")


def test_a_club_night_of_48_players_over_four_rounds(venue, new_context, django_user_model, tmp_path):
    port = venue.thread.port
    origin = f"http://127.0.0.1:{port}"
    organiser = django_user_model.objects.create_user("ada")
    event = Event.objects.create(
        name="Club Night",
        date=datetime.date(2026, 11, 24),
        game="cheese-rescue",
        table_size=4,
        manches_per_round=1,
        rounds_planned=4,
        seating_method="mixer",
        confirmation_required=True,
    )
    event.organisers.add(organiser)
    player_service.import_players(event, player_service.preview_import(event, the_list()))
    assert event.players.count() == 48
    desk = signed_in(new_context, organiser, origin, viewport=DESKTOP)

    desk.goto(f"{origin}/e/{event.slug}/organiser/")
    expect(desk.locator("main")).to_contain_text("Phones cannot open links to this laptop's own name")
    networks = lan_addresses(port)
    address = networks[0] if networks else f"http://localhost:{port}"
    desk.goto(f"{origin}/e/{event.slug}/organiser/address/")
    if networks:
        desk.get_by_role("button", name=f"Use it for this tournament ({address})").click()
    else:
        desk.get_by_label("Public address").fill(address)
        desk.get_by_role("button", name="Save the address").click()
    event.refresh_from_db()
    assert event.public_url.rstrip("/") == address

    desk.goto(f"{origin}/e/{event.slug}/organiser/players/")
    for row in desk.locator("#player-list ~ table tbody tr").all()[:40]:
        row.get_by_role("button", name=re.compile("^Check in")).click()
        expect(row.get_by_role("button", name=re.compile("^Undo"))).to_be_visible()
    assert event.players.filter(checked_in=True).count() == 40

    seat_round(desk, origin, event.slug, 1, 40)
    confirm(desk, "Publish the seating")
    desk.get_by_role("button", name="Unpublish the seating").click()
    expect(messages(desk)).to_contain_text("no longer published")
    confirm(desk, "Re-seat the round")
    expect(messages(desk)).to_contain_text("seated again")
    publish_and_start(desk)

    links = sheet_links(desk, origin, event.slug, 1, tmp_path)
    assert len(links) == 10 and all(link.startswith(f"{address}/t/") for link in links)
    phone = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    phone.goto(links[0])
    names = phone.locator("ol.seats li").all_inner_texts()
    game = phone.get_by_role("region", name=re.compile("^Game 1"))
    phone.get_by_role("group", name="I am").get_by_role("radio", name=names[0], exact=True).check()
    for name, (points, cards) in zip(names, TALLIES):
        game.get_by_label(f"Cheese points left: {name}").fill(str(points))
        game.get_by_label(f"Cheese cards left: {name}").fill(str(cards))
    settled(phone)
    game.get_by_role("button", name="Save").click()
    expect(game.get_by_role("status")).to_contain_text("Saved")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(phone, "club-night-phone-entry")
    second = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    second.goto(links[0])
    expect(second.locator(".confirm-elsewhere").first).to_contain_text("the QR code on their player card")
    second.goto(f"{origin}/p/{event.players.get(name=names[1]).token}/")
    second.get_by_role("link", name="Check and confirm").click()
    second.wait_for_url(re.compile(r"/tables/\d+/"))  # loaded, its script in place, before any press
    game_1 = second.get_by_role("region", name=re.compile("^Game 1"))
    game_1.get_by_role("button", name=f"Confirm this result as {names[1]}").click()
    expect(second.locator("section.manche .notice").first).to_have_text("Confirmed. Thank you!")
    for shift, link in enumerate(links[1:], start=1):
        enter_by_api(desk, link, shift)
    desk.goto(f"{origin}/e/{event.slug}/organiser/rounds/1/")
    complete(desk)

    desk.goto(f"{origin}/e/{event.slug}/organiser/players/")
    for late in ("Late Arrival One", "Late Arrival Two"):
        desk.locator("summary", has_text="Add a player").click()
        desk.get_by_label("Name").fill(late)
        desk.get_by_role("button", name="Add player").click()
        expect(messages(desk)).to_contain_text(late)
    regulars = Player.objects.filter(event=event, checked_in=True).exclude(name__startswith="Late Arrival")
    dropped = regulars.order_by("name").first()
    row = desk.locator("tr", has=desk.get_by_role("link", name=f"{dropped.name} (edit)", exact=True))
    row.get_by_role("button", name=re.compile("^Drop")).click()
    expect(row.get_by_role("button", name=re.compile("^Reinstate"))).to_be_visible()

    for number in (2, 3, 4):
        seat_round(desk, origin, event.slug, number, 41)
        publish_and_start(desk)
        links = sheet_links(desk, origin, event.slug, number, tmp_path)
        assert all(link.startswith(f"{address}/t/") for link in links)
        for shift, link in enumerate(links):
            enter_by_api(desk, link, shift + number)
        desk.goto(f"{origin}/e/{event.slug}/organiser/rounds/{number}/")
        complete(desk)
        if number == 2:
            confirm(desk, "Reopen the round")
            expect(messages(desk)).to_contain_text("open again")
            complete(desk)

    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED
    played = dict(Standing.objects.filter(event=event).values_list("player__name", "rounds_played"))
    assert played["Late Arrival One"] == played["Late Arrival Two"] == 3
    assert played[dropped.name] == 1
    assert sorted(played.values()).count(4) == 39
    projector = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    projector.goto(f"{address}/e/{event.slug}/projector/")
    leader = Standing.objects.filter(event=event).order_by("rank", "player__name").first().player.name
    expect(projector.locator("body")).to_contain_text(leader)
    screenshot(projector, "club-night-projector")
