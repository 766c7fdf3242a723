"""The players' sheets wait for the start: a published round shows the tables, but its links, the players' own links
and the API take sheets only once the organiser starts it. The organiser's desk is not bound by this."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments.models import Manche
from tournaments.services.round_end import complete_round, reopen_round
from tournaments.services.rounds import start_round

pytestmark = pytest.mark.django_db

NOT_STARTED = "The round has not started yet: wait for the organiser."
TALLIES = [(9, 5), (6, 3), (4, 2), (1, 1)]


@pytest.fixture
def event(make_event, organiser):
    event = make_event("cheese-rescue", players=4, confirmation_required=True)
    event.organisers.add(organiser)
    return event


@pytest.fixture
def table(event):
    """The only table of round 1, published and not started yet."""
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    return seat_by_hand(event, 1, [ids]).tables.get()


def names(table) -> list[str]:
    return [seat.player.name for seat in table.seats.select_related("player").order_by("position")]


def form(seat: int = 1, version: int = 0) -> dict:
    post = {"seat": str(seat), "version": str(version)}
    for i, (points, cards) in enumerate(TALLIES):
        post[f"tallies[{i}].cheese_points"] = str(points)
        post[f"tallies[{i}].cheese_cards"] = str(cards)
    return post


def put(client, table, version: int = 0):
    document = {"game": "cheese-rescue", "players": names(table), **cheese_tallies([9, 6, 4, 1])}
    body = json.dumps({"manche": 1, "version": version, "document": document})
    return client.put(reverse("tournaments:api_table_sheet", args=[table.token]), body, content_type="application/json")


def sheet(table) -> Manche:
    return Manche.objects.get(table=table, number=1)


def test_the_table_link_shows_the_players_and_says_to_wait_before_the_start(client, table):
    page = client.get(reverse("tournaments:table", args=[table.token])).content.decode()
    assert all(name in page for name in names(table))
    assert NOT_STARTED in page
    assert 'name="tallies[0].cheese_points"' not in page
    assert "This table is closed for changes." not in page


def test_a_sheet_through_the_table_link_is_refused_before_the_start_and_taken_after(client, table):
    url = reverse("tournaments:table_save", args=[table.token, 1])
    refused = client.post(url, form())
    assert refused.status_code == 403
    assert NOT_STARTED in refused.content.decode()
    assert sheet(table).document is None
    start_round(table.round)
    page = client.get(reverse("tournaments:table", args=[table.token])).content.decode()
    assert NOT_STARTED not in page and 'name="tallies[0].cheese_points"' in page
    assert client.post(url, form()).status_code == 302
    assert sheet(table).version == 1


def test_the_api_answers_403_with_the_error_document_before_the_start_and_200_after(client, table):
    assert client.get(reverse("tournaments:api_table_sheet", args=[table.token])).status_code == 200
    refused = put(client, table)
    assert refused.status_code == 403
    assert refused.json() == {"errors": [{"path": "", "message": NOT_STARTED}]}
    assert sheet(table).document is None
    start_round(table.round)
    response = put(client, table)
    assert response.status_code == 200, response.content
    assert response.json()["version"] == 1


def test_a_players_own_link_is_refused_before_the_start(client, table):
    player = table.seats.get(position=2).player
    url = reverse("tournaments:player_table_save", args=[player.token, table.pk, 1])
    refused = client.post(url, form(seat=2))
    assert refused.status_code == 403
    assert NOT_STARTED in refused.content.decode()
    start_round(table.round)
    assert client.post(url, form(seat=2)).status_code == 302


def test_the_organisers_desk_enters_a_sheet_before_the_start_and_players_confirm_after(organiser_client, table):
    url = reverse("tournaments:desk_table_save", args=[table.round.event.slug, table.pk, 1])
    assert organiser_client.post(url, form()).status_code == 302
    assert sheet(table).version == 1
    player = table.seats.get(position=2).player
    confirm = reverse("tournaments:player_table_confirm", args=[player.token, table.pk, 1])
    early = Client().post(confirm, {"version": "1"}, HTTP_HX_REQUEST="true")
    assert early.status_code == 403 and NOT_STARTED in early.content.decode()
    assert sheet(table).confirmed_at is None
    start_round(table.round)
    Client().post(confirm, {"version": "1"}, HTTP_HX_REQUEST="true")
    assert sheet(table).confirmed_at is not None


def test_a_complete_round_is_closed_and_takes_corrections_again_once_reopened(client, table):
    start_round(table.round)
    enter(table, cheese_tallies([9, 6, 4, 1]))
    complete_round(table.round)
    refused = put(client, table, version=1)
    assert refused.status_code == 403
    assert refused.json() == {"errors": [{"path": "", "message": "This table is closed for changes."}]}
    reopen_round(table.round)
    assert put(client, table, version=1).status_code == 200
    assert sheet(table).version == 2
