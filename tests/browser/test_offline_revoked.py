"""What a phone's kept copies show once a link is turned off, or while the network is gone.

A phone at 360 px keeps its table or player page (the service worker's copy, on ``localhost``, a secure context).
Once the organiser turns the link off, a reload with the network on shows the server's "this link no longer works"
and the copies kept for that link are deleted; a reload without any network then finds nothing to show. A page
whose link still works, reloaded without network, shows its copy and says it may be out of date and when it was
kept, in the phone's language. A page sent ``no-store`` is never kept.
"""

from __future__ import annotations

import datetime
import time
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from .conftest import PHONE, WAIT_MS
from .helpers import layout_problems, screenshot
from .test_offline_entry import laptop, open_table, started_table, wait_until  # noqa: F401  (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ZONE = ZoneInfo("Europe/Rome")
#: What a page shown from its kept copy says, by language; ``{time}`` is when the copy was kept.
KEPT_COPY = {
    "en": "Offline: this page was kept on this phone at {time} and may be out of date.",
    "es": "Sin conexión: esta página se guardó en este teléfono a las {time} y puede estar desactualizada.",
    "it": "Senza rete: questa pagina è stata salvata su questo telefono alle {time} e potrebbe non essere aggiornata.",
}
TABLE_HEADING = {"en": "Table 1", "es": "Mesa 1", "it": "Tavolo 1"}
#: The addresses of everything kept in the page's caches, whichever cache holds them.
KEPT_URLS = """caches.keys()
  .then((names) => Promise.all(names.map((name) => caches.open(name).then((cache) => cache.keys()))))
  .then((lists) => lists.flat().map((key) => key.url))"""


@pytest.fixture
def phone_in(browser, laptop):  # noqa: F811
    """Opens a phone (360 px, touch) speaking ``language`` on the laptop's server, which a test may stop."""
    contexts = []

    def open_phone(language: str = "en") -> Page:
        context = browser.new_context(
            viewport=PHONE,
            is_mobile=True,
            has_touch=True,
            device_scale_factor=2,
            base_url=laptop.url,
            locale={"en": "en-GB", "es": "es-ES", "it": "it-IT"}[language],
            timezone_id="Europe/Rome",
        )
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        return context.new_page()

    yield open_phone
    for context in contexts:
        context.close()


def kept_urls(page: Page) -> list[str]:
    return page.evaluate(KEPT_URLS)


def no_copy_of(page: Page, part: str) -> None:
    """Wait until the service worker keeps nothing whose address holds ``part``."""
    wait_until(
        page,
        lambda: not any(part in url for url in kept_urls(page)),
        f"a copy of {part} is still kept: {kept_urls(page)}",
    )


def minutes_between(start: float, end: float) -> set[str]:
    """Every "HH:MM" on the event's clock from ``start`` to ``end`` (seconds since 1970)."""
    moment = datetime.datetime.fromtimestamp(start, ZONE).replace(second=0, microsecond=0)
    last = datetime.datetime.fromtimestamp(end, ZONE)
    shown = set()
    while moment <= last:
        shown.add(moment.strftime("%H:%M"))
        moment += datetime.timedelta(minutes=1)
    return shown


def offline(page: Page, server) -> None:
    """The phone's network goes, and with it the server: Chromium may let a page reloaded under a service worker
    reach the server although its context is offline, which no phone without a network does."""
    server.stop()
    page.context.set_offline(True)


def test_a_turned_off_table_link_shows_the_servers_answer_and_its_copies_are_deleted(phone_in, laptop):  # noqa: F811
    table = started_table()
    phone = phone_in()
    old = f"/t/{table.token}/"
    open_table(phone, old)
    assert any(old in url for url in kept_urls(phone))

    table.new_token()
    table.save(update_fields=["token"])
    phone.reload()
    expect(phone.get_by_role("heading", name="This table's link no longer works")).to_be_visible()
    expect(phone.get_by_role("heading", name="Table 1")).to_have_count(0)
    expect(phone.locator(".kept-copy")).to_have_count(0)
    no_copy_of(phone, old)
    screenshot(phone, "offline-revoked-table-link")

    offline(phone, laptop)
    with pytest.raises(PlaywrightError):
        phone.reload()
    expect(phone.get_by_role("heading", name="Table 1")).to_have_count(0)


