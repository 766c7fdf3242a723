"""The public pages with the 48 names of a real club night, on a phone (360 x 740), a laptop (1280 x 800) and a
projector (1024 x 768, 1280 x 800, 1920 x 1080): nothing wider than the screen, nothing cut, names wrapped between
words, and every projector row on screen in type at least 3% of the screen's height.

Each test saves what it looked at in test-output/screenshots/.
"""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page, expect

from tests.club_night import club_night, enter_sheets
from tournaments.models import Player, Seat

from .conftest import DESKTOP, PHONE
from .helpers import screenshot, settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PROJECTORS = [{"width": 1024, "height": 768}, DESKTOP, {"width": 1920, "height": 1080}]
DROPPED = "Małgosia Etxeberria"


@pytest.fixture
def night():
    """Round 1 complete, round 2 in play with five tables' sheets in, a clock running, one player gone home."""
    return club_night(complete=1, live_tables=5, drop=DROPPED, clock_minutes=50)


def sideways_scroll(page: Page) -> int:
    """How many pixels the page is wider than the window (0 when it fits)."""
    return page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")


def cut_controls(page: Page) -> list[str]:
    """Buttons, links styled as buttons and inputs whose text is wider than their box."""
    return page.evaluate(
        """() => [...document.querySelectorAll('button, a.button, input, select, summary')]
            .filter(el => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
            .map(el => el.outerHTML.slice(0, 80))"""
    )


def broken_words(page: Page, selector: str) -> list[str]:
    """Texts under ``selector`` broken inside a word: a line box that ends where the text has no space or hyphen."""
    return page.evaluate(
        """(selector) => {
            const broken = [];
            for (const el of document.querySelectorAll(selector)) {
                if (el.offsetParent === null) continue;
                const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
                for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                    const text = node.textContent;
                    const range = document.createRange();
                    let lastTop = null;
                    for (let i = 0; i < text.length; i++) {
                        range.setStart(node, i); range.setEnd(node, i + 1);
                        const box = range.getClientRects()[0];
                        if (!box) continue;
                        const wrapped = lastTop !== null && box.top > lastTop + 2;
                        if (wrapped && !/[\\s\\-–]/.test(text[i - 1]) && !/\\s/.test(text[i])) {
                            broken.push(text);
                            break;
                        }
                        lastTop = box.top;
                    }
                }
            }
            return broken;
        }""",
        selector,
    )


