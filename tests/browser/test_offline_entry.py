"""When the Wi-Fi drops: a phone keeps every sheet it was given and sends it when the server answers again.

Phones at 360 px save sheets with the network off (``context.set_offline``) or with the server stopped, reload
without any network (the service worker's copy, on ``localhost``, a secure context), and see what was kept arrive
once the server answers: stored once, the standings moved, a conflicting sheet shown beside theirs, a sheet the
rules refuse shown with its errors. A page without a service worker (plain http on a club's network) still keeps
and sends what it was given while it is open.
"""

from __future__ import annotations

import contextlib
import datetime
import socket
import time

import pytest
from django.contrib.staticfiles.handlers import StaticFilesHandler
from django.core.servers.basehttp import ThreadedWSGIServer
from django.test.testcases import LiveServerThread, QuietWSGIRequestHandler
from playwright.sync_api import Page, expect

from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments.models import Event, Manche, Player, SheetRevision, Table
from tournaments.models.rounds import RoundStatus
from tournaments.models.tokens import new_token

from .conftest import PHONE, WAIT_MS
from .helpers import screenshot, settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The winner sits fourth, and sorts last by name: the standings' top row changes when the sheet arrives.
NAMES = ["Ada Bellini", "Bruno Carta", "Carla Dossi", "Zeno Winkler"]
#: Cheese points and cards left per seat, in seat order: a sheet the rules accept, seat 4 first.
GOOD = [(1, 1), (4, 2), (6, 3), (10, 6)]
#: The same table's other result, seat 1 first.
OTHER = [(10, 6), (6, 3), (4, 2), (1, 1)]
#: Ten cheese points cannot come from one card: refused at seat 1's card.
REFUSED = [(10, 1), (6, 3), (4, 2), (1, 1)]
KEPT = "Saved on this phone, not sent yet"
NOT_SENT = "Not sent: the server does not answer. Try again in a moment."
#: How soon a sheet that arrives moves the public standings (seconds).
STANDINGS_LAG = 5


def started_table() -> Table:
    event = Event.objects.create(
        name="Serata senza rete",
        date=datetime.date(2026, 11, 26),
        game="cheese-rescue",
        table_size=4,
        manches_per_round=2,
        rounds_planned=2,
        confirmation_required=True,
        confirmation="phone",
        public=True,
    )
    players = [Player.objects.create(event=event, name=name, club="Circolo") for name in NAMES]
    return seat_by_hand(event, 1, [[p.pk for p in players]], status=RoundStatus.IN_PLAY).tables.get()


@pytest.fixture
def phones(browser, live_server):
    """Opens a phone (360 px, touch) on the live server or on ``base_url``: another person's phone each call."""
    contexts = []

    def open_phone(base_url: str = live_server.url, *, service_workers: str = "allow") -> Page:
        context = browser.new_context(
            viewport=PHONE,
            is_mobile=True,
            has_touch=True,
            device_scale_factor=2,
            base_url=base_url,
            locale="en-GB",
            timezone_id="Europe/Rome",
            service_workers=service_workers,
        )
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        return context.new_page()

    yield open_phone
    for context in contexts:
        context.close()


def open_table(page: Page, path: str, seat: str | None = NAMES[0], *, offline_copy: bool = True) -> None:
    page.goto(path)
    if seat:
        page.get_by_role("group", name="I am").get_by_role("radio", name=seat, exact=True).check()
    if offline_copy:
        kept_by_service_worker(page)


def kept_by_service_worker(page: Page) -> None:
    """Wait until the page's service worker answers for it and a copy of the page is kept (the page's own script
    registers the one and takes the other once the page has loaded)."""
    kept = "caches.match(location.pathname, {ignoreVary: true}).then(Boolean)"
    wait_until(
        page,
        lambda: page.evaluate(f"navigator.serviceWorker.controller !== null && {kept}"),
        "no service worker took the page in hand, or no copy of it is kept",
    )


