"""What the browser tests share: sheets to enter, entering them through the JSON API, ready-made events."""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path

from playwright.sync_api import APIRequestContext, Page

from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments.models import Event, Player
from tournaments.models.rounds import RoundStatus
from tournaments.services.rounds import complete_round, publish_round, start_round

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

PLAYER_NAMES = ["Alba", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Giulia", "Hugo"]


def rotated(values: list, shift: int) -> list:
    shift %= len(values)
    return values[shift:] + values[:shift]


def vegetables_part(shift: int = 0) -> dict:
    """One manche's sheet part, its columns turned by ``shift`` seats so each manche has another winner."""
    return {"manches": [{key: rotated(values, shift) for key, values in VEGETABLES_MANCHE.items()}]}


def cheese_part(shift: int = 0) -> dict:
    tallies = rotated(CHEESE_RESULTS, shift)
    return {"tallies": [{"cheese_points": p, "cheese_cards": c} for p, c in tallies]}


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
    """The scorer links printed on the sheets, in page order."""
    return TABLE_LINK.findall(pdf_text)


def screenshot(page: Page, name: str, *, full_page: bool = False) -> Path:
    """Save what the page shows as ``test-output/screenshots/<name>.png``."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page, animations="disabled", caret="hide")
    return path


def club_event(game: str = "cheese-rescue", *, name: str = "Club Night Cup", organiser=None, **fields) -> Event:
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
    Player.objects.bulk_create(
        Player(event=event, name=name, club="Mele Club" if i % 2 else "Pere Club") for i, name in enumerate(PLAYER_NAMES)
    )
    if organiser is not None:
        event.organisers.add(organiser)
    return event


def played_round(event: Event, number: int, tables: list[list[int]], parts: list[dict] | None = None):
    """A round seated by hand, published and in play, its tables' sheets entered (one part per table)."""
    round_ = seat_by_hand(event, number, tables, status=RoundStatus.SEATED)
    round_.published = False
    round_.save(update_fields=["published"])
    publish_round(round_)
    start_round(round_)
    for table, part in zip(round_.tables.order_by("number"), parts or []):
        for manche in range(1, event.manches_per_round + 1):
            enter(table, part, manche_number=manche)
    return round_


def finished_round(event: Event, number: int, tables: list[list[int]], parts: list[dict]):
    round_ = played_round(event, number, tables, parts)
    complete_round(round_)
    return round_


def player_ids(event: Event) -> list[int]:
    return list(event.players.order_by("pk").values_list("pk", flat=True))


__all__ = ["cheese_tallies"]
