"""A sheet of each game entered on a 360 px phone through the table link, with the longest names of a real club night.

Each game is entered both ways it has (counts, and a grid or a board), with a mistake shown at its player's card
and fixed; after every step the page is no wider than the phone and no control cuts its text. There is one "I am"
on the page, the table's status in the header follows each save, and a second phone confirms.
"""

from __future__ import annotations

import csv
import datetime
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.factories import enter, seat_by_hand
from tests.scoring.test_cheese_rescue import BOARD_7
from tests.test_entry_snack_match import BENJAMIN_GRID
from tests.test_entry_veggies import PATRICIA_GRID
from tournaments.models import Event, Player, Table
from tournaments.models.rounds import RoundStatus

from .conftest import PHONE
from .helpers import VEGETABLES_MANCHE, layout_problems, screenshot, settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CLUB_NIGHT = Path(__file__).resolve().parents[1] / "data" / "players-club-night.csv"

#: Every control of the page whose text does not fit it: inputs and buttons by their own scroll width, selects by
#: the width their chosen option's text needs beside the arrow Chromium draws (a select never scrolls).
CUT_CONTROLS = """() => {
  const pen = document.createElement("canvas").getContext("2d");
  const cut = [];
  for (const control of document.querySelectorAll("select, input, button")) {
    const hidden = control.type === "hidden" || control.type === "radio" || control.closest("[aria-hidden=true]");
    if (hidden || control.closest(".visually-hidden") || control.getClientRects().length === 0) continue;
    const name = control.name || control.textContent.trim();
    if (control.scrollWidth > control.clientWidth) cut.push(name);
    if (control.tagName === "SELECT" && control.selectedOptions.length) {
      const style = getComputedStyle(control);
      pen.font = style.font;
      const arrow = style.appearance === "none" ? 0 : 20;
      const room = control.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - arrow;
      if (pen.measureText(control.selectedOptions[0].text).width > room + 1) cut.push(name);
    }
  }
  return cut;
}"""


def longest_names(count: int) -> list[tuple[str, str]]:
    """The club night's longest names, with their clubs: the ones that overflowed phones."""
    with CLUB_NIGHT.open(encoding="utf-8") as lines:
        rows = [(row["name"], row["club"]) for row in csv.DictReader(lines)]
    return sorted(rows, key=lambda row: -len(row[0]))[:count]


def started_table(game: str, manches: int) -> Table:
    event = Event.objects.create(
        name="Noche de clubes de Girona",
        date=datetime.date(2026, 11, 21),
        game=game,
        table_size=4,
        manches_per_round=manches,
        rounds_planned=3,
        confirmation_required=True,
        confirmation="phone",
    )
    players = [Player.objects.create(event=event, name=name, club=club) for name, club in longest_names(4)]
    return seat_by_hand(event, 1, [[p.pk for p in players]], status=RoundStatus.IN_PLAY).tables.get()


