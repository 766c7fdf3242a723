"""What the browser tests share: sheets to enter, the JSON API, ready-made tournaments, screenshots, HTMX waits."""

from __future__ import annotations

import datetime
import json
import re
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import APIRequestContext, Page, expect

from tests.club_night import CLUB_NIGHT, club_night
from tests.factories import enter, seat_by_hand
from tournaments.models import Event, Player, Round, Table
from tournaments.services.round_end import complete_round
from tournaments.services.rounds import start_round

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-output" / "screenshots"
TABLE_LINK = re.compile(r"/t/([A-Za-z0-9_-]+)/")

#: A VEGEtables manche as the paper sheet has it: pozzo, crosses (16 in all), families, penalties.
VEGETABLES_MANCHE = {
    "pozzo": [30, 0, 20, 10],
    "sequences": [6, 2, 5, 3],
    "family_bonuses": [1, 0, 0, 0],
    "penalties": [0, 1, 0, 0],
}
#: Cheese Rescue tallies of four players (points left, cheese cards left), each possible with six cheeses.
CHEESE_RESULTS = [(9, 5), (6, 3), (4, 2), (1, 1)]
#: Two players tied for second place: they share 2 + 1 tournament points, 1.5 each.
CHEESE_TIE = [(9, 5), (6, 3), (6, 3), (1, 1)]

PLAYER_NAMES = ["Alba Rossi", "Bruno Verdi", "Carla Bianchi", "Dario Neri"]
PLAYER_NAMES += ["Elena Gallo", "Fabio Conti", "Giulia Ferri", "Hugo Marin"]


def rotated(values: list, shift: int) -> list:
    shift %= len(values)
    return values[shift:] + values[:shift]


def vegetables_part(shift: int = 0) -> dict:
    """One manche's sheet part, its columns turned by ``shift`` seats so each manche has another winner."""
    return {"manches": [{key: rotated(values, shift) for key, values in VEGETABLES_MANCHE.items()}]}


def cheese_part(shift: int = 0, tallies: list[tuple[int, int]] = CHEESE_RESULTS) -> dict:
    return {"tallies": [{"cheese_points": p, "cheese_cards": c} for p, c in rotated(tallies, shift)]}


PARTS = {"vegetables": vegetables_part, "cheese-rescue": cheese_part}


def enter_remaining_sheets(request: APIRequestContext, token: str, shift: int = 0) -> int:
    """Every manche of the table without a sheet gets one through ``PUT /api/tables/<token>/sheet``."""
    url = f"/api/tables/{token}/sheet"
    sheet = request.get(url).json()
    entered = 0
    for manche in sheet["manches"]:
        if manche["result"] is not None:
            continue
        document = {"game": sheet["game"], "variant": sheet["variant"], "players": sheet["players"]}
        document.update(PARTS[sheet["game"]](shift + manche["number"]))
        body = {"manche": manche["number"], "version": manche["version"], "document": document}
        response = request.put(url, data=json.dumps(body), headers={"Content-Type": "application/json"})
        assert response.status == 200, response.text()
        entered += 1
    return entered


def table_tokens(pdf_text: str) -> list[str]:
    """The scorer links printed on a score sheet."""
    return TABLE_LINK.findall(pdf_text)


def settled(page: Page) -> None:
    """Wait until HTMX has finished a swap: content it just put in only listens for input once settled."""
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added")).to_have_count(0)


