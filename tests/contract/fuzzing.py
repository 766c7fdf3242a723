"""Generated input for the table's sheet form and the JSON API, and what every answer to it must be.

Shared by ``tests/test_fuzz.py`` (bad input from anywhere) and the contract suite (every game's own form).
"""

from __future__ import annotations

from html.parser import HTMLParser

from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st

from tournaments.models import Table

FUZZ = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
#: The per-game runs are one per registered game, so each does fewer examples.
FUZZ_PER_GAME = settings(FUZZ, max_examples=100)

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


def posted_fields(controls: dict[str, list[str]]):
    """Every control of the form (most of the time), each with an offered value or something typed."""

    def value_of(options: list[str]):
        offered = [o for o in options if o]
        return st.sampled_from(offered) | field_texts if offered else field_texts

    entries = {name: st.none() | value_of(options) for name, options in controls.items()}
    return st.fixed_dictionaries(entries).map(lambda d: {k: v for k, v in d.items() if v is not None})


def near_valid_sheets(table: Table, valid: dict[str, str]):
    """The valid sheet's fields (each a control of the table's form), forms close to it, or every control given
    anything."""
    controls = sheet_controls(table)
    assert set(valid) <= set(controls), set(valid) - set(controls)
    return st.just(valid) | changed_fields(valid, controls) | posted_fields(controls)


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
