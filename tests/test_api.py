"""The JSON API of a table's sheet: only what the rules read is stored, every bad request gets a 400 error
document (never a 500), and the API is described by an OpenAPI 3.1 document that its answers conform to."""

from __future__ import annotations

import json

import jsonschema_rs
import pytest
import schemathesis
from django.test import Client
from django.urls import reverse

from tests.factories import seat_by_hand
from tournaments import games
from tournaments.models import Manche, SheetRevision
from tournaments.models.rounds import RoundStatus
from tournaments.services.sheets import MAX_DOCUMENT_BYTES

pytestmark = pytest.mark.django_db

MANCHE = {
    "pozzo": [30, 0, 20, 10],
    "sequences": [6, 2, 5, 3],
    "family_bonuses": [1, 0, 0, 0],
    "penalties": [0, 1, 0, 0],
}
SHEET_PATH = "/api/tables/{token}/sheet"


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


@pytest.fixture
def table(make_event):
    event = make_event("vegetables", players=4, manches_per_round=2)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    return seat_by_hand(event, 1, [ids], status=RoundStatus.IN_PLAY).tables.get()


@pytest.fixture
def sheet(table) -> dict:
    names = [seat.player.name for seat in table.seats.order_by("position")]
    return {"game": "vegetables", "players": names, "manches": [MANCHE]}


def url(table) -> str:
    return reverse("tournaments:api_table_sheet", args=[table.token])


def put(client, table, body, content_type="application/json"):
    data = body if isinstance(body, bytes | str) else json.dumps(body)
    return client.put(url(table), data, content_type=content_type)


def assert_error(response, status: int = 400, path: str | None = None) -> list[dict]:
    assert response.status_code == status, (response.status_code, response.content[:500])
    assert response["Content-Type"] == "application/json"
    errors = response.json()["errors"]
    assert errors and all(isinstance(e["path"], str) and e["message"].strip() for e in errors)
    if path is not None:
        assert path in [e["path"] for e in errors], errors
    return errors


# Only what the rules read is stored ------------------------------------------------------------------------------


def test_twenty_puts_with_a_large_note_store_nothing_of_it(client, table, sheet):
    note = "n" * 12_000
    for version in range(20):
        body = {"version": version, "manche": 1, "document": {**sheet, "note": note}}
        assert put(client, table, body).status_code == 200
    manche = table.manches.get(number=1)
    assert manche.document == sheet and manche.version == 20
    stored = [manche.document, *SheetRevision.objects.filter(manche=manche).values_list("after", flat=True)]
    assert all(document == sheet for document in stored)
    assert sum(len(json.dumps(document)) for document in stored) < 21 * len(json.dumps(sheet)) + 1


def test_unknown_keys_inside_the_sheet_are_dropped_too(client, table, sheet):
    nested = {**sheet, "manches": [{**MANCHE, "comment": "close game", "pozzo_order": ["Ada"]}], "x": {"y": 1}}
    saved = put(client, table, {"version": 0, "manche": 1, **nested})
    assert saved.status_code == 200
    assert Manche.objects.get(table=table, number=1).document == sheet
    got = client.get(url(table)).json()
    assert got["manches"][0]["document"] == sheet


# Sizes ---------------------------------------------------------------------------------------------------------


def test_a_document_over_16_kb_is_refused_naming_the_document(client, table, sheet):
    filler = "x" * (MAX_DOCUMENT_BYTES + 1 - len(json.dumps({**sheet, "note": ""}, separators=(",", ":"))))
    response = put(client, table, {"version": 0, "manche": 1, "document": {**sheet, "note": filler}})
    assert_error(response, 400, "document")
    assert table.manches.get(number=1).version == 0
    flat = put(client, table, {"version": 0, "manche": 1, **sheet, "note": filler + "x"})
    assert_error(flat, 400, "document")
    accepted = put(client, table, {"version": 0, "manche": 1, "document": {**sheet, "note": filler[1:]}})
    assert accepted.status_code == 200


# Bad bodies: a 400 error document, never a 500 ----------------------------------------------------------------------


@pytest.mark.parametrize("document", [None, [], ["game"], "sheet", 3, 2.5, True])
def test_a_document_that_is_not_an_object_is_refused(client, table, document):
    assert_error(put(client, table, {"version": 0, "manche": 1, "document": document}), 400, "document")


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
@pytest.mark.parametrize(
    "template",
    [
        '{{"version": 0, "manche": 1, "document": {{"game": "vegetables", "note": {c}}}}}',
        '{{"version": 0, "manche": 1, "document": {{"game": "vegetables", "manches": [{{"pozzo": [{c}]}}]}}}}',
        '{{"version": {c}, "manche": 1, "document": {{}}}}',
        '{{"version": 0, "manche": {c}, "document": {{}}}}',
        '{{"version": 0, "manche": 1, "game": "vegetables", "extra": [{c}]}}',
        "{c}",
    ],
)
def test_nan_and_infinity_anywhere_are_refused(client, table, constant, template):
    errors = assert_error(put(client, table, template.format(c=constant)), 400, "")
    assert "NaN" in errors[0]["message"]
    assert table.manches.get(number=1).version == 0