def wait_until(page: Page, done, failure: str, seconds: float = WAIT_MS / 1000) -> None:
    """Wait until ``done()``, letting the page's requests reach their route handlers meanwhile."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, failure
        page.wait_for_timeout(50)


def fill(page: Page, manche: int, tallies: list[tuple[int, int]]) -> None:
    fold = page.locator(f"#manche-{manche} details.sheet-fold:not([open]) > summary")
    if fold.count():
        fold.click()
    for seat, (points, cards) in enumerate(tallies):
        card = page.locator(f"#card-{manche}-{seat}")
        card.get_by_label("Cheese points left").fill(str(points))
        card.get_by_label("Cheese cards left").fill(str(cards))


def save(page: Page, manche: int) -> None:
    page.locator(f"#save-{manche}").click()


def outbox(page: Page):
    return page.locator("[data-outbox]")


def points_typed(page: Page, manche: int, seat: int):
    return page.locator(f"#card-{manche}-{seat}").get_by_label("Cheese points left")


def sheet_of(table: Table, number: int = 1) -> Manche:
    return Manche.objects.get(table=table, number=number)


def stored_within(table: Table, number: int, seconds: float) -> Manche:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        manche = sheet_of(table, number)
        if manche.document:
            return manche
        time.sleep(0.1)
    raise AssertionError(f"manche {number} of table {table.number} was not stored within {seconds} s")


def test_a_sheet_saved_offline_survives_a_reload_and_arrives_once_the_network_is_back(phones, page, laptop):
    table = started_table()
    event = table.round.event
    phone = phones(laptop.url)
    link = f"/t/{table.token}/"
    open_table(phone, link)
    fill(phone, 1, GOOD)
    settled(phone)
    page.goto(f"/e/{event.slug}/standings/")
    leader = page.locator("table.standings tbody tr").first
    expect(leader).not_to_contain_text(NAMES[3])

    # The phone's server stops as its network goes: Chromium may let a page reloaded under a service worker reach
    # the server although its context is offline, which no phone without a network does.
    laptop.stop()
    phone.context.set_offline(True)
    save(phone, 1)
    expect(outbox(phone)).to_contain_text(f"{KEPT} (1)")
    expect(phone.locator("#manche-1 .kept-note")).to_contain_text(KEPT)
    assert sheet_of(table).document is None
    screenshot(phone, "offline-kept")

    phone.reload()
    expect(phone.get_by_role("heading", name="Table 1")).to_be_visible()
    expect(outbox(phone)).to_contain_text(f"{KEPT} (1)")
    expect(outbox(phone).get_by_role("button", name="Send now")).to_be_visible()
    expect(points_typed(phone, 1, 3)).to_have_value("10")
    expect(phone.get_by_role("group", name="I am").get_by_role("radio", name=NAMES[0])).to_be_checked()
    expect(phone.locator("[data-connection]")).to_be_hidden()
    expect(phone.locator(".kept-copy")).to_contain_text("Offline: this page was kept on this phone at")
    assert sheet_of(table).document is None
    screenshot(phone, "offline-reloaded", full_page=True)

    laptop.start()
    phone.context.set_offline(False)
    online = time.monotonic()
    stored = stored_within(table, 1, STANDINGS_LAG)
    expect(leader).to_contain_text(NAMES[3], timeout=(STANDINGS_LAG - (time.monotonic() - online)) * 1000 + 3000)
    assert time.monotonic() - online <= STANDINGS_LAG + 3, "the standings moved within seconds of the sheet arriving"
    expect(phone.locator("#manche-1 .notice")).to_contain_text("Saved.")
    expect(outbox(phone)).to_be_hidden()
    assert [t["cheese_points"] for t in stored.document["tallies"]] == [1, 4, 6, 10]
    revision = SheetRevision.objects.get(manche=stored)
    assert revision.key and revision.entered_at < revision.changed_at
    assert (revision.seat, revision.via) == (1, "link")


def test_offline_the_phone_counts_what_is_typed_and_says_once_that_it_keeps_the_sheet(phones):
    table = started_table()
    phone = phones(service_workers="block")
    open_table(phone, f"/t/{table.token}/", offline_copy=False)
    phone.context.set_offline(True)
    fill(phone, 1, GOOD[:3])
    card = phone.locator("#card-1-3")
    card.get_by_label("Cheese points left").fill(str(GOOD[3][0]))
    progress = phone.locator("#progress-1")
    expect(progress.locator(".progress-offline")).to_be_visible()
    expect(progress.locator("a.progress-done")).to_have_count(3)
    expect(progress.locator("a.progress-partial")).to_have_count(1)
    card.get_by_label("Cheese cards left").fill(str(GOOD[3][1]))
    expect(progress.locator("a.progress-done")).to_have_count(4)
    expect(progress).not_to_contain_text("not yet")
    line = phone.locator("[data-connection]")
    expect(line).to_have_text("The server does not answer: this page tries again by itself.")
    screenshot(phone, "offline-typed")

    save(phone, 1)
    expect(outbox(phone)).to_contain_text(f"{KEPT} (1)")
    expect(line).to_be_hidden()
    expect(phone.locator("body")).not_to_contain_text("Try again")
    screenshot(phone, "offline-kept-said-once", full_page=True)

    phone.context.set_offline(False)
    expect(phone.locator("#manche-1 .notice")).to_contain_text("Saved.")
    assert stored_within(table, 1, STANDINGS_LAG).document


def kept_while_another_phone_saved(phones) -> tuple[Table, Page]:
    """The first phone keeps its sheet of manche 1 offline while a second phone saves its own; then the first
    phone's network comes back."""
    table = started_table()
    link = f"/t/{table.token}/"
    first, second = phones(), phones()
    open_table(first, link, NAMES[0])
    open_table(second, link, NAMES[1])
    first.context.set_offline(True)
    fill(first, 1, GOOD)
    settled(first)
    save(first, 1)
    expect(outbox(first)).to_contain_text(f"{KEPT} (1)")
    fill(second, 1, OTHER)
    settled(second)
    save(second, 1)
    expect(second.locator("#manche-1 .notice")).to_contain_text("Saved.")
    first.context.set_offline(False)
    return table, first


