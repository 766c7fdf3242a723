"""Nothing of a round seated but not published reaches anyone but its organiser, through any URL of the URLconf:
no page, JSON, PDF, CSV or XLSX shows its tables' tokens or links, its seating, its clock or its sheets, whoever
asks (anonymous, a published table's link, a player's link, another organiser, a phone that opened the unpublished
table's link). Its table's token gets the answer an unknown token gets; ``benchmarks/token_timing.py`` compares
their times. ``test_unpublished`` has one test per surface; this walk covers every URL, new ones included.
"""

from __future__ import annotations

import io
import re

import pytest
from django.db import transaction
from openpyxl import load_workbook

from tests.contract.pages import pdf_text
from tests.url_walk import (
    HIDDEN_CLOCK,
    Unfillable,
    build_evening,
    real_values,
    role_client,
    rolled_back,
    routes,
    send,
)

pytestmark = pytest.mark.django_db

ROUTES = routes()
WHO = ("anonymous", "table_link", "player_link", "other_organiser", "hidden_table_link")
#: A well-formed token no table has.
UNKNOWN_TOKEN = "Zq3xK9vB2mN7pL4wR8tY1c"
#: Player 00 sits with Players 04, 05 and 06 in the unpublished round only.
ONLY_IN_ROUND_2 = ("Player 04", "Player 05", "Player 06")


@pytest.fixture(scope="module")
def evening(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_evening()
        transaction.set_rollback(True)


def text_of(response) -> str:
    """What an answer shows: a page's or a file's text, a PDF's and a workbook's text as read from them."""
    body = b"".join(response.streaming_content) if response.streaming else response.content
    kind = response.get("Content-Type", "")
    if kind.startswith("application/pdf"):
        return pdf_text(body)
    if "spreadsheetml" in kind:
        book = load_workbook(io.BytesIO(body), read_only=True)
        return " ".join(str(cell) for sheet in book for row in sheet.iter_rows(values_only=True) for cell in row)
    if kind.startswith("image/"):
        return ""
    return body.decode("utf-8", "replace")


def hidden_marks(evening) -> dict[str, str]:
    """What of the unpublished round must show nowhere, each named."""
    minutes, seconds = divmod(HIDDEN_CLOCK, 60)
    marks = {"its clock": f"{minutes}:{seconds:02d}", "its clock in seconds": f'"{HIDDEN_CLOCK}"'}
    for table in evening.hidden.tables.all():
        marks[f"table {table.number}'s token"] = table.token
        marks[f"table {table.number}'s page"] = f"/tables/{table.pk}/"
    return marks


def client_of(who: str, evening):
    if who == "hidden_table_link":
        return role_client("table_link", evening, table=evening.hidden_table)
    return role_client(who, evening)


@pytest.mark.parametrize("route", ROUTES, ids=[route.key for route in ROUTES])
def test_no_url_shows_anything_of_the_unpublished_round(route, evening):
    try:
        url = route.path(real_values(route, evening))
    except Unfillable as unknown:
        pytest.fail(str(unknown))
    marks = hidden_marks(evening)
    about_player_00 = str(evening.player.pk) in url or evening.player.token in url
    for who in WHO:
        client = client_of(who, evening)
        for method in ("GET", "POST"):
            response = rolled_back(send, client, method, url)
            assert response.status_code < 500, (who, method, url)
            shown = text_of(response)
            leaks = [name for name, mark in marks.items() if mark in shown]
            assert not leaks, f"{who} {method} {url} shows the unpublished round's {leaks}"
            assert not re.search(r"\bRound 2\b", shown), f"{who} {method} {url} names round 2"
            if about_player_00:
                seen = [name for name in ONLY_IN_ROUND_2 if name in shown]
                assert not seen, f"{who} {method} {url} seats player 00 with {seen}, as round 2 only does"


TOKEN_ROUTES = [route for route in ROUTES if "token" in route.kwargs and route.template.startswith(("t/", "api/"))]


#: A CSRF token as a page carries it: masked anew at every answer.
CSRF = re.compile(rb"[A-Za-z0-9]{64}")


def answer_shape(client, method: str, path: str) -> tuple:
    """Status, type and body of the answer to ``path``, the path written as ``PATH`` and CSRF tokens as ``CSRF``."""
    response = rolled_back(send, client, method, path)
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return response.status_code, response.get("Content-Type"), CSRF.sub(b"CSRF", body.replace(path.encode(), b"PATH"))


@pytest.mark.parametrize("route", TOKEN_ROUTES, ids=[route.key for route in TOKEN_ROUTES])
def test_an_unpublished_tables_token_gets_the_answer_of_an_unknown_one(route, evening):
    hidden = real_values(route, evening, table=evening.hidden_table)
    assert_answered_alike(route, evening, hidden, {**hidden, "token": UNKNOWN_TOKEN})


def assert_answered_alike(route, evening, hidden: dict, unknown: dict) -> None:
    """Whoever asks, by GET or POST, the address of ``hidden`` gets the "not found" answer of ``unknown``."""
    for who in WHO:
        client = client_of(who, evening)
        for method in ("GET", "POST"):
            got = answer_shape(client, method, route.path(hidden))
            assert got == answer_shape(client, method, route.path(unknown)), (who, method, route.key)
            assert got[0] in (404, 405), (who, method, route.key, got[0])


PLAYER_TABLE_ROUTES = [route for route in ROUTES if "table_id" in route.kwargs and route.template.startswith("p/")]


@pytest.mark.parametrize("route", PLAYER_TABLE_ROUTES, ids=[route.key for route in PLAYER_TABLE_ROUTES])
def test_a_player_link_to_an_unpublished_table_gets_the_answer_of_an_unknown_table(route, evening):
    hidden = real_values(route, evening, table=evening.hidden_table)
    assert_answered_alike(route, evening, hidden, {**hidden, "table_id": evening.hidden_table.pk + 10_000})