@pytest.mark.parametrize("version", [True, False, 1.0, 0.0, "0", None, -1, 2**31, 10**40, -(10**40), [0], {"v": 0}])
def test_a_version_that_is_not_a_small_whole_number_is_refused(client, table, sheet, version):
    assert_error(put(client, table, {"version": version, "manche": 1, "document": sheet}), 400, "version")


@pytest.mark.parametrize("manche", [True, 1.0, "1", None, 0, -1, 2**31, 10**40, [1]])
def test_a_manche_that_is_not_a_small_whole_number_is_refused(client, table, sheet, manche):
    assert_error(put(client, table, {"version": 0, "manche": manche, "document": sheet}), 400, "manche")


@pytest.mark.parametrize("manche", [3, 32767, 32768, 2**31 - 1])
def test_a_manche_the_table_does_not_have_is_404(client, table, sheet, manche):
    assert_error(put(client, table, {"version": 0, "manche": manche, "document": sheet}), 404, "manche")


def test_a_version_ahead_of_the_sheet_is_a_conflict(client, table, sheet):
    response = put(client, table, {"version": 2**31 - 1, "manche": 1, "document": sheet})
    assert response.status_code == 409 and response.json()["current"]["version"] == 0


@pytest.mark.parametrize(
    "body",
    [b"", b" ", b"null", b"[]", b"[1]", b'"text"', b"3", b"true", b"{", b'{"version": 0,}', b"\xff\xfe{}", b"\x00"],
    ids=repr,
)
def test_a_body_that_is_not_a_json_object_is_refused(client, table, body):
    assert_error(put(client, table, body), 400, "")


def test_a_body_in_another_encoding_is_refused(client, table, sheet):
    body = json.dumps({"version": 0, "document": {**sheet, "players": ["Zoë"] * 4}}, ensure_ascii=False)
    assert_error(put(client, table, body.encode("latin-1")), 400, "")


@pytest.mark.parametrize("depth", [100, 900, 5000, 100_000])
def test_deeply_nested_bodies_are_refused(client, table, sheet, depth):
    document = {**sheet, "manches": "[" * depth + "]" * depth}
    raw = json.dumps({"version": 0, "manche": 1, "document": document}).replace(
        json.dumps(document["manches"]), document["manches"]
    )
    response = put(client, table, raw)
    assert response.status_code == 400, response.content[:300]
    assert table.manches.get(number=1).version == 0


@pytest.mark.parametrize("method", ["post", "patch", "delete", "options", "head"])
def test_methods_other_than_get_and_put_get_405(client, table, method):
    response = getattr(client, method)(url(table))
    assert response.status_code == 405
    assert response["Allow"] == "GET, PUT"
    if method != "head":
        assert_error(response, 405, "")


# The OpenAPI description -----------------------------------------------------------------------------------------


@pytest.fixture
def description(client) -> dict:
    response = client.get("/api/openapi.json")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    return response.json()


def test_the_description_is_valid_openapi_3_1(description):
    assert description["openapi"].startswith("3.1.")
    schema = schemathesis.openapi.from_dict(description)
    schema.validate()
    for name, component in description["components"]["schemas"].items():
        assert jsonschema_rs.meta.is_valid(component), name
    operations = {(method.upper(), path) for path, item in description["paths"].items() for method in item}
    assert ("GET", SHEET_PATH) in operations and ("PUT", SHEET_PATH) in operations


def test_the_description_names_every_answer_of_the_api(description):
    item = description["paths"][SHEET_PATH]
    assert set(item["put"]["responses"]) >= {"200", "400", "403", "404", "405", "409", "413", "429", "503"}
    assert set(item["get"]["responses"]) >= {"200", "404", "405", "503"}
    assert reverse("tournaments:api_table_sheet", args=["T" * 22]) == SHEET_PATH.format(token="T" * 22)


def test_the_description_is_served_only_to_get(client):
    assert_error(client.post("/api/openapi.json"), 405, "")


def conforms(description: dict, method: str, response) -> None:
    """``response`` is an answer the description gives for ``method`` on the sheet, body and all."""
    answers = description["paths"][SHEET_PATH][method]["responses"]
    answer = answers.get(str(response.status_code))
    assert answer is not None, f"{method.upper()} answers {response.status_code}, which the description omits"
    if "$ref" in answer:
        answer = description["components"]["responses"][answer["$ref"].rpartition("/")[2]]
    schema = answer["content"]["application/json"]["schema"]
    validator = jsonschema_rs.validator_for({**schema, "components": description["components"]})
    body = response.json()
    problems = [str(error) for error in validator.iter_errors(body)]
    assert not problems, (response.status_code, problems, body)


