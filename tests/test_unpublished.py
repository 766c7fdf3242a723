"""Nothing of a round whose seating is not published shows on any public surface, one test per surface."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments.models import Player, Round, Standing

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(make_event):
    """Round 1 published with a sheet; round 2 seated but not published, a sheet entered at the desk."""
    event = make_event("cheese-rescue", players=8, manches_per_round=1)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    first = seat_by_hand(event, 1, [ids[:4], ids[4:]])
    enter(first.tables.get(number=1), cheese_tallies([6, 4, 2, 1]))
    hidden = seat_by_hand(event, 2, [[ids[0], ids[4], ids[5], ids[6]], [ids[1], ids[2], ids[3], ids[7]]])
    hidden.published = False
    hidden.save()
    enter(hidden.tables.get(number=1), cheese_tallies([9, 5, 3, 1]))
    return event, hidden


def only_in_round_2(event) -> Player:
    """Player 04 sits with Player 00 in round 2 only."""
    return event.players.get(name="Player 04")


def page(url: str) -> str:
    response = Client().get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_the_event_page_shows_no_unpublished_table(evening):
    event, hidden = evening
    text = page(reverse("tournaments:event", args=[event.slug]))
    assert "Round 1" in text and "Round 2" not in text


def test_the_public_player_page_shows_no_unpublished_table(evening):
    event, _hidden = evening
    me = event.players.get(name="Player 00")
    assert only_in_round_2(event).name not in page(reverse("tournaments:player", args=[event.slug, me.pk]))


def test_a_player_link_shows_no_unpublished_table(evening):
    event, hidden = evening
    me = event.players.get(name="Player 00")
    text = page(reverse("tournaments:player_link", args=[me.token]))
    assert only_in_round_2(event).name not in text and "Round 2" not in text
    table = hidden.tables.get(number=1)
    assert Client().get(reverse("tournaments:player_table", args=[me.token, table.pk])).status_code == 404


def test_standings_count_no_unpublished_sheet(evening):
    event, _hidden = evening
    played = dict(Standing.objects.filter(event=event).values_list("player__name", "rounds_played"))
    assert played["Player 00"] == 1 and played["Player 04"] == 0
    text = page(reverse("tournaments:standings", args=[event.slug]))
    assert "Player 04" in text


def test_the_standings_csv_counts_no_unpublished_sheet(evening):
    event, _hidden = evening
    rows = page(reverse("tournaments:standings_csv", args=[event.slug])).lstrip("\ufeff").splitlines()
    assert any("Player 00" in row for row in rows)
    assert not any("Player 04" in row for row in rows), "without a published result, not in the standings"


def test_the_projector_counts_no_unpublished_sheet(evening):
    event, _hidden = evening
    leader = Standing.objects.filter(event=event).order_by("rank").first().player.name
    assert leader == "Player 00"
    text = page(reverse("tournaments:projector", args=[event.slug]))
    assert "Player 00" in text and "Player 04" not in text


def test_the_table_link_and_the_api_of_an_unpublished_table_find_nothing(evening):
    _event, hidden = evening
    table = hidden.tables.get(number=1)
    assert Client().get(reverse("tournaments:table", args=[table.token])).status_code == 404
    response = Client().get(reverse("tournaments:api_table_sheet", args=[table.token]))
    assert response.status_code == 404 and response["Content-Type"] == "application/json"


def clock_started(round_: Round, minutes: int) -> None:
    Round.objects.filter(pk=round_.pk).update(clock_seconds=minutes * 60, clock_started_at=timezone.now())


def clock_of(html: str) -> str:
    """The round and time a clock fragment shows, e.g. "Round 2 50:00"; "" when it shows none."""
    found = re.search(r'class="clock-round">([^<]*)</span>\s*<strong[^>]*>([^<]*)<', html)
    return f"{found[1]} {found[2]}" if found else ""


def polled_from(client: Client, event, page: str) -> str:
    """The event's clock as a page at ``page`` asks for it every few seconds."""
    headers = {"HX-Request": "true", "HX-Current-URL": f"http://testserver{page}"}
    return client.get(reverse("tournaments:event_clock", args=[event.slug]), headers=headers).content.decode()


def test_the_public_clock_shows_the_latest_published_rounds_clock_only(evening):
    event, hidden = evening
    clock_started(hidden, 50)
    assert clock_of(page(reverse("tournaments:event_clock", args=[event.slug]))) == ""
    clock_started(event.rounds.get(number=1), 30)
    assert clock_of(page(reverse("tournaments:event_clock", args=[event.slug]))) in ("Round 1 30:00", "Round 1 29:59")


def test_the_desk_shows_the_unpublished_rounds_clock_and_its_projector_does_not(evening, organiser_client):
    event, hidden = evening
    clock_started(hidden, 50)
    desk = reverse("tournaments:event_manage", args=[event.slug])
    projector = reverse("tournaments:projector", args=[event.slug])
    assert clock_of(organiser_client.get(desk).content.decode()) in ("Round 2 50:00", "Round 2 49:59")
    assert clock_of(polled_from(organiser_client, event, desk)) in ("Round 2 50:00", "Round 2 49:59")
    assert clock_of(polled_from(organiser_client, event, projector)) == ""
    assert clock_of(polled_from(Client(), event, desk)) == ""
    assert clock_of(page(projector)) == "", "the projector's first drawing, before its first poll"
