"""Two phones at a table: the one that entered a sheet cannot confirm it; a player's own link (its QR code
read off the printed card) confirms it in that player's name."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, WAIT_MS
from tests.browser.helpers import club_event, screenshot, settled
from tests.browser.test_journey import manche_region
from tests.factories import seat_by_hand
from tests.test_printing import decode_qr, render
from tournaments.models import Player
from tournaments.models.rounds import RoundStatus
from tournaments.models.sheets import Via
from tournaments.services.sheets import Author, dispute_sheet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def entered_on_a_phone(phone, table, names: list[str]):
    """A phone opens the table link as the first seat and saves the game's sheet; the phone and its manche."""
    first = phone()
    first.goto(f"/t/{table.token}/")
    manche = manche_region(first, 1, "Game")
    first.get_by_role("group", name="I am").get_by_role("radio", name=names[0], exact=True).check()
    for name, (points, cards) in zip(names, [(9, 5), (6, 3), (4, 2), (1, 1)]):
        manche.get_by_label(f"Cheese points left: {name}").fill(str(points))
        manche.get_by_label(f"Cheese cards left: {name}").fill(str(cards))
    settled(first)
    manche.get_by_role("button", name="Save").click()
    expect(manche.get_by_role("status")).to_contain_text("Saved")
    return first, manche


def test_a_second_player_confirms_from_their_own_card(organiser_page, phone, organiser_user, live_server, tmp_path):
    event = club_event("cheese-rescue", name="Cheese Night", organiser=organiser_user, confirmation_required=True)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    long_names = ["Xosé Manuel van der Westhuizen", "Şebnem D'Alessandro", "Wojciech Papadopoulou"]
    for pk, name in zip(ids, [*long_names, "Zdeněk Müller-Lüdenscheidt"]):
        Player.objects.filter(pk=pk).update(name=name)
    table = seat_by_hand(event, 1, [ids[:4], ids[4:]], status=RoundStatus.IN_PLAY).tables.get(number=1)
    names = [seat.player.name for seat in table.seats.order_by("position")]

    first, manche = entered_on_a_phone(phone, table, names)
    assert first.evaluate("document.documentElement.scrollWidth") <= 360

    first.get_by_role("group", name="I am").get_by_role("radio", name=names[1], exact=True).check()
    expect(manche.locator(".confirm-elsewhere")).to_contain_text("This phone entered the sheet")
    expect(manche.get_by_role("button", name="Confirm this result")).to_have_count(0)
    first.reload()
    told = manche_region(first, 1, "Game").locator(".confirm-elsewhere")
    expect(told).to_contain_text("another player confirms it")
    # One script call: the page may swap its manche in again between two of Playwright's steps.
    first.evaluate("document.querySelector('#manche-1 .confirm-elsewhere').scrollIntoView()")
    screenshot(first, "confirm-refused-same-phone")

    cleared = phone()
    cleared.goto(f"/t/{table.token}/")
    region = manche_region(cleared, 1, "Game")
    cleared.get_by_role("group", name="I am").get_by_role("radio", name=names[2], exact=True).check()
    expect(region.locator(".confirm-elsewhere")).to_contain_text("the QR code on their player card")
    expect(region.get_by_role("button", name="Confirm this result")).to_have_count(0)
    screenshot(cleared, "confirm-by-card-table-link")

    cards = organiser_page.request.get(f"/e/{event.slug}/organiser/players/cards.pdf")
    assert cards.ok
    links = decode_qr(render(cards.body(), 1, tmp_path, "cards")).split("\n")
    second_player = table.seats.get(position=2).player
    own = next(link for link in links if link.endswith(f"/p/{second_player.token}/"))
    assert own.startswith(live_server.url)

    second = phone()
    second.goto(own)
    expect(second.get_by_role("heading", level=2)).to_have_text("Your table now: 1, seat 2")
    expect(second.get_by_role("status").first).to_contain_text("A sheet of your table waits for you")
    screenshot(second, "player-link-sheet-waiting")
    second.get_by_role("link", name="Check and confirm").click()
    second.wait_for_url(re.compile(r"/tables/\d+/"))  # loaded, its script in place, before any press
    region = manche_region(second, 1, "Game")
    region.get_by_role("button", name=f"Confirm this result as {names[1]}").click()
    expect(region.get_by_role("status")).to_have_text("Confirmed. Thank you!")
    assert second.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(second, "confirmed-from-player-link")

    organiser_page.goto(f"/e/{event.slug}/organiser/tables/{table.pk}/")
    expect(organiser_page.locator("body")).to_contain_text(f"confirmed through player link · {names[1]}")
    expect(organiser_page.locator("body")).not_to_contain_text("not verified")


