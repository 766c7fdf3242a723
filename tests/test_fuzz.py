"""Bad input from anywhere: generated documents and bytes to the JSON API, generated posts to a table's sheet form
and generated player lists to the import. Never a 500; always an answer with an error the user can act on."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.factories import seat_by_hand
from tournaments.entry.paths import document_from_fields
from tournaments.games import get_game
from tournaments.models import Table
from tournaments.models.rounds import RoundStatus

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
#: The per-game runs are four, so each does fewer examples: the whole file stays well within a minute.
FUZZ_PER_GAME = settings(FUZZ, max_examples=100)

GAMES = ["vegetables", "veggies", "snack-match", "cheese-rescue"]
API_STATUSES = {200, 400, 403, 404, 405, 409, 413}
FORM_STATUSES = {200, 302, 400, 403, 409}

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(-3, 30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20)
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=12), inner, max_size=6),
    max_leaves=40,
)
field_texts = st.one_of(
    st.just(""),
    st.integers(-5, 60).map(str),
    st.integers().map(str),
    st.sampled_from(["1, 2", "4 1", "x", "-", "1e3", "0x10", " 7 ", "١٢", "NaN", "∞", "10" * 30]),
    st.text(max_size=30),
)


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


def flat(prefix: str, values: dict) -> dict[str, str]:
    return {f"{prefix}{key}[{i}]": str(v) for key, row in values.items() for i, v in enumerate(row)}


def veggies_stand(i: int, goods: dict, mice: str, declared: str) -> dict[str, str]:
    fields = {f"stands[{i}].mode": "tally", f"stands[{i}].declared[0]": declared, f"stands[{i}].mice": mice}
    for good in ("strawberries", "bananas", "grapes", "carrots", "mushrooms"):
        largest, groups = goods.get(good, ("", ""))
        fields[f"stands[{i}].goods.{good}.largest"] = str(largest)
        fields[f"stands[{i}].goods.{good}.groups"] = str(groups)
    return fields


#: A sheet each game's form accepts (from the rulebooks' examples), for the fuzzing to start from and change.
VALID = {
    "vegetables": (
        4,
        flat(
            "manches[0].",
            {"pozzo": [30, 0, 20, 10], "sequences": [6, 2, 5, 3], "family_bonuses": [1, 0, 0, 0], "penalties": [0] * 4},
        ),
    ),
    "veggies": (
        4,
        {
            **veggies_stand(0, {"strawberries": (5, 4), "bananas": (3, 2), "grapes": (5, 1)}, "3", "strawberries"),
            **veggies_stand(1, {"bananas": (6, 1), "carrots": (2, 2)}, "", "bananas"),
            **veggies_stand(2, {"grapes": (4, 2), "mushrooms": (3, 1)}, "1", "grapes"),
            **veggies_stand(3, {"strawberries": (4, 1), "carrots": (1, 3)}, "0", "strawberries"),
        },
    ),
    "snack-match": (
        2,
        {
            **{f"zones[0].groups.{k}": v for k, v in {"snacks.soda": "4, 1", "cloths.green": "5"}.items()},
            **{f"zones[1].groups.{k}": v for k, v in {"snacks.sandwich": "4, 1", "cloths.orange": "3"}.items()},
        },
    ),
    "cheese-rescue": (
        2,
        {
            "tallies[0].cheese_points": "5",
            "tallies[0].cheese_cards": "2",
            "tallies[1].cheese_points": "3",
            "tallies[1].cheese_cards": "1",
        },
    ),
}


def seated_table(make_event, game: str) -> Table:
    size = VALID[game][0]
    event = make_event(game, players=size, table_size=size)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    return seat_by_hand(event, 1, [ids], status=RoundStatus.IN_PLAY).tables.get()


def valid_fields(game: str, controls: dict[str, list[str]]) -> dict[str, str]:
    """Every control of the sheet form with the valid sheet's values, the others left blank."""
    fields = {name: "" for name, options in controls.items() if not any(options)}
    fields.update(VALID[game][1])
    assert set(VALID[game][1]) <= set(controls), set(VALID[game][1]) - set(controls)
    return fields


def changed_fields(base: dict[str, str], controls: dict[str, list[str]]):
    """``base`` with a few controls given other values or left out, so many sheets stay close to valid."""
    names = sorted(controls)
    change = st.tuples(st.sampled_from(names), st.none() | field_texts | st.sampled_from(sum(controls.values(), [])))

    def apply(changes):
        fields = dict(base)
        for name, value in changes:
            if value is None:
                fields.pop(name, None)
            else:
                fields[name] = value
        return fields

    return st.lists(change, max_size=4).map(apply)


@pytest.fixture
def table(make_event) -> Table:
    return seated_table(make_event, "vegetables")