def test_real_answers_conform_to_the_description(client, table, sheet, description, settings):
    conforms(description, "get", client.get(url(table)))
    conforms(description, "get", client.get(url(table).replace(table.token, "x" * 22)))
    conforms(description, "put", put(client, table, {"version": 0, "manche": 1, "document": sheet}))
    conforms(description, "get", client.get(url(table)))
    conforms(description, "put", put(client, table, {"version": 0, "manche": 1, "document": sheet}))
    conforms(description, "put", put(client, table, {"version": 1, "manche": 2, **sheet}))
    conforms(description, "put", put(client, table, {"version": 0, "manche": 1, "document": {**sheet, "manches": []}}))
    conforms(description, "put", put(client, table, b"NaN"))
    conforms(description, "put", put(client, table, {"version": 0, "manche": 9, "document": sheet}))
    settings.REQUEST_BODY_LIMIT = 100
    conforms(description, "put", put(client, table, {"version": 0, "manche": 1, "document": sheet}))
    settings.REQUEST_BODY_LIMIT = 256 * 1024
    table.locked = True
    table.save(update_fields=["locked"])
    conforms(description, "put", put(client, table, {"version": 2, "manche": 1, "document": sheet}))


# Each game's sheet in the description -----------------------------------------------------------------------------


def validator(description: dict, name: str):
    """A validator of the component schema ``name``, its references resolved in ``description``."""
    return jsonschema_rs.validator_for({**ref_to(name), "components": description["components"]})


def ref_to(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def game_sheets(description: dict) -> dict[str, dict]:
    """Each game's key and its sheet's schema, as the score sheet's discriminator maps them."""
    score_sheet = description["components"]["schemas"]["ScoreSheet"]
    assert score_sheet["discriminator"]["propertyName"] == "game"
    mapping = score_sheet["discriminator"]["mapping"]
    assert sorted(mapping.values()) == sorted(one["$ref"] for one in score_sheet["oneOf"])
    return {key: description["components"]["schemas"][target.rpartition("/")[2]] for key, target in mapping.items()}


def test_every_game_is_one_of_the_score_sheets_with_its_fields_and_an_example(client, make_event, description):
    sheets = game_sheets(description)
    assert list(sheets) == [game.key for game in games.all_games()]
    for game in games.all_games():
        schema = sheets[game.key]
        own = game.rules.document or {tally.key: None for tally in game.rules.tally_fields}
        assert set(schema["properties"]) == {"game", "variant", "players", *own}, game.key
        assert schema["properties"]["game"]["const"] == game.key
        [example] = schema["examples"]
        assert example["game"] == game.key and set(example) - {"game", "variant", "players"} <= set(own)
        name = description["components"]["schemas"]["ScoreSheet"]["discriminator"]["mapping"][game.key]
        assert validator(description, name.rpartition("/")[2]).is_valid(example), game.key
        assert validator(description, "ScoreSheet").is_valid(example), game.key
        assert games.score(example)["game"] == game.key

        event = make_event(game.key, players=len(example["players"]), table_size=len(example["players"]))
        ids = list(event.players.order_by("pk").values_list("pk", flat=True))
        table = seat_by_hand(event, 1, [ids], status=RoundStatus.IN_PLAY).tables.get()
        names = [seat.player.name for seat in table.seats.order_by("position")]
        response = put(client, table, {"version": 0, "document": {**example, "players": names}})
        assert response.status_code == 200, (game.key, response.json())


def test_a_sheet_of_one_game_is_not_a_sheet_of_another(description):
    sheets = game_sheets(description)
    vegetables = sheets["vegetables"]["examples"][0]
    assert not validator(description, "ScoreSheet").is_valid({**vegetables, "game": "no-such-game"})
    assert not validator(description, "ScoreSheet").is_valid({**vegetables, "variant": "teams"})


def test_a_game_added_by_the_settings_is_described_with_no_other_change(client, settings):
    settings.EXTRA_GAMES = ["tests.games.high_score"]
    description = client.get("/api/openapi.json").json()
    schema = game_sheets(description)["high-score"]
    assert schema["properties"]["scores"]["type"] == "array"
    assert schema["properties"]["scores"]["items"] == {"type": "integer"}
    assert schema["properties"]["scores"]["description"].startswith("Score")
    [example] = schema["examples"]
    assert validator(description, "ScoreSheet").is_valid(example)
    assert not validator(description, "ScoreSheet").is_valid({**example, "scores": ["many"]})
    assert games.score(example)["game"] == "high-score"