def test_a_kept_sheet_meets_another_phones_save_of_the_same_manche_and_the_player_keeps_their_own(phones):
    table, first = kept_while_another_phone_saved(phones)
    expect(first.locator("#manche-1 .notice")).to_contain_text("Someone else saved this manche meanwhile")
    theirs = first.locator("#manche-1 .stale")
    expect(theirs).to_contain_text("The sheet saved meanwhile says:")
    expect(theirs.locator("table.ranking tbody tr").first).to_contain_text(NAMES[0])
    expect(points_typed(first, 1, 3)).to_have_value("10")
    expect(outbox(first)).to_be_hidden()
    assert [t["cheese_points"] for t in sheet_of(table).document["tallies"]] == [10, 6, 4, 1]
    screenshot(first, "offline-conflict", full_page=True)

    settled(first)
    save(first, 1)
    expect(first.locator("#manche-1 .notice")).to_contain_text("Saved.")
    assert [t["cheese_points"] for t in sheet_of(table).document["tallies"]] == [1, 4, 6, 10]
    assert SheetRevision.objects.filter(manche__table=table).count() == 2


def test_a_kept_sheet_meets_another_phones_save_and_the_player_keeps_the_other(phones):
    table, first = kept_while_another_phone_saved(phones)
    first.locator("#manche-1 .stale").get_by_role("link", name="Keep theirs").click()
    expect(first.locator("#manche-1 .stale")).to_have_count(0)
    expect(first.locator("#manche-1 table.ranking tbody tr").first).to_contain_text(NAMES[0])
    expect(points_typed(first, 1, 3)).to_have_value("1")
    assert [t["cheese_points"] for t in sheet_of(table).document["tallies"]] == [10, 6, 4, 1]
    assert SheetRevision.objects.filter(manche__table=table).count() == 1


def kept_offline(phones, tallies: list[tuple[int, int]], **options) -> tuple[Table, Page]:
    """A phone at a new table saves ``tallies`` as game 1 with its network off: the sheet is kept."""
    table = started_table()
    phone = phones(**options)
    open_table(phone, f"/t/{table.token}/", offline_copy=options.get("service_workers") != "block")
    phone.context.set_offline(True)
    fill(phone, 1, tallies)
    save(phone, 1)
    expect(outbox(phone)).to_contain_text(f"{KEPT} (1)")
    return table, phone


