"""Malformed requests to any URL, from anyone, and what every answer to them must be: below 500, no traceback, no
error logged, within a bound, and nothing stored changed by a refused one. The fuzzers over every URL use it."""

from __future__ import annotations

import json
import logging
import time
from urllib.parse import quote, urlencode

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.contract.fuzzing import json_values
from tests.url_walk import (
    ROLES,
    Route,
    Unfillable,
    build_evening,
    changed_models,
    fingerprint,
    form_fields,
    real_values,
    role_client,
    rolled_back,
    send,
    writes_seen,
)

EVERY_URL = settings(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
#: A generous bound on one answer: a safety net against a request that runs away, not a measure of speed.
ANSWER_WITHIN = 10.0
TRACEBACK_WORDS = (b"Traceback (most recent call last)", b"Exception Value", b"Exception Type")
#: Names many forms and views read, tried on every URL besides the names its pages' forms use.
GENERIC_NAMES = [
    "id",
    "ids",
    "player",
    "players",
    "number",
    "round",
    "version",
    "seat",
    "manche",
    "page",
    "v",
    "sort",
    "find",
    "q",
    "next",
    "action",
    "key",
    "token",
    "undo",
    "name",
    "text",
    "file",
    "checked_in",
    "language",
]
HUGE = str(2**70)
ODD_TEXTS = [
    "",
    "0",
    "-1",
    "²",
    "٣",
    "١٢",
    "𝟗",
    "½",
    HUGE,
    str(2**63),
    "9" * 30,
    "9" * 5000,
    "1e309",
    "-0",
    "NaN",
    "inf",
    "0x10",
    " 7 ",
    "1,2",
    "1 2",
    "\x00",
    "a\x00b",
    "\x1b[31m",
    "\r\n",
    "\u202e",
    "\ufeff1",
    "null",
    "true",
    "[]",
    "{}",
    '{"a": 1}',
    "=1+1",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "x" * 3000,
]
odd_values = st.sampled_from(ODD_TEXTS) | st.integers().map(str) | st.text(max_size=30)
#: Bad values for a part of the path, by converter: out of every range, unknown, or not of the converter's shape.
BAD_PARTS = {
    "int": ["0", "2147483648", str(2**63), HUGE, "9" * 400],
    "str": ["AbCdEfGhIjKlMnOpQrStUv", "x", "٣", "\x00", "a" * 300, "..", "%"],
    "slug": ["no-such-thing", "x" * 300, "0"],
    "path": ["0", "x", "-1", HUGE, "\x00"],
    "re": [],
}
#: The first bytes of a PDF, a JPEG and a ZIP (an XLSX): files a reader takes for one and finds broken.
FILE_STARTS = [b"%PDF-1.4\n", b"\xff\xd8\xff\xe0", b"PK\x03\x04"]
CONTENT_TYPES = [
    "text/plain",
    "application/json",
    "application/xml",
    "multipart/form-data",
    "multipart/form-data; boundary=x",
    "application/x-www-form-urlencoded",
    "application/x-www-form-urlencoded; charset=utf-16",
    "application/octet-stream",
]


def converter_kind(converter) -> str:
    return {"IntConverter": "int", "StringConverter": "str", "SlugConverter": "slug", "PathConverter": "path"}.get(
        type(converter).__name__, "re"
    )


def requests(route, real: dict, names: list[str]):
    """One generated request to ``route``: (method, path, keyword arguments for the test client)."""
    bad_parts = {
        name: BAD_PARTS[converter_kind(route.converters.get(name))] for name in real if route.converters.get(name)
    }
    bad_parts = {name: values for name, values in bad_parts.items() if values}
    pairs = st.lists(st.tuples(st.sampled_from(names) | st.text(max_size=12), odd_values), max_size=8)

    @st.composite
    def build(draw):
        values = dict(real)
        if bad_parts and draw(st.integers(0, 3)) == 0:
            name = draw(st.sampled_from(sorted(bad_parts)))
            values[name] = draw(st.sampled_from(bad_parts[name]))
        path = route.path(values)
        extra = {}
        if draw(st.booleans()):
            extra["headers"] = {"HX-Request": "true", "Accept": draw(st.sampled_from(["application/json", "*/*"]))}
        query = draw(pairs)
        if query:
            path += "?" + urlencode(query)
        elif draw(st.integers(0, 5)) == 0:
            path += "?" + draw(st.sampled_from(["%zz=%ff", "a&&=&b", "%00=%00", "page=1&page=2&page=x"]))
        method = draw(st.sampled_from(["GET", "POST", "POST"]))
        if method == "GET":
            return method, path, extra
        kind = draw(st.sampled_from(["form", "form", "urlencoded", "file", "json", "raw", "oversized"]))
        body = draw(pairs)
        if kind == "form":
            data: dict[str, list[str]] = {}
            for key, value in body:
                data.setdefault(key, []).append(value)
            extra["data"] = data
        elif kind == "urlencoded":
            extra["data"] = urlencode(body)
            extra["content_type"] = "application/x-www-form-urlencoded"
        elif kind == "file":
            field = draw(st.sampled_from(["file", "files", "picture", *names[:3]]))
            content = draw(
                st.binary(max_size=2000) | st.sampled_from([b"%PDF-1.4\n", b"\xff\xd8\xff\xe0", b"PK\x03\x04"])
            )
            name = draw(st.sampled_from(["a.pdf", "a.jpg", "a.csv", "a.xlsx", "", "\x00.png", "é" * 300]))
            extra["data"] = {**dict(body), field: SimpleUploadedFile(name or "x", content)}
        elif kind == "json":
            extra["data"] = draw(json_values.map(json.dumps) | st.sampled_from(["{", "[1,", '{"a":', "\x00"]))
            extra["content_type"] = "application/json"
        elif kind == "raw":
            extra["data"] = draw(st.binary(max_size=3000))
            extra["content_type"] = draw(st.sampled_from(CONTENT_TYPES))
        else:
            extra["data"] = "a=" + "x" * (300 * 1024)
            extra["content_type"] = "application/x-www-form-urlencoded"
        return method, path, extra

    return build()


def refused(method: str, response) -> bool:
    """A 4xx, or a posted form shown again with its errors."""
    if 400 <= response.status_code < 500:
        return True
    if method != "POST" or response.status_code != 200 or response.get("Content-Type", "")[:9] != "text/html":
        return False
    page = response.content
    return b'class="errorlist' in page or b'class="error"' in page


def check(client, method: str, path: str, extra: dict, base: dict, caplog, who: str) -> None:
    """Send one request and hold its answer to every rule; the database is as it was afterwards."""
    caplog.clear()
    with transaction.atomic():
        started = time.monotonic()
        with writes_seen() as writes:
            response = send(client, method, path, **extra)
        took = time.monotonic() - started
        changed = changed_models(base) if writes and refused(method, response) else []
        transaction.set_rollback(True)
    shown = f"{who} {method} {path[:300]!r} -> {response.status_code}"
    assert response.status_code < 500, f"{shown}\n{response.content[:3000]!r}"
    body = b"".join(response.streaming_content) if response.streaming else response.content
    assert not any(word in body for word in TRACEBACK_WORDS), f"{shown}: a traceback in the answer"
    assert took < ANSWER_WITHIN, f"{shown}: answered in {took:.1f} s"
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, f"{shown}: logged {[r.getMessage() for r in errors]}"
    assert not changed, f"{shown}: refused, yet these changed: {changed}"


#: Whose pages show the forms: the organiser sees every page with its forms; a table's and a player's link their own.
CRAWLED_AS = {"organiser": ("",), "table_link": ("t/", "api/"), "player_link": ("p/",)}


def walked_evening(django_db_blocker, fuzzed: list[Route]):
    """For a module's fixture: the evening, and the control names of every form the pages of ``fuzzed`` show (as
    whoever sees their forms), by the route each form is sent to. Built once; each test's changes are rolled back."""
    with django_db_blocker.unblock(), transaction.atomic():
        evening = build_evening()
        pages = {}
        for role, prefixes in CRAWLED_AS.items():
            client = role_client(role, evening)
            for route in fuzzed:
                if not route.template.startswith(prefixes):
                    continue
                try:
                    url = route.path(real_values(route, evening))
                except Unfillable:
                    continue
                response = rolled_back(send, client, "GET", url)
                if response.status_code == 200 and response.get("Content-Type", "").startswith("text/html"):
                    pages[f"{role} {url}"] = (url, response.content.decode())
        yield evening, form_fields(dict(pages.values()))
        transaction.set_rollback(True)


def fuzz_route(route: Route, walked, caplog, examples: int) -> None:
    """Every role's requests to ``route``: its page as is, its forms' fields all ``²``, every name a huge number
    in the query, then ``examples`` generated requests."""
    evening, fields = walked
    try:
        real = real_values(route, evening)
    except Unfillable as unknown:
        pytest.fail(str(unknown))
    names = sorted(fields.get(route.key, set()) | set(GENERIC_NAMES))
    url = route.path(real)
    caplog.set_level(logging.WARNING)
    for role in ROLES:
        client = role_client(role, evening)
        base = fingerprint()
        check(client, "GET", url, {}, base, caplog, role)
        check(client, "POST", url, {"data": dict.fromkeys(names, "²")}, base, caplog, role)
        check(client, "GET", url + "?" + "&".join(f"{quote(n)}={quote(HUGE)}" for n in names), {}, base, caplog, role)

        generated(client, role, base, caplog, requests(route, real, names), examples)


def generated(client, role: str, base: dict, caplog, strategy, examples: int) -> None:
    """``examples`` requests drawn from ``strategy``, each sent by ``client`` and checked."""

    @settings(EVERY_URL, max_examples=examples)
    @given(request=strategy)
    def fuzz(request):
        method, path, extra = request
        check(client, method, path, extra, base, caplog, role)

    fuzz()