def screenshot(page: Page, name: str, *, full_page: bool = False) -> Path:
    """Save what the page shows as ``test-output/screenshots/<name>.png``."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page, animations="disabled", caret="hide")
    return path


# Ready-made tournaments, written straight to the database (the journey builds its own through the pages)


def club_event(game: str, *, name: str, organiser=None, **fields) -> Event:
    """A public event of eight named players from two clubs, on a fixed date with a fixed seating seed."""
    defaults = {
        "date": datetime.date(2026, 11, 21),
        "venue": "Circolo Scacchi e Carte",
        "table_size": 4,
        "manches_per_round": 4 if game == "vegetables" else 1,
        "rounds_planned": 3,
        "seed": 20261121,
    }
    event = Event.objects.create(name=name, game=game, **{**defaults, **fields})
    clubs = ["Mele Club", "Pere Club"]
    Player.objects.bulk_create(Player(event=event, name=n, club=clubs[i % 2]) for i, n in enumerate(PLAYER_NAMES))
    if organiser is not None:
        event.organisers.add(organiser)
    return event


def played_round(event: Event, number: int, tables: list[list[int]], parts: list[list[dict]]) -> Round:
    """A round seated by hand, published and in play; table i gets the sheets ``parts[i]``, one per manche."""
    round_ = seat_by_hand(event, number, tables)
    start_round(round_)
    for table, sheets in zip(round_.tables.order_by("number"), parts):
        for manche, part in enumerate(sheets, start=1):
            enter(table, part, manche_number=manche)
    return round_


@dataclass
class Day:
    """A tournament in the middle of round 2: round 1 complete, a table half entered, another still empty."""

    event: Event
    busy: Table
    empty: Table


def tournament_day(game: str, organiser=None, *, name: str = "", round_1: list[list[dict]] | None = None) -> Day:
    """Eight players, round 1 played and complete (its sheets ``round_1``, one list per table), round 2 in play."""
    event = club_event(game, name=name or f"Autumn {'VEGEtables' if game == 'vegetables' else 'Cheese'} Cup")
    if organiser is not None:
        event.organisers.add(organiser)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    manches = event.manches_per_round
    part = PARTS[game]
    if round_1 is None:
        round_1 = [[part(t + m) for m in range(manches)] for t in range(2)]
    complete_round(played_round(event, 1, [ids[:4], ids[4:]], round_1))
    second = played_round(event, 2, [ids[::2], ids[1::2]], [[part(m + 1) for m in range(max(1, manches // 2))]])
    busy, empty = second.tables.order_by("number")
    return Day(event, busy, empty)


# A club night with the realistic list: long accented names and clubs, every game


@dataclass
class Night:
    """A realistic club night in round 2: round 1 complete, some round 2 tables entered, one player dropped."""

    event: Event
    entered: Table
    empty: Table
    player: Player


def realistic_night(game: str, organiser=None) -> Night:
    """48 players from the realistic list; round 1 played by every table; round 2 half entered; one drop."""
    dropped = CLUB_NIGHT.read_text(encoding="utf-8").splitlines()[6].split(",")[0]
    event = club_night(game=game, complete=1, live_tables=6, drop=dropped)
    if organiser is not None:
        event.organisers.add(organiser)
    tables = list(event.rounds.get(number=2).tables.order_by("number"))
    player = tables[-1].seats.order_by("position").first().player
    return Night(event, tables[0], tables[-1], player)


#: What the browser finds wider than the screen, or cut: a control or a heading clipping its text, a select or field
#: too narrow for what it shows, a word broken across two lines ("Asoc/iación"; links may break anywhere). Boxes
#: meant to scroll sideways (overflow auto or scroll) may be wider inside; a secondary cell may end in an ellipsis.
LAYOUT_PROBLEMS = r"""() => {
  const problems = [];
  const root = document.documentElement;
  const width = root.clientWidth;
  if (root.scrollWidth > width) problems.push(`the page is ${root.scrollWidth} px wide in ${width} px`);
  if (document.body.scrollWidth > width) problems.push(`the body is ${document.body.scrollWidth} px wide`);
  const context = document.createElement("canvas").getContext("2d");
  const textWidth = (element, text) => {
    const style = getComputedStyle(element);
    context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    return context.measureText(text).width;
  };
  const visible = (element) => element.getClientRects().length > 0 && getComputedStyle(element).visibility !== "hidden";
  const room = (element, arrow) => {
    const style = getComputedStyle(element);
    return element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - arrow;
  };
  const describe = (element) => {
    const text = (element.innerText || element.value || element.getAttribute("aria-label") || "").trim();
    return `${element.tagName.toLowerCase()}${element.id ? "#" + element.id : ""} "${text.slice(0, 40)}"`;
  };
  for (const select of document.querySelectorAll("select")) {
    if (!visible(select) || select.multiple || select.size > 1) continue;
    const arrow = getComputedStyle(select).appearance === "none" ? 0 : 20;
    const option = select.options[select.selectedIndex];
    if (option && textWidth(select, option.text) > room(select, arrow) + 1) {
      problems.push(`select "${option.text}" is cut (${Math.round(room(select, arrow))} px for it)`);
    }
  }
  for (const input of document.querySelectorAll("input:not([type=hidden]):not([type=checkbox]):not([type=radio])")) {
    if (!visible(input) || !input.value) continue;
    if (textWidth(input, input.value) > room(input, input.type === "number" ? 0 : 0) + 1) {
      problems.push(`field ${describe(input)} is too narrow for "${input.value}"`);
    }
  }
  const controls = "button, a, label, summary, th, legend, option, [role=button], [role=tab]";
  for (const element of document.body.querySelectorAll("*")) {
    if (!visible(element) || element.closest("svg")) continue;
    const style = getComputedStyle(element);
    const clips = ["hidden", "clip"].includes(style.overflowX) || style.textOverflow === "ellipsis";
    const tiny = element.clientWidth <= 1 && element.clientHeight <= 1;
    const screenReaderOnly = style.clip === "rect(0px, 0px, 0px, 0px)" || tiny;
    const cutText = clips && element.scrollWidth > element.clientWidth + 1 && element.innerText.trim();
    if (cutText && !screenReaderOnly && element.matches(controls)) {
      problems.push(`${describe(element)} is cut: ${element.scrollWidth} px of text in ${element.clientWidth} px`);
    }
    if (["BUTTON", "A", "LABEL", "SUMMARY"].includes(element.tagName)) {
      const box = element.getBoundingClientRect();
      const scroller = element.closest(".sheet-scroll, [data-scrolls]");
      if (!scroller && box.right > width + 1) problems.push(`${describe(element)} reaches ${Math.round(box.right)} px`);
    }
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const broken = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !visible(parent) || parent.closest("pre, code, script, style, .visually-hidden")) continue;
    if (node.data.includes("://")) continue;
    for (const match of node.data.matchAll(/[^\s\-\u2010/]{2,}/gu)) {
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
      const where = parent.tagName.toLowerCase() + (parent.className ? "." + parent.className.split(" ")[0] : "");
      if (lines.size > 1) broken.add(`${match[0]}" in ${where}`);
    }
  }
  for (const word of broken) problems.push(`"${word} is broken across lines`);
  return problems;
}"""


def layout_problems(page: Page) -> list[str]:
    """Whatever the page shows wider than the screen or cut, one line each (empty when the layout holds)."""
    return page.evaluate(LAYOUT_PROBLEMS)