def test_two_manches_kept_at_once_both_arrive(phones):
    table, phone = kept_offline(phones, GOOD)
    fill(phone, 2, OTHER)
    save(phone, 2)
    expect(outbox(phone)).to_contain_text(f"{KEPT} (2)")
    expect(outbox(phone).get_by_role("listitem")).to_have_text(["Table 1 · Game 1", "Table 1 · Game 2"])
    phone.reload()
    expect(outbox(phone)).to_contain_text(f"{KEPT} (2)")
    expect(points_typed(phone, 2, 0)).to_have_value("10")

    phone.context.set_offline(False)
    expect(phone.locator("#manche-1 .notice")).to_contain_text("Saved.")
    expect(phone.locator("#manche-2 .notice")).to_contain_text("Saved.")
    expect(outbox(phone)).to_be_hidden()
    assert [sheet_of(table, n).version for n in (1, 2)] == [1, 1]
    assert SheetRevision.objects.filter(manche__table=table).count() == 2


def test_a_kept_sheet_the_rules_refuse_shows_its_errors_when_it_arrives(phones):
    table, phone = kept_offline(phones, REFUSED)

    phone.context.set_offline(False)
    expect(phone.locator("#card-1-0").get_by_role("alert")).to_contain_text("10 points cannot come from 1")
    expect(points_typed(phone, 1, 0)).to_have_value("10")
    expect(outbox(phone)).to_be_hidden()
    assert sheet_of(table).document is None
    screenshot(phone, "offline-refused")

    phone.locator("#card-1-0").get_by_label("Cheese cards left").fill("6")
    settled(phone)
    save(phone, 1)
    expect(phone.locator("#manche-1 .notice")).to_contain_text("Saved.")
    assert sheet_of(table).document is not None


def test_a_players_own_link_keeps_the_sheet_and_its_home_page_sends_it(phones):
    table = started_table()
    player = table.seats.get(position=2).player
    phone = phones()
    home = f"/p/{player.token}/"
    phone.goto(home)
    kept_by_service_worker(phone)
    phone.locator(f"a[href*='/tables/{table.pk}/']").first.click()
    expect(phone.get_by_role("heading", name="Table 1")).to_be_visible()
    kept_by_service_worker(phone)

    phone.context.set_offline(True)
    fill(phone, 1, GOOD)
    save(phone, 1)
    expect(outbox(phone)).to_contain_text(f"{KEPT} (1)")
    phone.reload()
    expect(points_typed(phone, 1, 3)).to_have_value("10")
    phone.goto(home)
    expect(phone.get_by_role("heading", name=player.name)).to_be_visible()
    expect(outbox(phone)).to_contain_text(f"{KEPT} (1)")
    expect(outbox(phone).get_by_role("link", name="Table 1 · Game 1")).to_be_visible()

    phone.context.set_offline(False)
    expect(outbox(phone)).to_contain_text("Sent: Table 1 · Game 1")
    stored = sheet_of(table)
    assert stored.entered_player_id == player.pk
    assert SheetRevision.objects.filter(manche=stored).count() == 1


def test_a_save_whose_answer_was_lost_is_kept_and_stored_once_without_a_service_worker(phones):
    table = started_table()
    phone = phones(service_workers="block")
    open_table(phone, f"/t/{table.token}/", offline_copy=False)
    assert phone.evaluate("navigator.serviceWorker.controller") is None

    def answer_lost(route) -> None:
        route.fetch()
        route.abort("connectionreset")

    phone.route("**/manches/1/", answer_lost)
    fill(phone, 1, GOOD)
    settled(phone)
    save(phone, 1)
    expect(outbox(phone)).to_contain_text(f"{KEPT} (1)")
    expect(phone.locator("[data-connection]")).to_be_hidden()
    assert sheet_of(table).version == 1, "the save reached the server; only its answer was lost"

    phone.unroute("**/manches/1/")
    expect(phone.locator("#manche-1 .notice")).to_contain_text("Saved.")
    expect(outbox(phone)).to_be_hidden()
    assert sheet_of(table).version == 1
    assert SheetRevision.objects.filter(manche__table=table).count() == 1


