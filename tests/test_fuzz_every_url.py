"""Every URL of the app (the admin's are fuzzed by ``test_fuzz_every_admin_url``), as anonymous, a table link, a
player link, the organiser and another organiser, takes generated malformed requests: huge, negative and non-ASCII
numbers, control characters, empty and duplicated fields, lists for scalars, files, bad JSON, wrong content types,
oversized bodies, unknown parts of the path. Each answer is below 500, shows no traceback, logs no error, comes
within a bound, and a refused one changed nothing stored.

The URLs come from the URLconf and each form's field names from the pages that show it, so a new view is fuzzed
without a change here; a new part of a path the evening cannot fill fails until ``tests/url_walk.py`` knows it.
"""

from __future__ import annotations

import pytest

from tests.url_fuzz import fuzz_route, walked_evening
from tests.url_walk import routes

pytestmark = pytest.mark.django_db

ROUTES = [route for route in routes() if not route.key.startswith("admin")]
#: Generated requests per role and URL: enough to reach every kind of input across the URLs, few for ``make test``.
EXAMPLES = 4


@pytest.fixture(scope="module")
def walked(django_db_setup, django_db_blocker):
    yield from walked_evening(django_db_blocker, ROUTES)


def test_every_url_is_fuzzed_here_or_with_the_admin():
    keys = {route.key for route in routes()}
    here = {route.key for route in ROUTES}
    assert {"tournaments:table", "tournaments:player_link", "tournaments:event_manage", "login"} <= here
    assert len(keys) > 150 and all(key.startswith("admin") for key in keys - here)


@pytest.mark.parametrize("route", ROUTES, ids=[route.key for route in ROUTES])
def test_every_url_holds_malformed_requests_from_everyone(route, walked, caplog):
    fuzz_route(route, walked, caplog, EXAMPLES)
