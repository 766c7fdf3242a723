"""Every URL of the admin takes the malformed requests of ``test_fuzz_every_url`` from everyone, with fewer of them
each: the admin is Django's own code over the app's models, and has as many URLs again as the app."""

from __future__ import annotations

import pytest

from tests.url_fuzz import fuzz_route, walked_evening
from tests.url_walk import routes

pytestmark = pytest.mark.django_db

ROUTES = [route for route in routes() if route.key.startswith("admin")]
EXAMPLES = 2


@pytest.fixture(scope="module")
def walked(django_db_setup, django_db_blocker):
    yield from walked_evening(django_db_blocker, ROUTES)


@pytest.mark.parametrize("route", ROUTES, ids=[route.key for route in ROUTES])
def test_every_admin_url_holds_malformed_requests_from_everyone(route, walked, caplog):
    fuzz_route(route, walked, caplog, EXAMPLES)