def rows_on_screen(page: Page, selector: str) -> int:
    """How many of the rows under ``selector`` lie wholly inside the window."""
    return page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
            .filter(row => { const box = row.getBoundingClientRect();
                             return box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0; }).length""",
        selector,
    )


#: Where the words of each heading of the phone's standings list start and end, left to right.
HEADING_WORDS = """() => [...document.querySelectorAll('.standings-list-head > span')].map(span => {
    const range = document.createRange();
    range.selectNodeContents(span);
    const box = range.getBoundingClientRect();
    return [box.left, box.right];
})"""


def test_the_standings_on_a_phone_are_a_list_of_readable_lines(night, phone, page):
    small = phone()
    small.goto(f"/e/{night.slug}/standings/")
    rows = small.locator(".standings-list li[data-player]")
    expect(rows).to_have_count(48)
    expect(small.locator("#standings .stage-title")).to_have_text("Live standings, round 2")
    expect(small.locator("#standings .legend")).to_have_text("Ties broken by fewest mice")
    expect(small.locator("table.standings")).to_be_hidden()
    settled(small)
    screenshot(small, "phone-pages-standings-phone")
    assert sideways_scroll(small) == 0
    assert cut_controls(small) == []
    assert broken_words(small, ".standings-list .who") == []
    # At least eight rows a screen, once the list is scrolled to.
    small.evaluate("() => document.querySelector('.standings-list ol').scrollIntoView()")
    assert rows_on_screen(small, ".standings-list li[data-player]") >= 8
    # The points and the score of every row are on screen, right of the name.
    first = rows.first.locator("summary")
    for figure in ("points", "score"):
        box = first.locator(f'.figure[data-figure="{figure}"]').bounding_box()
        assert box and box["x"] + box["width"] <= PHONE["width"]
    # Each heading's words stand over its own column, apart from the next heading's, in the longest words too.
    for language in ("en", "es", "it"):
        small.context.add_cookies([{"name": "django_language", "value": language, "url": small.url}])
        small.reload()
        words = small.evaluate(HEADING_WORDS)
        assert all(left[1] < right[0] for left, right in zip(words, words[1:])), (language, words)
        figures = small.locator(".standings-list li[data-player] summary").first.locator(".figure")
        for index, (_start, end) in enumerate(words[2:]):
            box = figures.nth(index).bounding_box()
            assert abs(box["x"] + box["width"] - end) <= 1, (language, words)
    small.context.add_cookies([{"name": "django_language", "value": "en", "url": small.url}])
    small.reload()
    # The rest on tap: club, the game's tiebreak as a count, opponents' points, rounds played.
    dropped = small.locator(".standings-list li.dropped")
    expect(dropped).to_have_count(1)
    expect(dropped).to_contain_text(DROPPED)
    expect(dropped).to_contain_text("dropped")
    dropped.locator("summary").click()
    details = dropped.locator("dl.figures")
    expect(details).to_contain_text("Club")
    expect(details).to_contain_text("Mice")
    expect(details).to_contain_text("Opponents' points")
    assert "-" not in details.locator("div", has_text="Mice").locator("dd").inner_text()
    screenshot(small, "phone-pages-standings-phone-open")

    page.goto(f"/e/{night.slug}/standings/")
    expect(page.locator("table.standings")).to_be_visible()
    expect(page.locator(".standings-list")).to_be_hidden()
    expect(page.locator("table.standings thead")).to_contain_text("Mice")
    settled(page)
    screenshot(page, "phone-pages-standings-desktop")
    assert sideways_scroll(page) == 0


def test_a_row_opened_on_a_phone_stays_open_when_the_live_standings_change(night, phone):
    small = phone()
    small.goto(f"/e/{night.slug}/standings/")
    version = small.locator("#standings").get_attribute("data-version")
    leader = small.locator(".standings-list li[data-player]").first
    player = leader.get_attribute("data-player")
    leader.locator("summary").click()
    expect(leader.locator("dl.figures")).to_be_visible()
    enter_sheets(night.rounds.get(number=2), random.Random(2), tables=6)
    expect(small.locator("#standings")).not_to_have_attribute("data-version", version)
    settled(small)
    opened = small.locator(f'.standings-list li[data-player="{player}"] details')
    expect(opened).to_have_attribute("open", "")
    expect(small.locator(".standings-list li[data-player]")).to_have_count(48)


def test_the_event_page_starts_with_the_round_now_and_finds_a_table(night, phone, page):
    small = phone()
    small.goto(f"/e/{night.slug}/")
    expect(small.locator(".meta")).to_contain_text("Running")
    round_now = small.locator("section.round-now")
    expect(round_now.get_by_role("heading", level=2)).to_contain_text("Round 2")
    assert round_now.bounding_box()["y"] < PHONE["height"]
    for link in ("Standings", "Projector view", "Players"):
        expect(small.locator("nav.event-links").get_by_role("link", name=link)).to_be_visible()
    earlier = small.locator("details.earlier-round")
    expect(earlier).to_have_count(1)
    expect(earlier.locator(".tables")).to_be_hidden()

    player = Player.objects.get(event=night, name="Siobhán de Oliveira Bragança")
    seat = Seat.objects.select_related("table").get(player=player, round__number=2)
    small.get_by_label("Find my table").fill("siobhan braganca")
    found = small.locator("#find-results li")
    expect(found).to_have_count(1)
    expect(found).to_contain_text(f"table {seat.table.number}, seat {seat.position}")
    settled(small)
    screenshot(small, "phone-pages-event-phone")
    assert sideways_scroll(small) == 0
    assert cut_controls(small) == []
    assert broken_words(small, ".table-card li, .player-names li") == []

    page.goto(f"/e/{night.slug}/")
    settled(page)
    screenshot(page, "phone-pages-event-desktop")
    assert sideways_scroll(page) == 0


def test_a_long_name_keeps_its_score_on_its_line(night, phone):
    """On the event page a wrapped name and its score stay side by side: the score's top is the name's."""
    small = phone()
    small.goto(f"/e/{night.slug}/")
    lines = small.locator("section.round-now .seat-line:has(.score)")
    assert lines.count() >= 8
    for index in range(lines.count()):
        name = lines.nth(index).locator(".seat-name").bounding_box()
        score = lines.nth(index).locator(".score").bounding_box()
        assert abs(score["y"] - name["y"]) < 4 and score["x"] >= name["x"] + name["width"]


def test_the_player_page_shows_the_table_now_then_every_column(night, phone, page):
    player = Player.objects.get(event=night, name="Xosé Manuel Wiśniewska-Szymańska")
    for size, visitor in (("phone", phone()), ("desktop", page)):
        visitor.goto(f"/e/{night.slug}/players/{player.pk}/")
        now = visitor.locator("section.table-now")
        expect(now).to_contain_text(f"{player.name}'s table now")
        results = visitor.locator("li.result").first
        for label in ("Score", "Place", "Points"):
            cell = results.locator("dl.figures div", has_text=label)
            expect(cell).to_be_visible()
            box = cell.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= visitor.viewport_size["width"]
        assert now.bounding_box()["y"] < results.bounding_box()["y"]
        settled(visitor)
        screenshot(visitor, f"phone-pages-player-{size}")
        assert sideways_scroll(visitor) == 0
        assert cut_controls(visitor) == []

    small = phone()
    small.goto(f"/p/{player.token}/")
    expect(small.locator("section.table-now")).to_contain_text("Your table now")
    waiting = small.get_by_role("status").filter(has_text="waits for you to check and confirm")
    expect(waiting.get_by_role("link", name="Check and confirm")).to_be_visible()
    settled(small)
    screenshot(small, "phone-pages-player-link-phone")
    assert sideways_scroll(small) == 0
    assert cut_controls(small) == []


@pytest.mark.parametrize("screen", PROJECTORS, ids=lambda s: f"{s['width']}x{s['height']}")
def test_every_projector_row_is_on_screen_in_large_type(night, new_context, screen):
    projector = new_context(viewport=screen).new_page()
    projector.goto(f"/e/{night.slug}/projector/")
    expect(projector.get_by_role("heading", level=1)).to_contain_text("Live standings, round 2")
    expect(projector.locator(".round-clock .clock-time")).to_be_visible()
    # The page measures how many rows its screen shows and asks for pages of that many.
    section = projector.locator("#projector-page")
    expect(section).not_to_have_attribute("data-rows", "10")
    settled(projector)
    rows = projector.locator("#projector-page tbody tr")
    count = rows.count()
    assert count >= 8
    assert rows_on_screen(projector, "#projector-page tbody tr") == count
    foot = projector.locator(".projector-foot").bounding_box()
    assert foot["y"] + foot["height"] <= screen["height"]
    expect(projector.locator(".projector-foot")).to_contain_text("Ties broken by fewest mice")
    sizes = projector.evaluate(
        """() => [...document.querySelectorAll('#projector-page td, #projector-page th, .projector-foot')]
            .map(cell => parseFloat(getComputedStyle(cell).fontSize))"""
    )
    assert min(sizes) >= 0.03 * screen["height"]
    assert sideways_scroll(projector) == 0
    expect(projector.locator("thead")).to_contain_text("Mice")
    expect(projector.locator("tr.dropped")).to_contain_text("dropped")
    screenshot(projector, f"phone-pages-projector-{screen['width']}x{screen['height']}")
    # The next page comes by itself, with the same number of rows.
    expect(section).not_to_have_attribute("data-page", "1", timeout=15_000)
    assert rows_on_screen(projector, "#projector-page tbody tr") == rows.count()


def test_the_organiser_s_round_page_keeps_scores_beside_long_names(night, organiser_page, organiser_user):
    night.organisers.add(organiser_user)
    organiser_page.goto(f"/e/{night.slug}/organiser/rounds/2/")
    lines = organiser_page.locator(".table-card .seat-line:has(.score)")
    assert lines.count() >= 8
    for index in range(lines.count()):
        name = lines.nth(index).locator(".seat-name").bounding_box()
        score = lines.nth(index).locator(".score").bounding_box()
        assert abs(score["y"] - name["y"]) < 4
    screenshot(organiser_page, "phone-pages-round-desktop")
