"""Bad input from anywhere: generated documents and bytes to the JSON API, generated posts to a table's sheet form
and generated player lists to the import. Never a 500; always an answer with an error the user can act on.

Every game's own sheet form and its documents are fuzzed by the contract suite (``tests/contract/``); here a table
of the first game of the registry takes the input that fits no game.
"""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from hypothesis import event, given, settings
from hypothesis import strategies as st

from tests.contract.fuzzing import FUZZ, assert_api_answer, assert_form_answer, field_texts, json_values, put
from tests.factories import seat_by_hand
from tournaments.games import default_game
from tournaments.models import Table
from tournaments.models.rounds import RoundStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


@pytest.fixture
def table(make_event) -> Table:
    """A table of the first game of the registry, at its default size, in play."""
    game = default_game()
    size = game.defaults.table_size
    event = make_event(game.key, players=size, table_size=size)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    return seat_by_hand(event, 1, [ids], status=RoundStatus.IN_PLAY).tables.get()


# The JSON API --------------------------------------------------------------------------------------------------


@FUZZ
@given(body=json_values)
def test_any_json_put_to_the_api_gets_a_json_answer(client, table, body):
    assert_api_answer(put(client, table, json.dumps(body)))


@FUZZ
@given(
    body=st.binary(max_size=3000) | st.text(max_size=500).map(lambda t: t.encode("utf-8", "surrogatepass")),
    content_type=st.sampled_from(["application/json", "text/plain", "application/octet-stream", "multipart/form-data"]),
)
def test_any_bytes_put_to_the_api_get_a_json_answer(client, table, body, content_type):
    assert_api_answer(put(client, table, body, content_type))


# The table's sheet form ----------------------------------------------------------------------------------------


field_names = st.one_of(
    st.sampled_from(["seat", "version", "entry_mode", "manches", "board", "tallies", "stands", "players"]),
    st.builds(
        "{}[{}].{}[{}]".format,
        st.sampled_from(["manches", "tallies", "board", "stands", "zones"]),
        st.integers(-2, 100),
        st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12),
        st.integers(-2, 100),
    ),
    st.text(max_size=40),
)


@settings(FUZZ, max_examples=200)
@given(
    fields=st.dictionaries(field_names, st.lists(field_texts, min_size=1, max_size=3), max_size=25),
    seat=st.sampled_from(["1", "2", "5", "", "x", "-1", "99999999999999999999"]),
    endpoint=st.sampled_from(["table_save", "table_check", "table_confirm", "table_dispute"]),
    htmx=st.booleans(),
)
def test_forged_field_names_posted_to_the_table_are_answered(client, table, fields, seat, endpoint, htmx):
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(reverse(f"tournaments:{endpoint}", args=[table.token, 1]), {**fields, "seat": seat}, **extra)
    if endpoint == "table_check":
        assert response.status_code == 200 and 'class="checks"' in response.content.decode()
    else:
        assert_form_answer(response, table)


# The player list import ----------------------------------------------------------------------------------------

csv_cells = st.text(alphabet=st.characters(codec="utf-8"), max_size=30) | st.sampled_from(
    ["Name", "Nombre", "Club", "Squadra", '"a;b"', '"unclosed', "\ufeffName", "x" * 120]
)
csv_texts = st.lists(
    st.lists(csv_cells, max_size=5).flatmap(lambda row: st.sampled_from([";", ",", "\t"]).map(lambda s: s.join(row))),
    max_size=12,
).flatmap(lambda lines: st.sampled_from(["\n", "\r\n", "\r"]).map(lambda end: end.join(lines)))


@pytest.fixture
def organiser_client(organiser):
    client = Client(raise_request_exception=False)
    client.force_login(organiser)
    return client


@FUZZ
@given(
    text=csv_texts | st.text(max_size=300),
    raw=st.none() | st.binary(max_size=600) | csv_texts.map(str.encode),
    action=st.sampled_from(["preview", "confirm", "", "other"]),
)
def test_generated_player_lists_are_previewed_or_refused_with_errors(organiser_client, make_event, text, raw, action):
    url = reverse("tournaments:players_import", args=[make_event(default_game().key, players=0).slug])
    data = {"text": text, "action": action}
    if raw is not None:
        data["file"] = SimpleUploadedFile("players.csv", raw, "text/csv")
    response = organiser_client.post(url, data)
    event(f"import {response.status_code}")
    assert response.status_code in (200, 302, 400), (response.status_code, response.content[:500])
    if response.status_code == 400:
        assert 'class="errorlist' in response.content.decode()
