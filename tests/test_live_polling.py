"""Every live part of a page polls one way (``tournaments.live_polls``): it asks with the version it shows, hears 204
while nothing changed, and gets itself drawn again, with a new version, once something it shows did."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments.models import Round
from tournaments.models.rounds import RoundStatus
from tournaments.services.audit import Author
from tournaments.services.sheets import dispute_sheet
from tournaments.standings.refresh import STANDINGS_PENDING, rebuild_now

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
#: A live part as a page carries it: its element's id (when it has one) and the address it polls.
PART = re.compile(
    r'<(?:div|section)\b(?=[^>]*hx-trigger="every )(?:[^>]*?id="(?P<id>[^"]+)")?[^>]*?hx-get="(?P<url>[^"]+)"'
)


def live_parts(page: str) -> dict[str, str]:
    """The page's live parts, by id (or by address), each with the address it polls."""
    found = {}
    for match in PART.finditer(page):
        url = unescape(match["url"])
        found[match["id"] or url.split("?")[0]] = url
    return found


def included(page: str) -> str:
    """The hidden fields a projector's parts send with each poll (``hx-include``), as query parameters."""
    fields = re.findall(r'<input type="hidden" id="projector-[a-z]+" name="([a-z]+)" value="([^"]*)"', page)
    return "".join(f"&{name}={value}" for name, value in fields)


def ask(client: Client, part: str, url: str):
    """A part's poll, as HTMX sends it: the part's id as its target."""
    return client.get(url, HTTP_HX_REQUEST="true", HTTP_HX_TARGET=part)


def versions(parts: dict[str, str]) -> dict[str, str]:
    return {part: re.search(r"[?&]v=([^&]*)", url)[1] for part, url in parts.items()}


@pytest.fixture
def playing(make_event):
    """Round 1 of a Cheese Rescue evening seated, published and in play, no clock set."""
    event = make_event("cheese-rescue", players=8)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    return event, seat_by_hand(event, 1, [ids[:4], ids[4:]], status=RoundStatus.IN_PLAY)


def something_happens(round_: Round) -> None:
    """A sheet comes in, another table disputes its sheet, and the desk starts a 50-minute clock."""
    first, second = round_.tables.order_by("number")
    enter(first, cheese_tallies([9, 5, 3, 1]))
    enter(second, cheese_tallies([2, 4, 6, 8]))
    seat = second.seats.select_related("player").get(position=2)
    dispute_sheet(second.manches.get(number=1), Author(via="player", player=seat.player, seat=2), reason="Wrong total")
    started = timezone.now() - timedelta(minutes=1)
    Round.objects.filter(pk=round_.pk).update(clock_seconds=3000, clock_started_at=started)
    rebuild_now(round_.event_id)


def test_no_template_polls_but_through_the_live_poll_tag():
    by_hand = [path.name for path in TEMPLATES.rglob("*.html") if 'hx-trigger="every' in path.read_text("utf-8")]
    assert by_hand == []
    using = [path for path in TEMPLATES.rglob("*.html") if "{% live_poll" in path.read_text("utf-8")]
    assert len(using) >= 6
    assert all(re.search(r"{% load [^%]*\blive\b", path.read_text("utf-8")) for path in using)


def test_every_part_of_the_desk_answers_204_until_what_it_shows_changes(organiser_client, playing):
    event, round_ = playing
    page = organiser_client.get(reverse("tournaments:event_manage", args=[event.slug])).content.decode()
    parts = live_parts(page)
    assert {"desk-alerts", "desk-board", "desk-rounds"} <= set(parts)
    assert any("/clock/" in url for url in parts.values())
    for part, url in parts.items():
        assert ask(organiser_client, part, url).status_code == 204, part

    something_happens(round_)

    for part, url in parts.items():
        answer = ask(organiser_client, part, url)
        assert answer.status_code == 200, part
        again = live_parts(answer.content.decode())
        assert again and versions(again)[part] != versions(parts)[part], part
        assert ask(organiser_client, part, again[part]).status_code == 204, part


@pytest.mark.parametrize("page", ["standings", "projector", "table", "player"])
def test_every_public_live_part_answers_204_until_what_it_shows_changes(page, playing):
    event, round_ = playing
    table = round_.tables.get(number=1)
    player = table.seats.select_related("player").get(position=1).player
    address = {
        "standings": reverse("tournaments:standings", args=[event.slug]),
        "projector": reverse("tournaments:projector", args=[event.slug]),
        "table": reverse("tournaments:table", args=[table.token]),
        "player": reverse("tournaments:player_link", args=[player.token]),
    }[page]
    client = Client()
    shown = client.get(address).content.decode()
    parts = {part: url + included(shown) for part, url in live_parts(shown).items()}
    assert parts, page
    for part, url in parts.items():
        assert ask(client, part, url).status_code == 204, part

    something_happens(round_)

    changed = {}
    for part, url in parts.items():
        answer = ask(client, part, url)
        if answer.status_code == 204 and answer.get("HX-Trigger") == STANDINGS_PENDING:
            answer = ask(client, part, url)  # the shared drawing was on its way: the part asks again
        changed[part] = answer
    assert any(answer.status_code == 200 for answer in changed.values()), page
    for part, answer in changed.items():
        if answer.status_code == 200:
            again = live_parts(answer.content.decode())
            assert versions(again)[part] != versions(parts)[part], part