def test_send_now_tries_again_at_once_whatever_the_wait(phones):
    table = started_table()
    phone = phones(service_workers="block")
    open_table(phone, f"/t/{table.token}/", offline_copy=False)
    tries: list[float] = []

    def unreachable(route) -> None:
        tries.append(time.monotonic())
        route.abort("connectionrefused")

    phone.route("**/manches/1/", unreachable)
    fill(phone, 1, GOOD)
    settled(phone)
    save(phone, 1)
    expect(outbox(phone)).to_contain_text("next try in")
    assert len(tries) == 1
    due = phone.evaluate("JSON.parse(localStorage.getItem('tablescore:outbox'))[0].nextAt")
    outbox(phone).get_by_role("button", name="Send now").click()
    wait_until(phone, lambda: len(tries) >= 2, "Send now sends the kept sheet again", seconds=1)
    assert len(tries) == 2
    assert phone.evaluate("Date.now()") < due, "sent again at once, before its next try was due (3 s at least)"
    expect(outbox(phone)).to_contain_text(f"{KEPT} (1)")
    assert sheet_of(table).document is None


def test_a_kept_sheet_whose_link_was_reprinted_meanwhile_stays_until_the_player_discards_it(phones):
    table, phone = kept_offline(phones, GOOD, service_workers="block")
    Table.objects.filter(pk=table.pk).update(token=new_token())
    phone.context.set_offline(False)
    kept = outbox(phone).get_by_role("listitem")
    expect(kept).to_have_text("Table 1 · Game 1 · not accepted (error 404): show this phone to the organiser Discard")
    expect(outbox(phone).get_by_role("button", name="Send now")).to_be_hidden()
    assert sheet_of(table).document is None
    kept.get_by_role("button", name="Discard").click()
    expect(outbox(phone)).to_be_hidden()
    phone.reload()
    expect(outbox(phone)).to_be_hidden()


def test_a_confirmation_the_server_never_got_says_it_was_not_sent(phones):
    table = started_table()
    enter(table, cheese_tallies([10, 6, 4, 1]), via="link")
    phone = phones()
    open_table(phone, f"/t/{table.token}/", NAMES[1])
    phone.context.set_offline(True)
    phone.locator("#manche-1").get_by_role("button", name="Confirm this result").click()
    expect(phone.locator("[data-connection]")).to_have_text(NOT_SENT)
    assert sheet_of(table).confirmed_at is None
    phone.context.set_offline(False)
    phone.locator("#manche-1").get_by_role("button", name="Confirm this result").click()
    expect(phone.locator("#manche-1 .notice")).to_contain_text("Confirmed")
    expect(phone.locator("[data-connection]")).to_be_hidden()


def test_a_confirmation_not_sent_stays_said_when_a_request_sent_before_it_is_answered(phones):
    table = started_table()
    enter(table, cheese_tallies([10, 6, 4, 1]), via="link")
    phone = phones(service_workers="block")
    open_table(phone, f"/t/{table.token}/", seat=None, offline_copy=False)
    held = []

    def hold(route) -> None:
        held.append(route)

    phone.route("**/seat/", hold)
    phone.get_by_role("group", name="I am").get_by_role("radio", name=NAMES[1], exact=True).check()
    wait_until(phone, lambda: held, "choosing a seat sends it to the server")
    phone.route("**/confirm/", lambda route: route.abort("connectionrefused"))
    phone.locator("#manche-1").get_by_role("button", name="Confirm this result").click()
    line = phone.locator("[data-connection]")
    expect(line).to_have_text(NOT_SENT)

    phone.evaluate(
        "document.addEventListener('htmx:afterRequest', (event) => {"
        " if (event.detail.elt.matches('.seat-form'))"
        " document.documentElement.dataset.seatAnswered = event.detail.xhr.status; })"
    )
    held[0].continue_()
    expect(phone.locator("html")).to_have_attribute("data-seat-answered", "204")
    expect(line).to_be_visible()
    expect(line).to_have_text(NOT_SENT)
    assert sheet_of(table).confirmed_at is None
    screenshot(phone, "confirm-not-sent")

    phone.unroute("**/confirm/")
    phone.locator("#manche-1").get_by_role("button", name="Confirm this result").click()
    expect(phone.locator("#manche-1 .notice")).to_contain_text("Confirmed")
    expect(line).to_be_hidden()


