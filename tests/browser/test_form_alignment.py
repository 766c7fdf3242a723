"""Every game's table form on a 360 px phone, in every language: each box stands in its column.

A long heading in one language once pushed a box onto a line of its own, left of where the same box stands on
every other line, so values went into the wrong box while the page stayed no wider than the phone. The games come
from the registry and the languages from the settings, so a new game or a new language is checked too; each way
of entering a sheet (counts, a grid, a board) is checked after switching to it.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from tournaments import games

from .conftest import PHONE
from .helpers import settled
from .test_phone_entry import started_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: How far apart (in CSS pixels) the left edges of one column's boxes may be.
TOLERANCE = 2

#: The boxes of the sheet forms that are out of place, as "name: why". A box's column is its place among the boxes
#: of its line (lines with as many boxes of the same kind share columns, across every card of the manche), or its
#: cell of a grid's row. A box is out of place when its left edge is not its column's, when it sits left of its
#: line's label (wrapped under it), or when it is lower or higher than the other boxes of its line.
MISPLACED = """(tolerance) => {
  const shown = (box) => box.getClientRects().length > 0 && !box.closest(".visually-hidden");
  const boxes = [...document.querySelectorAll("form.sheet input, form.sheet select")].filter(
    (box) => !["hidden", "radio", "checkbox", "submit"].includes(box.type) && shown(box));
  const problems = [];
  const columns = new Map();
  const rows = new Map();
  for (const box of boxes) {
    const rect = box.getBoundingClientRect();
    const form = box.closest("form.sheet");
    const line = box.closest(".line");
    const row = line || box.closest("tr");
    if (!row) continue;
    const inRow = [...row.querySelectorAll("input, select")].filter((other) => boxes.includes(other));
    const place = inRow.indexOf(box);
    const where = line ? `line:${inRow.length}:${place}:${box.tagName}:${box.type}` : `grid:${place}`;
    const table = line ? "" : [...form.querySelectorAll("table")].indexOf(box.closest("table"));
    const key = `${form.action}|${table}|${where}`;
    if (!columns.has(key)) columns.set(key, []);
    columns.get(key).push([box.name, rect.left]);
    if (!rows.has(row)) rows.set(row, []);
    rows.get(row).push([box.name, rect.bottom]);
    const label = line && line.querySelector(":scope > label, :scope > .line-label");
    if (label && rect.left < label.getBoundingClientRect().right - tolerance) {
      problems.push(`${box.name}: under its line's label`);
    }
  }
  for (const members of columns.values()) {
    const left = Math.min(...members.map(([, x]) => x));
    for (const [name, x] of members) {
      if (x - left > tolerance) problems.push(`${name}: ${Math.round(x - left)} px right of its column`);
    }
  }
  for (const members of rows.values()) {
    const bottom = members[0][1];
    for (const [name, y] of members) {
      if (Math.abs(y - bottom) > tolerance) problems.push(`${name}: not on its line`);
    }
  }
  return {problems, boxes: boxes.length};
}"""


def in_place(page: Page) -> None:
    """Every box of the sheet forms in its column, and the page no wider than the phone."""
    settled(page)
    found = page.evaluate(MISPLACED, TOLERANCE)
    assert found["boxes"] > 0, "no box to type in"
    assert found["problems"] == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def ways_of_entering(page: Page):
    """The first choice of how the sheet is entered (the table's, else the first card's)."""
    return page.locator("form.sheet fieldset.switch").first.locator("label.chip")


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
@pytest.mark.parametrize("game", [game.key for game in games.all_games()])
def test_every_box_of_the_table_form_stands_in_its_column(game, language, phone, live_server):
    table = started_table(game, 1)
    page = phone()
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])
    page.goto(f"/t/{table.token}/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    in_place(page)
    choices = ways_of_entering(page)
    for index in range(choices.count()):
        choice = ways_of_entering(page).nth(index)
        if choice.locator("input").is_checked():
            continue
        choice.click()
        expect(ways_of_entering(page).nth(index).locator("input")).to_be_checked()
        in_place(page)
