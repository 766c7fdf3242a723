"""Every page, as each of its users opens it, fits a phone and a desk in English, Spanish and Italian, for every game.

A club night with the realistic list (long accented names, long clubs) is open in round 2. Each page is opened at
360 px and at 1280 px in the three languages; the test fails on a page wider than the screen, or on text cut
inside a control (a select too narrow for its choice, a button clipping its label), and on axe-core's serious
findings.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tournaments import games

from .conftest import DESKTOP, PHONE, WAIT_MS, logged_in
from .helpers import Night, layout_problems, realistic_night
from .test_accessibility import serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = ["en", "es", "it"]
SIZES = {"phone": PHONE, "desk": DESKTOP}


def public_pages(night: Night) -> dict[str, str]:
    """What anyone can open: the event, its standings and projector, a player's page; and the links on paper."""
    slug, player = night.event.slug, night.player
    return {
        "home": "/",
        "event": f"/e/{slug}/",
        "standings": f"/e/{slug}/standings/",
        "projector": f"/e/{slug}/projector/",
        "player": f"/e/{slug}/players/{player.pk}/",
        "table link, entered": f"/t/{night.entered.token}/",
        "table link, empty": f"/t/{night.empty.token}/",
        "player link": f"/p/{player.token}/",
        "player link, table": f"/p/{player.token}/tables/{night.empty.pk}/",
        "login": "/accounts/login/",
    }


def organiser_pages(night: Night) -> dict[str, str]:
    """What the organiser opens at the desk."""
    slug = night.event.slug
    player = night.player
    return {
        "dashboard": "/organiser/",
        "new event": "/organiser/events/new/",
        "desk": f"/e/{slug}/organiser/",
        "event settings": f"/e/{slug}/organiser/edit/",
        "players": f"/e/{slug}/organiser/players/",
        "import players": f"/e/{slug}/organiser/players/import/",
        "edit player": f"/e/{slug}/organiser/players/{player.pk}/edit/",
        "round 1": f"/e/{slug}/organiser/rounds/1/",
        "round 2": f"/e/{slug}/organiser/rounds/2/",
        "complete round 2": f"/e/{slug}/organiser/rounds/2/complete/",
        "links and QR codes": f"/e/{slug}/organiser/address/",
        "desk's table page": f"/e/{slug}/organiser/tables/{night.entered.pk}/",
    }


def open_in(new_context, live_server, size: dict, language: str, user=None) -> Page:
    """A page in a browser of that size and language (the language cookie), logged in as ``user``."""
    options = {"viewport": size}
    if size is PHONE:
        options.update(is_mobile=True, has_touch=True, device_scale_factor=2)
    context = new_context(**options)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    if user is not None:
        logged_in(context, user, live_server)
    context.set_default_timeout(WAIT_MS)
    return context.new_page()


def survey(page: Page, pages: dict[str, str], *, axe: bool) -> dict[str, list[str]]:
    """Each page's layout problems (and axe-core's serious findings), by page name; empty when all is well."""
    found = {}
    for name, url in pages.items():
        response = page.goto(url)
        assert response is not None and response.ok, f"{name}: {url} answered {response and response.status}"
        problems = layout_problems(page)
        if axe:
            problems += serious_violations(page)
        if problems:
            found[f"{name} ({url})"] = problems
    return found


@pytest.mark.parametrize("game", [game.key for game in games.all_games()])
def test_every_page_fits_phones_and_desks_in_every_language(game, new_context, live_server, organiser_user):
    night = realistic_night(game, organiser_user)
    found = {}
    for language in LANGUAGES:
        for size_name, size in SIZES.items():
            checked_by_axe = language == "en"
            visitor = open_in(new_context, live_server, size, language)
            organiser = open_in(new_context, live_server, size, language, organiser_user)
            for name, problems in {
                **survey(visitor, public_pages(night), axe=checked_by_axe),
                **survey(organiser, organiser_pages(night), axe=checked_by_axe),
            }.items():
                found[f"{language}, {size_name}: {name}"] = problems
            visitor.context.close()
            organiser.context.close()
    report = "\n".join(f"{page}: {problem}" for page, problems in found.items() for problem in problems)
    assert not found, f"{len(found)} pages with problems:\n{report}"
