"""What the browser tests share: sheets to enter, the JSON API, ready-made tournaments, screenshots, HTMX waits."""

from __future__ import annotations

import datetime
import json
import re
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import APIRequestContext, Page, expect

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