def test_a_turned_off_player_link_loses_the_copies_of_all_its_pages(phone_in):
    table = started_table()
    player = table.seats.get(position=2).player
    phone = phone_in()
    home, at_table = f"/p/{player.token}/", f"/p/{player.token}/tables/{table.pk}/"
    open_table(phone, home, seat=None)
    open_table(phone, at_table, seat=None)
    assert {home, at_table} <= {url.removeprefix(phone.evaluate("location.origin")) for url in kept_urls(phone)}

    player.new_token()
    player.save(update_fields=["token"])
    phone.reload()
    expect(phone.get_by_role("heading", name="This player link no longer works")).to_be_visible()
    no_copy_of(phone, home)


def kept_at(page: Page, url: str) -> int:
    """When the copy of ``url`` was kept (ms since 1970), 0 when none is."""
    when = "(url) => caches.match(url).then((copy) => Number(copy && copy.headers.get('X-Kept-At')))"
    return page.evaluate(when, url)


def test_a_player_not_at_a_table_keeps_the_copy_of_their_own_page(phone_in):
    table = started_table()
    player = table.seats.get(position=2).player
    phone = phone_in()
    home, elsewhere = f"/p/{player.token}/", f"/p/{player.token}/tables/{table.pk + 1000}/"
    open_table(phone, home, seat=None)
    before = kept_at(phone, home)
    assert before

    phone.goto(elsewhere)
    expect(phone.get_by_role("heading", name="You do not sit at this table")).to_be_visible()
    wait_until(phone, lambda: kept_at(phone, home) > before, "the player's own page was not asked about again")
    assert phone.evaluate("location.origin") + elsewhere not in kept_urls(phone)


@pytest.mark.parametrize("language", ["en", "es", "it"])
def test_offline_a_kept_page_says_it_may_be_out_of_date_and_when_it_was_kept(phone_in, laptop, language):  # noqa: F811
    table = started_table()
    phone = phone_in(language)
    start = time.time()
    open_table(phone, f"/t/{table.token}/", seat=None)
    phone.reload()
    expect(phone.get_by_role("heading", name=TABLE_HEADING[language])).to_be_visible()
    expect(phone.locator(".kept-copy")).to_have_count(0)
    kept = time.time()

    offline(phone, laptop)
    phone.reload()
    expect(phone.get_by_role("heading", name=TABLE_HEADING[language])).to_be_visible()
    note = phone.locator("main > .kept-copy")
    expect(note).to_be_visible()
    said = note.inner_text()
    assert said in {KEPT_COPY[language].format(time=shown) for shown in minutes_between(start, kept)}, said
    assert layout_problems(phone) == []
    box, main = note.bounding_box(), phone.locator("main").bounding_box()
    assert box["x"] >= main["x"] and box["x"] + box["width"] <= main["x"] + main["width"] <= PHONE["width"]
    screenshot(phone, f"offline-kept-copy-{language}")


def test_a_page_sent_no_store_is_never_kept_and_an_earlier_copy_of_it_is_dropped(phone_in):
    table = started_table()
    player = table.seats.get(position=2).player
    phone = phone_in()
    open_table(phone, f"/p/{player.token}/", seat=None)
    open_table(phone, f"/t/{table.token}/", seat=None)
    origin = phone.evaluate("location.origin")
    table_clock, player_clock = f"/t/{table.token}/clock/", f"/p/{player.token}/tables/{table.pk}/clock/"
    old_copy = "new Response('an old copy', {headers: {'Content-Type': 'text/html', 'X-Kept-At': '1'}})"
    phone.evaluate(
        f"(url) => caches.open('tablescore-copies').then((cache) => cache.put(url, {old_copy}))", origin + table_clock
    )
    assert origin + table_clock in kept_urls(phone)

    phone.goto(player_clock)
    assert phone.evaluate("navigator.serviceWorker.controller !== null")
    phone.goto(table_clock)
    assert phone.evaluate("navigator.serviceWorker.controller !== null")
    no_copy_of(phone, table_clock)
    assert origin + player_clock not in kept_urls(phone)
    assert phone.evaluate(f"caches.match({table_clock!r}).then((found) => found === undefined)")
