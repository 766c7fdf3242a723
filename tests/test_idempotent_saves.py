"""A save sent again whose key is stored already, at the version its first sending made: a replay, answered as that
save was (saved, at the version it stored), never stored twice and never a 500, by every door and beside the API."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from tests import test_table_entry
from tests.test_offline_saves import FIRST, SAVED, SECOND, history, manche, penalties, send, table_url

pytestmark = pytest.mark.django_db

event, tables = test_table_entry.event, test_table_entry.tables


def phone() -> Client:
    return Client(raise_request_exception=False)


def player_url(table) -> str:
    me = table.seats.get(position=1).player
    return reverse("tournaments:player_table_save", args=[me.token, table.pk, 1])


def desk_url(table) -> str:
    return reverse("tournaments:desk_table_save", args=[table.round.event.slug, table.pk, 1])


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain-form"])
def test_a_save_sent_again_at_the_version_it_made_is_answered_as_saved_and_stored_once(tables, htmx):
    url = table_url(tables[0])
    assert send(phone(), url, key=FIRST).status_code == 200
    data = {"seat": "1", "version": "1", "key": FIRST, **test_table_entry.fields(penalties=[0, 0, 0, 0])}
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    again = phone().post(url, data, **extra)
    assert again.status_code == (200 if htmx else 302)
    if htmx:
        assert SAVED in again.content.decode()
    assert manche(tables[0]).version == 1 and history(tables[0]) == [(1, FIRST)]
    assert penalties(tables[0]) == [0, 1, 0, 0], "the replay stores nothing of its own"


def test_the_replay_answers_with_the_version_the_first_sending_stored(tables):
    url = table_url(tables[0])
    send(phone(), url, key=FIRST)
    again = send(phone(), url, version=1, key=FIRST).content.decode()
    assert 'name="version" value="1"' in again


@pytest.mark.parametrize("door", [player_url, desk_url], ids=["player-link", "desk"])
def test_every_door_answers_a_replay_at_the_current_version_as_saved(organiser_client, tables, door):
    url = door(tables[0])
    client = organiser_client if door is desk_url else phone()
    assert send(client, url, key=FIRST).status_code == 200
    again = send(client, url, version=1, key=FIRST, penalties=[0, 0, 0, 0])
    assert again.status_code == 200 and SAVED in again.content.decode()
    assert history(tables[0]) == [(1, FIRST)]


def test_a_replay_after_a_later_change_through_the_api_stores_nothing_over_it(tables):
    url, table = table_url(tables[0]), tables[0]
    send(phone(), url, key=FIRST)
    names = [seat.player.name for seat in table.seats.order_by("position")]
    manche_ = {**test_table_entry.MANCHE, "penalties": [0, 0, 1, 0]}
    sheet = {"game": "vegetables", "players": names, "manches": [manche_]}
    api = reverse("tournaments:api_table_sheet", args=[table.token])
    put = phone().put(api, json.dumps({"version": 1, "manche": 1, "document": sheet}), content_type="application/json")
    assert put.status_code == 200 and put.json()["version"] == 2
    again = send(phone(), url, version=2, key=FIRST, penalties=[0, 0, 0, 0])
    assert again.status_code == 200 and SAVED in again.content.decode()
    assert history(table) == [(1, FIRST), (2, "")]
    assert penalties(table) == [0, 0, 1, 0], "the API's change is kept"
    assert phone().get(api).json()["manches"][0]["version"] == 2


def test_a_new_key_at_the_current_version_is_still_stored(tables):
    url = table_url(tables[0])
    send(phone(), url, key=FIRST)
    newer = send(phone(), url, version=1, key=SECOND, penalties=[0, 0, 0, 0])
    assert newer.status_code == 200
    assert history(tables[0]) == [(1, FIRST), (2, SECOND)]