class SheetForm(HTMLParser):
    """The named controls of a table page's first sheet form, with the values a select offers."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.done = False
        self.select: str | None = None
        self.controls: dict[str, list[str]] = {}

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attributes = dict(attrs)
        if tag == "form" and "sheet" in (attributes.get("class") or "").split() and not self.done:
            self.inside = True
        if not self.inside or not attributes.get("name") or attributes["name"] == "csrfmiddlewaretoken":
            if tag == "option" and self.select:
                self.controls[self.select].append(attributes.get("value") or "")
            return
        name = attributes["name"]
        if tag == "select":
            self.select = name
            self.controls.setdefault(name, [])
        elif tag in ("input", "button"):
            self.controls.setdefault(name, []).append(attributes.get("value") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.select = None
        if tag == "form" and self.inside:
            self.inside, self.done = False, True


def sheet_controls(table: Table) -> dict[str, list[str]]:
    page = Client().get(reverse("tournaments:table", args=[table.token]))
    parser = SheetForm()
    parser.feed(page.content.decode())
    assert len(parser.controls) > 3, "the sheet form was not found"
    return parser.controls


def posted_fields(controls: dict[str, list[str]]):
    """Every control of the form (most of the time), each with an offered value or something typed."""

    def value_of(options: list[str]):
        offered = [o for o in options if o]
        return st.sampled_from(offered) | field_texts if offered else field_texts

    entries = {name: st.none() | value_of(options) for name, options in controls.items()}
    return st.fixed_dictionaries(entries).map(lambda d: {k: v for k, v in d.items() if v is not None})


def assert_api_answer(response) -> dict:
    event(f"API {response.status_code}")
    assert response.status_code in API_STATUSES, (response.status_code, response.content[:500])
    assert response["Content-Type"] == "application/json"
    body = response.json()
    if response.status_code >= 400:
        assert isinstance(body["errors"], list) and body["errors"], body
        for error in body["errors"]:
            assert isinstance(error["path"], str)
            assert isinstance(error["message"], str) and error["message"].strip(), body
    else:
        assert body["players"] and body["version"] >= 1
    return body


def assert_form_answer(response, table: Table) -> None:
    event(f"form {response.status_code}")
    assert response.status_code in FORM_STATUSES, (response.status_code, response.content[:500])
    page = response.content.decode()
    if response.status_code == 302:
        assert response["Location"].startswith(f"/t/{table.token}/")
    elif response.status_code in (400, 403, 409):
        shown = ['class="error"', 'class="errorlist"', 'class="notice"']
        assert any(mark in page for mark in shown), (response.request["PATH_INFO"], page[:3000])


def put(client, table: Table, body: bytes | str, content_type: str = "application/json"):
    return client.put(reverse("tournaments:api_table_sheet", args=[table.token]), body, content_type=content_type)


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


def sheets(game: str, table: Table):
    """The valid sheet form, forms close to it, or forms with every control given anything."""
    controls = sheet_controls(table)
    valid = valid_fields(game, controls)
    return st.just(valid) | changed_fields(valid, controls) | posted_fields(controls)


@pytest.mark.parametrize("game", GAMES)
def test_near_valid_sheets_put_to_the_api_get_a_json_answer(client, make_event, game):
    table = seated_table(make_event, game)
    names = [seat.player.name for seat in table.seats.order_by("position")]
    form = get_game(game).entry

    def document_of(fields: dict, players, extra: dict) -> dict:
        return {
            "game": game,
            "players": players,
            **form.normalise(document_from_fields(fields.items(), form.roots)),
            **extra,
        }

    valid = {"version": 0, "manche": 1, "document": document_of(valid_fields(game, sheet_controls(table)), names, {})}
    assert put(client, table, json.dumps(valid)).status_code == 200

    @FUZZ_PER_GAME
    @given(
        fields=sheets(game, table),
        version=st.just("current") | st.integers(-2, 3) | json_values,
        manche=st.just(1) | st.integers(-1, 3) | json_values,
        players=st.just(names) | json_values,
        extra=st.just({})
        | st.dictionaries(st.sampled_from(["game", "variant", "players", "x"]), json_values, max_size=2),
    )
    def check(fields, version, manche, players, extra):
        if version == "current":
            version = table.manches.get(number=1).version
        body = {"version": version, "manche": manche, "document": document_of(fields, players, extra)}
        assert_api_answer(put(client, table, json.dumps(body)))

    check()


# The table's sheet form ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_generated_posts_to_the_sheet_form_are_answered_with_their_errors(client, make_event, game):
    table = seated_table(make_event, game)
    url = reverse("tournaments:table_save", args=[table.token, 1])
    valid = {**valid_fields(game, sheet_controls(table)), "seat": "1", "version": "0"}
    assert client.post(url, valid).status_code == 302

    @FUZZ_PER_GAME
    @given(
        fields=sheets(game, table),
        seat=st.sampled_from(["1", "2"]) | field_texts,
        version=st.just("current") | field_texts,
        htmx=st.booleans(),
    )
    def check(fields, seat, version, htmx):
        if version == "current":
            version = str(table.manches.get(number=1).version)
        extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        assert_form_answer(client.post(url, {**fields, "seat": seat, "version": version}, **extra), table)

    check()


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
    url = reverse("tournaments:players_import", args=[make_event("vegetables", players=0).slug])
    data = {"text": text, "action": action}
    if raw is not None:
        data["file"] = SimpleUploadedFile("players.csv", raw, "text/csv")
    response = organiser_client.post(url, data)
    event(f"import {response.status_code}")
    assert response.status_code in (200, 302, 400), (response.status_code, response.content[:500])
    if response.status_code == 400:
        assert 'class="errorlist' in response.content.decode()