def test_in_honour_mode_a_second_phone_confirms_and_every_page_says_it_is_not_verified(
    organiser_page, phone, organiser_user
):
    event = club_event("cheese-rescue", name="Honour Night", organiser=organiser_user, confirmation_required=True)
    event.confirmation = "phone"
    event.save(update_fields=["confirmation"])
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    table = seat_by_hand(event, 1, [ids[:4], ids[4:]], status=RoundStatus.IN_PLAY).tables.get(number=1)
    names = [seat.player.name for seat in table.seats.order_by("position")]

    first, manche = entered_on_a_phone(phone, table, names)
    expect(manche.get_by_role("button", name="Confirm this result")).to_have_count(0)

    second = phone()
    second.goto(f"/t/{table.token}/")
    region = manche_region(second, 1, "Game")
    second.get_by_role("group", name="I am").get_by_role("radio", name=names[1], exact=True).check()
    region.get_by_role("button", name="Confirm this result").click()
    expect(region.get_by_role("status")).to_have_text("Confirmed. Thank you!")
    expect(region.locator(".status-confirmed")).to_have_text("Confirmed on a second phone, not verified")
    screenshot(second, "honour-mode-confirmed")

    organiser_page.goto(f"/e/{event.slug}/organiser/rounds/1/")
    expect(organiser_page.locator("body")).to_contain_text("1 on a second phone, not verified")
    organiser_page.goto(f"/e/{event.slug}/organiser/tables/{table.pk}/")
    expect(organiser_page.locator("body")).to_contain_text("confirmed a sheet on a second phone, not verified")


def spanish_phone(browser, live_server):
    phone = {"viewport": PHONE, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
    context = browser.new_context(**phone, locale="es-ES", base_url=live_server.url)
    context.set_default_timeout(WAIT_MS)
    return context.new_page()


def test_the_entering_seat_waits_on_its_own_link_and_a_refused_confirmation_is_an_error(phone, browser, live_server):
    """In Spanish: the seat the table link entered the sheet as sees no Confirm on its own link; a confirmation the
    server refuses (the table disputed meanwhile) comes back as an error, the button gone."""
    event = club_event("cheese-rescue", name="Noche del queso", confirmation_required=True)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    table = seat_by_hand(event, 1, [ids[:4], ids[4:]], status=RoundStatus.IN_PLAY).tables.get(number=1)
    names = [seat.player.name for seat in table.seats.order_by("position")]
    entered_on_a_phone(phone, table, names)
    players = [seat.player for seat in table.seats.order_by("position")]

    own = spanish_phone(browser, live_server)
    own.goto(f"/p/{players[0].token}/tables/{table.pk}/")
    region = own.locator("#manche-1")
    expect(region.locator(".confirm-elsewhere")).to_have_text("Esperando a que otro jugador de la mesa la confirme.")
    expect(region.locator("form.confirm")).to_have_count(0)
    own.evaluate("document.querySelector('#manche-1 .confirm-elsewhere').scrollIntoView()")
    screenshot(own, "player-link-entered-waits-es")

    other = spanish_phone(browser, live_server)
    other.goto(f"/p/{players[1].token}/tables/{table.pk}/")
    region = other.locator("#manche-1")
    expect(region.locator("form.confirm button")).to_be_visible()
    manche = table.manches.get(number=1)
    dispute_sheet(manche, Author(via=Via.PLAYER, player=players[2], seat=3), reason="Faltan puntos")
    region.locator("form.confirm button").click()
    refusal = other.locator("#manche-1 .error[role=alert]")
    expect(refusal).to_have_class(re.compile(r"\berror\b"))
    expect(refusal).to_have_attribute("role", "alert")
    expect(refusal).to_contain_text("Hasta entonces, nadie confirma la hoja.")
    expect(other.locator("#manche-1 .notice")).to_have_count(0)
    expect(other.locator("#manche-1 form.confirm")).to_have_count(0)
    assert other.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(other, "player-link-refused-es")
    own.context.close()
    other.context.close()