def fits(page: Page) -> None:
    """Nothing slides sideways and no control cuts its text."""
    settled(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.evaluate(CUT_CONTROLS) == []


def status(page: Page):
    return page.locator("#table-status")


def card(page: Page, manche: int, seat: int):
    return page.locator(f"#card-{manche}-{seat}")


def save(page: Page, manche: int) -> None:
    settled(page)
    page.locator(f"#save-{manche}").click()
    settled(page)


def saved(page: Page, manche: int) -> None:
    expect(page.locator(f"#manche-{manche} .notice")).to_contain_text("Saved. Another player now confirms it.")


def confirm(second: Page, manches: list[int], seat: str) -> None:
    """A second phone says who it is, once, and confirms each sheet."""
    expect(second.get_by_role("group", name="I am")).to_have_count(1)
    second.get_by_role("group", name="I am").get_by_role("radio", name=seat, exact=True).check()
    for number in manches:
        second.locator(f"#manche-{number}").get_by_role("button", name="Confirm this result").click()
        expect(second.locator(f"#manche-{number} .notice")).to_contain_text("Confirmed. Thank you!")
        fits(second)


# Each game: the first phone's steps, a mistake shown at a card and fixed, then saved both ways.


def vegetables(page: Page, names: list[str], shots: str) -> list[int]:
    """Manche 1 with 15 crosses (refused, fixed), then manche 2 reached from the links at the top."""
    crosses = {1: [6, 2, 5, 2], 2: [4, 4, 4, 4]}
    for number in (1, 2):
        for seat, pozzo in enumerate(["30", "0", "20", "10"] if number == 1 else ["0", "10", "20", "30"]):
            player = card(page, number, seat)
            player.get_by_role("radio", name=pozzo, exact=True).check()
            player.get_by_label("Sequences (crosses)").fill(str(crosses[number][seat]))
            player.get_by_label("Family bonuses").fill("1" if seat == number else "0")
            player.get_by_label("Paid penalties").fill("0")
            fits(page)
        save(page, number)
        if number == 1:
            expect(page.locator("#manche-1 .errorlist")).to_contain_text("A manche has 16 sequences")
            expect(page.locator("#manche-1 .save-refused")).to_have_text("Not saved: check what is marked in red.")
            fits(page)
            screenshot(page, f"{shots}-error")
            card(page, 1, 3).get_by_label("Sequences (crosses)").fill("3")
            expect(page.locator("#checks-1")).to_contain_text("16 of 16 ✓")
            save(page, 1)
            saved(page, 1)
            expect(status(page)).to_have_text("In progress")
            expect(page.locator("#manche-nav")).to_contain_text("Manche 1 Entered")
            expect(page.locator("#manche-1 .notice").get_by_role("link", name="Next: Manche 2")).to_be_visible()
            page.locator("#manche-nav").get_by_role("link", name="Manche 2").click()
    saved(page, 2)
    expect(status(page)).to_have_text("In progress")
    return [1, 2]


def veggies(page: Page, names: list[str], shots: str) -> list[int]:
    """Three stands as counts, the fourth tapped in as a grid; a forbidden declaration refused, then fixed."""
    stands = [
        ({"Strawberries": (5, 4), "Bananas": (3, 2), "Grapes": (5, 1)}, "3", "Bananas"),
        ({"Bananas": (6, 1), "Carrots": (2, 2)}, "0", "Bananas"),
        ({"Grapes": (4, 2), "Mushrooms": (3, 1)}, "1", "Grapes"),
    ]
    for seat, (goods, mice, declared) in enumerate(stands):
        player = card(page, 1, seat)
        for good, (largest, groups) in goods.items():
            player.get_by_label(f"{good}: largest group").fill(str(largest))
            player.get_by_label(f"{good}: groups").fill(str(groups))
        player.get_by_label("Mice").fill(mice)
        player.get_by_label("Declared good").select_option(label=declared)
        fits(page)
    patricia = card(page, 1, 3)
    patricia.get_by_role("radio", name="Grid").check()
    expect(patricia.locator("select[name^='stands[3].grid']")).to_have_count(48)
    for r, row in enumerate(PATRICIA_GRID):
        for c, code in enumerate(row):
            if code.strip():
                patricia.locator(f"select[name='stands[3].grid[{r}][{c}]']").select_option(code)
    patricia.get_by_label("Declared good").select_option(label="Strawberries")
    expect(page.locator("#live-1-3")).to_contain_text("Strawberries 4×1, Carrots 1×3, 1 mouse")
    fits(page)
    save(page, 1)
    expect(card(page, 1, 0).get_by_role("alert")).to_contain_text("is not among this stand's biggest groups")
    fits(page)
    screenshot(page, f"{shots}-error")
    card(page, 1, 0).get_by_label("Declared good").select_option(label="Strawberries")
    save(page, 1)
    saved(page, 1)
    expect(status(page)).to_have_text("Entered")
    return [1]


def snack_match(page: Page, names: list[str], shots: str) -> list[int]:
    """A zone tapped in square by square, three typed as group sizes; a size that is no number refused, then fixed."""
    first = card(page, 1, 0)
    first.get_by_role("radio", name="Grid").check()
    expect(first.locator("select[name^='zones[0].grid']")).to_have_count(16)
    for r, row in enumerate(BENJAMIN_GRID):
        for c, square in enumerate(row):
            if square:
                first.locator(f"select[name='zones[0].grid[{r}][{c}]']").select_option(square)
    expect(page.locator("#live-1-0")).to_contain_text("Points from groups: 9")
    typed = [{"sandwich": "4, 1", "green": "5"}, {"donut": "3", "orange": "4"}, {"soda": "3, x"}]
    for seat, sizes in enumerate(typed, start=1):
        player = card(page, 1, seat)
        for component, text in sizes.items():
            kind = "Tablecloth" if component in ("orange", "green") else "Snack"
            player.get_by_label(f"{kind}: {component}", exact=False).fill(text)
        fits(page)
    save(page, 1)
    expect(card(page, 1, 3).get_by_role("alert")).to_contain_text("Snack: soda: size 2 of the list, “x”, is not a")
    fits(page)
    screenshot(page, f"{shots}-error")
    card(page, 1, 3).get_by_label("Snack: soda").fill("3")
    save(page, 1)
    saved(page, 1)
    expect(status(page)).to_have_text("Entered")
    return [1]


def cheese_rescue(page: Page, names: list[str], shots: str) -> list[int]:
    """Game 1 as tallies (an impossible tally refused, fixed), game 2 as the 7 x 7 board."""
    for seat, (points, cards) in enumerate([(10, 1), (6, 3), (4, 2), (1, 1)]):
        player = card(page, 1, seat)
        player.get_by_label("Cheese points left").fill(str(points))
        player.get_by_label("Cheese cards left").fill(str(cards))
    expect(page.locator("#live-1-0")).to_contain_text("not possible with the cards left ✗")
    fits(page)
    save(page, 1)
    expect(card(page, 1, 0).get_by_role("alert")).to_contain_text("10 points cannot come from 1")
    fits(page)
    screenshot(page, f"{shots}-error")
    card(page, 1, 0).get_by_label("Cheese cards left").fill("6")
    save(page, 1)
    saved(page, 1)
    expect(status(page)).to_have_text("In progress")
    game = page.locator("#manche-2")
    game.get_by_role("radio", name="Board").check()
    expect(game.locator("select[name^='board[']")).to_have_count(49)
    for r, row in enumerate(BOARD_7):
        for c, code in enumerate(row):
            game.locator(f"select[name='board[{r}][{c}]']").select_option(code)
    expect(page.locator("#checks-2")).to_contain_text("The board follows the rules.")
    fits(page)
    save(page, 2)
    saved(page, 2)
    expect(status(page)).to_have_text("Entered")
    return [1, 2]


GAMES = {
    "vegetables": (4, vegetables, "In progress"),
    "veggies": (1, veggies, "Confirmed"),
    "snack-match": (1, snack_match, "Confirmed"),
    "cheese-rescue": (2, cheese_rescue, "Confirmed"),
}


@pytest.mark.parametrize("game", GAMES)
def test_a_sheet_entered_on_a_phone_with_the_longest_names(game, phone, page):
    manches, enter, confirmed = GAMES[game]
    table = started_table(game, manches)
    names = [seat.player.name for seat in table.seats.order_by("position")]
    link = f"/t/{table.token}/"
    shots = f"phone-entry-{game}"
    desk = page

    first = phone()
    first.goto(link)
    fits(first)
    expect(status(first)).to_have_text("Empty")
    expect(first.get_by_role("group", name="I am")).to_have_count(1)
    screenshot(first, f"{shots}-empty")
    desk.goto(link)
    screenshot(desk, f"{shots}-empty-desktop")
    desk.get_by_role("group", name="I am").get_by_role("radio").last.check()
    save(desk, 1)
    expect(desk.locator("#manche-1 .save-refused")).to_be_visible()
    screenshot(desk, f"{shots}-error-desktop")
    first.get_by_role("group", name="I am").get_by_role("radio", name=names[0], exact=True).check()
    fits(first)

    entered = enter(first, names, shots)
    expect(first.get_by_role("group", name="I am")).to_have_count(1)
    expect(first.locator("input[name=seat]:checked")).to_have_value("1")
    expect(first.locator("input[name=seat]")).to_have_count(4)
    screenshot(first, f"{shots}-saved")
    desk.goto(link)
    screenshot(desk, f"{shots}-saved-desktop")

    second = phone()
    second.goto(link)
    fits(second)
    confirm(second, entered, names[2])
    expect(status(second)).to_have_text(confirmed)
    screenshot(second, f"{shots}-confirmed")
    desk.goto(link)
    expect(status(desk)).to_have_text(confirmed)
    screenshot(desk, f"{shots}-confirmed-desktop")


#: A surname with no place to break it, beside the round totals' widest headings ("Piazzamento").
UNBREAKABLE = ["Grzegorz Brzęczyszczykiewicz", "Małgorzata Wiśniewska-Szymańska", "Anne-Sophie Lefebvre", "Bo Li"]


@pytest.mark.parametrize("locale", ["en-GB", "es-ES", "it-IT"])
def test_the_round_totals_fit_a_phone_in_every_language(locale, browser, live_server):
    table = started_table("vegetables", 4)
    for seat, name in zip(table.seats.select_related("player").order_by("position"), UNBREAKABLE):
        seat.player.name = name
        seat.player.save(update_fields=["name"])
    enter(table, {"manches": [VEGETABLES_MANCHE]}, via="link")
    phone = {"viewport": PHONE, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
    context = browser.new_context(**phone, locale=locale, base_url=live_server.url)
    page = context.new_page()
    page.goto(f"/t/{table.token}/")
    totals = page.locator("#round-totals")
    totals.scroll_into_view_if_needed()
    expect(totals.locator("tbody tr")).to_have_count(4)
    screenshot(page, f"phone-round-totals-{locale[:2]}")
    box = totals.locator("table").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], f"the totals reach {box['x'] + box['width']}"
    assert layout_problems(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    context.close()
