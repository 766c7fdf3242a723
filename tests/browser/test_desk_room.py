"""The desk is the room: with a round in play, every table of a 48-player round on the first screen of a 1280 x 800
laptop and every table of a 96-player round on the first screen at 1920 x 1080, in English, Spanish and Italian, each
with its number, its state by colour and by word, and its players; the tournament's pages in one bar, the clock on one
line, the alerts above; nothing wider than the screen from a phone to a wide screen."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone, translation
from playwright.sync_api import Page, expect

from tests.club_night import import_club_night
from tests.factories import cheese_tallies, enter, seat_by_hand
from tests.test_desk_board import confirm, dispute
from tournaments.models import Event, Player, Round
from tournaments.services.desk_board import STATES, table_state
from tournaments.services.rounds import start_round

from .conftest import WAIT_MS, logged_in
from .helpers import layout_problems, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = ["en", "es", "it"]
LAPTOP = {"width": 1280, "height": 800}
WIDE = {"width": 1920, "height": 1080}

#: Each tile as a sighted organiser sees it: its box, its number, its state's word and colour, the names it shows.
TILES = r"""() => [...document.querySelectorAll("#desk-board .board-tile")].map((tile) => {
  const box = tile.getBoundingClientRect();
  const shown = (element) => element.getBoundingClientRect().width > 1 && getComputedStyle(element).display !== "none";
  const names = [...tile.querySelectorAll(".tile-name")].map((name) => {
    const part = [...name.querySelectorAll(".name-full, .name-short")].find(shown) || name;
    const rect = part.getBoundingClientRect();
    return {text: part.innerText.trim(), inside: rect.left >= box.left && rect.right <= box.right + 0.5};
  });
  return {
    id: tile.id,
    top: box.top, left: box.left, bottom: box.bottom, right: box.right,
    number: tile.querySelector(".tile-number").innerText,
    word: tile.querySelector(".tile-state").innerText,
    colour: getComputedStyle(tile).borderLeftColor,
    names,
  };
})"""


def more_names(names: list[str], count: int) -> list[str]:
    """``count`` more names, each a first name of the list with another row's last name, none already taken."""
    taken, found = set(names), []
    for shift in range(1, len(names)):
        for first, other in zip(names, names[shift:] + names[:shift]):
            name = f"{first.split()[0]} {other.split()[-1]}"
            if name not in taken and len(found) < count:
                taken.add(name)
                found.append(name)
    return found


def room(organiser, players: int) -> Round:
    """Round 1 of a Cheese Rescue night of ``players`` with the club night's long names, seated by hand, published
    and started, its clock running: a table in three entered, one in three confirmed, a dispute, the rest empty."""
    event = Event.objects.create(
        name="Noche de juegos", date=datetime.date(2026, 11, 21), venue="Asociación Lúdica, Valencia",
        game="cheese-rescue", table_size=4, manches_per_round=1, rounds_planned=3, seed=20261121,
    )  # fmt: skip
    event.organisers.add(organiser)
    names = [player.name for player in import_club_night(event)]
    Player.objects.bulk_create(Player(event=event, name=name) for name in more_names(names, players - len(names)))
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    assert len(ids) == players
    round_ = start_round(seat_by_hand(event, 1, [ids[i : i + 4] for i in range(0, players, 4)]))
    for table in round_.tables.order_by("number"):
        if table.number % 3 != 0:
            enter(table, cheese_tallies([9, 5, 3, 1]))
        if table.number % 3 == 2:
            confirm(table)
    dispute(round_.tables.get(number=4))
    Round.objects.filter(pk=round_.pk).update(clock_seconds=3600, clock_started_at=timezone.now())
    return round_


def desk_in(new_context, user, live_server, language: str, viewport: dict) -> Page:
    context = logged_in(new_context(viewport=viewport), user, live_server)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    context.set_default_timeout(WAIT_MS)
    return context.new_page()


def expected(round_: Round, language: str) -> dict[str, tuple[int, str, list[str]]]:
    """Each tile's table number, state word in ``language`` and seated players, read from the database."""
    confirmation = round_.event.confirmation_required
    found = {}
    with translation.override(language):
        for table in round_.tables.prefetch_related("seats__player"):
            names = [seat.player.name for seat in sorted(table.seats.all(), key=lambda seat: seat.position)]
            found[f"tile-{table.number}"] = (table.number, str(STATES[table_state(table, confirmation)][0]), names)
    return found


def check_the_room(page: Page, round_: Round, language: str, tables: int) -> None:
    """Every table wholly on the first screen with its number, its state by word and colour, and its players."""
    assert page.evaluate("window.scrollY") == 0
    height, width = page.evaluate("[window.innerHeight, document.documentElement.clientWidth]")
    tiles = page.evaluate(TILES)
    on_screen = [t for t in tiles if t["top"] >= 0 and t["left"] >= 0 and t["bottom"] <= height and t["right"] <= width]
    assert (len(tiles), len(on_screen)) == (tables, tables), [t["id"] for t in tiles if t not in on_screen]
    colours: dict[str, set[str]] = {}
    for tile in tiles:
        number, word, names = expected(round_, language)[tile["id"]]
        assert str(number) in tile["number"].split(), tile
        assert tile["word"] == word, tile
        colours.setdefault(word, set()).add(tile["colour"])
        shown = tile["names"]
        assert len(shown) == len(names) and all(name["inside"] for name in shown), tile
        for name, label in zip(names, shown):
            assert name.split()[-1] in label["text"], (name, label)
    assert all(len(found) == 1 for found in colours.values()), colours
    assert len({colour for found in colours.values() for colour in found}) == len(colours) >= 4, colours


