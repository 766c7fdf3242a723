"""Accessibility in a real browser: axe-core finds nothing serious on the main pages, at phone and desktop
sizes, and a table enters its sheet with the keyboard alone."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from .helpers import settled, tournament_day

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Axe()
#: WCAG 2.0, 2.1 and 2.2 A and AA, and axe's best practices.
AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]},
    "resultTypes": ["violations"],
}
BLOCKING = {"serious", "critical"}


def serious_violations(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now, one line each."""
    violations = AXE.run(page, options=AXE_OPTIONS).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[node['target'] for node in v['nodes']]}"
        for v in violations
        if v["impact"] in BLOCKING
    ]


def urls(day) -> dict[str, str]:
    slug = day.event.slug
    return {
        "public event page": f"/e/{slug}/",
        "standings": f"/e/{slug}/standings/",
        "projector": f"/e/{slug}/projector/",
        "player page": f"/e/{slug}/players/{day.busy.seats.first().player_id}/",
        "player link": f"/p/{day.busy.seats.first().player.token}/",
        "table entry": f"/t/{day.empty.token}/",
        "table entry, sheet saved": f"/t/{day.busy.token}/",
        "organiser dashboard": "/organiser/",
        "event desk": f"/e/{slug}/organiser/",
        "round page": f"/e/{slug}/organiser/rounds/2/",
        "players": f"/e/{slug}/organiser/players/",
        "organiser's table page": f"/e/{slug}/organiser/tables/{day.busy.pk}/",
    }


PUBLIC = [
    "public event page",
    "standings",
    "projector",
    "player page",
    "player link",
    "table entry",
    "table entry, sheet saved",
]
ORGANISER = ["organiser dashboard", "event desk", "round page", "players", "organiser's table page"]


def check_pages(names: list[str], visitors: list[Page], day) -> dict[str, list[str]]:
    """Each page at each size: what axe-core finds serious, by page and width (empty when all is well)."""
    found = {}
    for visitor in visitors:
        for name in names:
            visitor.goto(urls(day)[name])
            expect(visitor.get_by_role("heading", level=1)).to_be_visible()
            violations = serious_violations(visitor)
            if violations:
                found[f"{name} at {visitor.viewport_size['width']} px"] = violations
    return found


def test_public_pages_have_no_serious_violation(page, phone, organiser_user):
    day = tournament_day("vegetables", organiser_user)
    assert check_pages(PUBLIC, [page, phone()], day) == {}


def test_organiser_pages_have_no_serious_violation(organiser_page, organiser_phone, organiser_user):
    day = tournament_day("vegetables", organiser_user)
    assert check_pages(ORGANISER, [organiser_page, organiser_phone], day) == {}


def test_a_sheet_refused_with_errors_has_no_serious_violation(phone, organiser_user):
    """The error state: messages at the fields, invalid fields marked, everything typed still there."""
    day = tournament_day("cheese-rescue", organiser_user)
    table = phone()
    table.goto(f"/t/{day.empty.token}/")
    game = table.locator("#manche-1")
    table.get_by_role("group", name="I am").get_by_role("radio").first.check()
    game.get_by_label("Cheese points left:").first.fill("10")
    game.get_by_label("Cheese cards left:").first.fill("1")
    settled(table)
    game.get_by_role("button", name="Save", exact=True).click()
    expect(game.locator("[aria-invalid=true]").first).to_be_visible()
    settled(table)
    assert serious_violations(table) == []


def test_axe_reports_what_it_should(page, organiser_user):
    """The check can fail: an image without text and an unlabelled field planted in a page are reported."""
    day = tournament_day("cheese-rescue", organiser_user)
    page.goto(urls(day)["public event page"])
    page.evaluate(
        """() => document.querySelector('main').insertAdjacentHTML('beforeend',
        '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><input type="text">')"""
    )
    found = " ".join(serious_violations(page))
    assert "image-alt (critical)" in found and "label (critical)" in found


def focus_ring(page: Page) -> str:
    """The focused element's outline, as the browser draws it."""
    return page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement); return s.outlineStyle + ' ' + s.outlineWidth; }"
    )


def test_a_sheet_is_entered_with_the_keyboard_alone(phone, organiser_user):
    """Tab from the top of the page: skip link, "I am", tallies or board, who is done, every player's fields card by
    card, then Save with Enter."""
    day = tournament_day("cheese-rescue", organiser_user)
    table = phone()
    table.goto(f"/t/{day.empty.token}/")
    seated = table.locator("ol.seats li").all_inner_texts()
    keyboard = table.keyboard

    keyboard.press("Tab")
    expect(table.get_by_role("link", name="Skip to content")).to_be_focused()
    keyboard.press("Enter")
    keyboard.press("Tab")
    seats = table.get_by_role("group", name="I am").get_by_role("radio")
    expect(seats.first).to_be_focused()
    keyboard.press("ArrowDown")
    expect(seats.nth(1)).to_be_focused()
    expect(seats.nth(1)).to_be_checked()

    keyboard.press("Tab")
    expect(table.get_by_role("radio", name="Tallies")).to_be_focused()
    for _player in seated:
        keyboard.press("Tab")
        assert table.evaluate("document.activeElement.closest('.progress') !== null")

    tallies = [(9, 5), (6, 3), (4, 2), (1, 1)]
    typed = []
    for name, (points, cards) in zip(seated, tallies):
        typed += [(f"Cheese points left: {name}", points), (f"Cheese cards left: {name}", cards)]
    for label, value in typed:
        keyboard.press("Tab")
        expect(table.get_by_label(label, exact=True)).to_be_focused()
        assert focus_ring(table) == "solid 3px", label
        keyboard.type(str(value))
    expect(table.locator("#live-1-3")).to_contain_text("possible with the cards left ✓")

    keyboard.press("Tab")
    save = table.get_by_role("button", name="Save", exact=True)
    expect(save).to_be_focused()
    assert focus_ring(table) == "solid 3px"
    settled(table)
    keyboard.press("Enter")

    game = table.locator("#manche-1")
    expect(game.get_by_role("status")).to_have_text("Saved. Another player now confirms it with their own player card.")
    ranking = game.get_by_role("table", name="Result at the table")
    expect(ranking.locator("tbody tr")).to_have_count(4)
    expect(ranking.locator("tbody tr").first).to_contain_text(f"1{seated[0]}9")


def test_the_focus_stays_on_save_after_saving(phone, organiser_user):
    day = tournament_day("cheese-rescue", organiser_user)
    table = phone()
    table.goto(f"/t/{day.empty.token}/")
    game = table.locator("#manche-1")
    table.get_by_role("group", name="I am").get_by_role("radio").nth(1).check()
    for i, (points, cards) in enumerate([(9, 5), (6, 3), (4, 2), (1, 1)]):
        game.get_by_label("Cheese points left:").nth(i).fill(str(points))
        game.get_by_label("Cheese cards left:").nth(i).fill(str(cards))
    settled(table)
    game.get_by_role("button", name="Save", exact=True).focus()
    table.keyboard.press("Enter")
    expect(game.get_by_role("status")).to_have_text("Saved. Another player now confirms it with their own player card.")
    settled(table)
    expect(game.get_by_role("button", name="Save changes")).to_be_focused(timeout=2_000)
