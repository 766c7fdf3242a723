"""Browser fixtures: Debian's Chromium, driven by Playwright, against a live server of the app.

The browser tests run after every other test: Playwright's sync API keeps an asyncio loop running in
the test thread from its first use to the end of the session, and Django refuses ORM calls under a
running loop unless told it is safe (it is here: the tests call the ORM from plain synchronous code).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.test import Client
from playwright.sync_api import BrowserContext, Page, expect

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
#: How long a page may take to show what a test expects (HTMX polls every 3 s on the standings).
WAIT_MS = 12_000

expect.set_options(timeout=WAIT_MS)


def pytest_configure(config):
    """pytest-playwright's stand-in for pytest-base-url defines a session fixture as a method: pytest warns."""
    config.addinivalue_line(
        "filterwarnings", "ignore:Session-scoped fixtures defined as instance methods:pytest.PytestRemovedIn10Warning"
    )


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """Browser tests last (a stable sort, after every other plugin has ordered the tests): the rest of the suite
    never runs beside Playwright's loop."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.fixture(scope="session", autouse=True)
def _orm_beside_playwright():
    """Let the test thread use the ORM while Playwright's loop is running in it."""
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    yield
    if previous is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Debian's Chromium, headless unless --headed; Playwright never downloads a browser here."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's package with `scripts/system-packages.sh chromium`.")
    return {"headless": True, **browser_type_launch_args, "executable_path": str(CHROMIUM), "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args, live_server):
    """Every page talks to the live server, in English, on the event's time zone."""
    return {**browser_context_args, "base_url": live_server.url, "locale": "en-GB", "timezone_id": "Europe/Rome"}


@pytest.fixture
def context(new_context) -> BrowserContext:
    """A desktop browser (1280 x 800)."""
    context = new_context(viewport=DESKTOP)
    context.set_default_timeout(WAIT_MS)
    return context


@pytest.fixture
def phone(new_context):
    """Opens a page in a new phone-sized context (360 x 740, touch): another person's phone each call."""

    def open_phone() -> Page:
        context = new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
        context.set_default_timeout(WAIT_MS)
        return context.new_page()

    return open_phone


@pytest.fixture
def organiser_user(django_user_model):
    """An organiser account (not staff: they run the events that name them); it logs in by cookie, so no password."""
    return django_user_model.objects.create_user("ada")


def logged_in(context: BrowserContext, user, live_server) -> BrowserContext:
    """The context with ``user``'s session cookie, as if they had logged in."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])
    return context


@pytest.fixture
def organiser_page(new_context, organiser_user, live_server) -> Page:
    """A desktop page of the organiser, logged in (the journey logs in through the form instead)."""
    context = logged_in(new_context(viewport=DESKTOP), organiser_user, live_server)
    context.set_default_timeout(WAIT_MS)
    return context.new_page()


@pytest.fixture
def organiser_phone(new_context, organiser_user, live_server) -> Page:
    """A phone page of the organiser, logged in."""
    context = logged_in(
        new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2), organiser_user, live_server
    )
    context.set_default_timeout(WAIT_MS)
    return context.new_page()