class ClosingServer(ThreadedWSGIServer):
    """Closes the connections it keeps alive as it closes, as a stopped server's do."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.connections: list[socket.socket] = []

    def get_request(self):
        connection, address = super().get_request()
        self.connections.append(connection)
        return connection, address

    def server_close(self) -> None:
        super().server_close()
        for connection in self.connections:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)


class RestartingServerThread(LiveServerThread):
    """A live server whose port can be taken again at once after it stops, as a laptop's server restarts."""

    server_class = ClosingServer

    def _create_server(self, connections_override=None):
        return self.server_class(
            (self.host, self.port),
            QuietWSGIRequestHandler,
            allow_reuse_address=True,
            connections_override=connections_override,
        )


class Laptop:
    """The app served on a port of its own, stopped and started again."""

    def __init__(self):
        with socket.socket() as probe:
            probe.bind(("localhost", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://localhost:{self.port}"
        self.thread: LiveServerThread | None = None

    def start(self) -> None:
        self.thread = RestartingServerThread("localhost", StaticFilesHandler, port=self.port)
        self.thread.daemon = True
        self.thread.start()
        self.thread.is_ready.wait()
        if self.thread.error:
            raise self.thread.error

    def stop(self) -> None:
        if self.thread is not None:
            self.thread.terminate()
            self.thread = None


@pytest.fixture
def laptop(settings):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "localhost"]
    server = Laptop()
    server.start()
    yield server
    server.stop()


def test_a_sheet_saved_while_the_server_is_stopped_arrives_when_it_starts_again(phones, laptop):
    table = started_table()
    phone = phones(laptop.url)
    open_table(phone, f"/t/{table.token}/")
    fill(phone, 1, GOOD)
    settled(phone)

    laptop.stop()
    save(phone, 1)
    expect(outbox(phone)).to_contain_text(f"{KEPT} (1)")
    expect(phone.locator("[data-connection]")).to_be_hidden()
    phone.reload()
    expect(outbox(phone)).to_contain_text(f"{KEPT} (1)")
    assert sheet_of(table).document is None

    laptop.start()
    expect(phone.locator("#manche-1 .notice")).to_contain_text("Saved.", timeout=30_000)
    expect(outbox(phone)).to_be_hidden()
    expect(phone.locator("[data-connection]")).to_be_hidden()
    assert SheetRevision.objects.filter(manche__table=table).count() == 1


def test_the_live_standings_ask_less_often_while_offline_and_resume_by_themselves(context, live_server):
    table = started_table()
    event = table.round.event
    page = context.new_page()
    asked: list[float] = []
    page.on("request", lambda request: "/standings/live/" in request.url and asked.append(time.monotonic()))
    answers: list[int] = []
    page.on("response", lambda response: "/standings/live/" in response.url and answers.append(response.status))
    page.goto(f"/e/{event.slug}/standings/")
    expect(page.locator("table.standings")).to_be_visible()

    context.set_offline(True)
    offline = time.monotonic()
    page.wait_for_timeout(20_000)
    tries = [moment for moment in asked if moment >= offline]
    gaps = [later - earlier for earlier, later in zip(tries, tries[1:])]
    assert 2 <= len(tries) <= 5, f"every 3 s would ask 6 or 7 times in 20 s; backing off, at most 5: {tries}"
    assert max(gaps) >= 5.5, f"each failure makes the next wait longer: {gaps}"
    expect(page.locator("[data-connection]")).to_be_visible()

    answered = len(answers)
    context.set_offline(False)
    expect(page.locator("[data-connection]")).to_be_hidden(timeout=5_000)
    assert len(answers) > answered