def one_line(page: Page, selector: str) -> None:
    """Everything in ``selector`` shares one line: each child's box overlaps every other's vertically."""
    boxes = page.locator(selector).evaluate(
        "(section) => [...section.children].filter((c) => c.getClientRects().length)"
        ".map((c) => [c.getBoundingClientRect().top, c.getBoundingClientRect().bottom])"
    )
    assert max(top for top, _ in boxes) < min(bottom for _, bottom in boxes), (selector, boxes)


def above(page: Page, first: str, second: str) -> None:
    top, below = page.locator(first).bounding_box(), page.locator(second).bounding_box()
    assert top["y"] + top["height"] <= below["y"], (first, second)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("players", "viewport"), [(48, LAPTOP), (96, WIDE)], ids=["48-at-1280", "96-at-1920"])
def test_every_table_of_the_round_is_on_the_first_screen(
    new_context, organiser_user, live_server, language, players, viewport
):
    round_ = room(organiser_user, players)
    page = desk_in(new_context, organiser_user, live_server, language, viewport)
    page.goto(f"/e/{round_.event.slug}/organiser/")
    expect(page.locator(".board-tile")).to_have_count(players // 4)
    expect(page.locator("#desk-alerts")).to_be_visible()
    screenshot(page, f"desk-room-{viewport['width']}-{language}")

    check_the_room(page, round_, language, players // 4)
    one_line(page, "#desk-clock")
    one_line(page, "nav.desk-links")
    above(page, "#desk-alerts", "#desk-board")
    assert layout_problems(page) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_desk_holds_from_a_phone_to_a_wide_screen_with_its_menu_open(
    new_context, organiser_user, live_server, language
):
    round_ = room(organiser_user, 48)
    page = desk_in(new_context, organiser_user, live_server, language, {"width": 360, "height": 740})
    found = {}
    for width, height in [(360, 740), (1280, 800), (1920, 1080)]:
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"/e/{round_.event.slug}/organiser/")
        expect(page.locator(".board-tile")).to_have_count(12)
        found[width] = layout_problems(page)
        menu = page.locator("details.desk-more")
        menu.locator("summary").click()
        for link in menu.get_by_role("link").all():
            expect(link).to_be_visible()
        found[width] += layout_problems(page)
        screenshot(page, f"desk-room-menu-{width}-{language}", full_page=width == 360)
    assert found == {360: [], 1280: [], 1920: []}


def test_every_link_of_the_bar_and_its_menu_is_reached_with_the_keyboard(new_context, organiser_user, live_server):
    round_ = room(organiser_user, 48)
    page = desk_in(new_context, organiser_user, live_server, "en", LAPTOP)
    page.goto(f"/e/{round_.event.slug}/organiser/")
    bar = page.get_by_role("navigation", name="Tournament pages")
    bar.get_by_role("link", name="Players").focus()
    reached = []
    for _step in range(5):
        page.keyboard.press("Tab")
        reached.append(page.evaluate("document.activeElement.innerText.trim()"))
    assert reached == ["Settings", "Public page", "Standings", "Projector", "Print and export"]
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    expect(bar.get_by_role("link", name="Print the standings (PDF)")).to_be_focused()
    for name in ("Standings (CSV)", "Standings (Excel)", "Sheets (CSV)", "Backup"):
        page.keyboard.press("Tab")
        expect(bar.get_by_role("link", name=name)).to_be_focused()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_clock_takes_one_line_before_it_is_set_and_once_it_runs(new_context, organiser_user, live_server, language):
    round_ = room(organiser_user, 48)
    Round.objects.filter(pk=round_.pk).update(clock_seconds=None, clock_started_at=None)
    page = desk_in(new_context, organiser_user, live_server, language, LAPTOP)
    page.goto(f"/e/{round_.event.slug}/organiser/")
    expect(page.locator("#clock-minutes")).to_be_visible()
    one_line(page, "#desk-clock")
    check_the_room(page, round_, language, 12)
    screenshot(page, f"desk-room-clock-off-{language}")

    Round.objects.filter(pk=round_.pk).update(clock_seconds=3600, clock_started_at=timezone.now())
    page.reload()
    clock = page.locator("#desk-clock")
    expect(page.locator("#clock-minutes")).to_be_hidden()
    clock.locator("details.clock-more > summary").click()
    expect(page.locator("#clock-minutes")).to_be_visible()
    expect(clock.locator(".clock-more-panel button")).to_have_count(3)
    for button in clock.locator(".clock-more-panel button").all():
        expect(button).to_be_in_viewport(ratio=1)
    assert layout_problems(page) == []
    screenshot(page, f"desk-room-clock-menu-{language}")
