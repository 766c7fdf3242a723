"""Desk forms on a laptop: fields of about 40 characters, the settings in two columns from 1200 px, the phone's single
column below; the desk's clock on one line with its heading, under the desk's links rather than against them."""

from __future__ import annotations

import pytest

from tests.browser.conftest import WAIT_MS, logged_in
from tests.browser.test_desk_board import playing  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The height of an element's text, whatever height its box was stretched to.
TEXT_HEIGHT = """e => { const range = document.createRange(); range.selectNodeContents(e);
  return range.getBoundingClientRect().height; }"""
FIELDS = "form.event-form p > input:not([type=checkbox]):not([type=radio]), form.event-form p > select"


def organiser_at(new_context, organiser_user, live_server, width: int, height: int):
    context = logged_in(new_context(viewport={"width": width, "height": height}), organiser_user, live_server)
    context.set_default_timeout(WAIT_MS)
    return context.new_page()


def forty_characters(page) -> float:
    """The width of 40 characters (``40ch``) in the fields' font, in pixels."""
    return page.evaluate(
        """() => { const probe = document.createElement('input'); probe.style.width = '40ch';
        document.querySelector('form.event-form').append(probe); const width = probe.getBoundingClientRect().width;
        probe.remove(); return width; }"""
    )


def test_the_settings_fields_are_readable_and_in_two_columns_on_a_wide_screen(
    new_context,
    organiser_user,
    live_server,
    playing,  # noqa: F811
):
    event, _round = playing
    page = organiser_at(new_context, organiser_user, live_server, 1920, 1080)
    page.goto(f"/e/{event.slug}/organiser/edit/")
    widest = max(box["width"] for box in (field.bounding_box() for field in page.locator(FIELDS).all()) if box)
    assert widest <= forty_characters(page) + 1
    tournament, rounds = (
        page.locator(f"section[aria-labelledby={name}]") for name in ("set-up-tournament", "set-up-rounds")
    )
    left, right = tournament.bounding_box(), rounds.bounding_box()
    assert abs(left["y"] - right["y"]) <= 1 and right["x"] >= left["x"] + left["width"]


def test_the_settings_stay_in_one_column_on_a_phone(new_context, organiser_user, live_server, playing):  # noqa: F811
    event, _round = playing
    page = organiser_at(new_context, organiser_user, live_server, 360, 780)
    page.goto(f"/e/{event.slug}/organiser/edit/")
    tournament, rounds = (
        page.locator(f"section[aria-labelledby={name}]") for name in ("set-up-tournament", "set-up-rounds")
    )
    top, below = tournament.bounding_box(), rounds.bounding_box()
    assert below["y"] >= top["y"] + top["height"] and abs(below["x"] - top["x"]) <= 1


def test_the_desk_clock_is_one_line_with_its_heading_below_the_links(
    new_context,
    organiser_user,
    live_server,
    playing,  # noqa: F811
):
    event, round_ = playing
    round_.clock_seconds, round_.clock_started_at = None, None
    round_.save(update_fields=["clock_seconds", "clock_started_at"])
    page = organiser_at(new_context, organiser_user, live_server, 1280, 800)
    page.goto(f"/e/{event.slug}/organiser/")
    heading = page.locator("#desk-clock-title").bounding_box()
    label = page.locator("#desk-clock label[for=clock-minutes]").bounding_box()
    buttons = page.locator("main nav, main .actions").first.bounding_box()
    middle = [box["y"] + box["height"] / 2 for box in (heading, label)]
    assert abs(middle[0] - middle[1]) <= 4, "the length's label is on the clock's heading's line"
    assert label["x"] > heading["x"] + heading["width"], "the length's label follows the clock's heading"
    assert heading["y"] >= buttons["y"] + buttons["height"] + 8, "the clock's heading keeps clear of the links"


def test_the_round_pages_cards_keep_their_players_in_line(organiser_page, playing):  # noqa: F811
    """Statuses of one and of two lines side by side: every card of a line starts its players at the same height."""
    event, round_ = playing
    organiser_page.goto(f"/e/{event.slug}/organiser/rounds/{round_.number}/")
    rows: dict[int, set[int]] = {}
    for card in organiser_page.locator("article.table-card").all():
        top = round(card.bounding_box()["y"])
        rows.setdefault(top, set()).add(round(card.locator("ol").bounding_box()["y"]))
    statuses = {round(p.evaluate(TEXT_HEIGHT)) for p in organiser_page.locator(".table-card > p").all()}
    assert len(statuses) > 1, "the statuses differ in height, as the check needs"
    assert all(len(players) == 1 for players in rows.values()), rows


def test_a_desk_forms_button_keeps_its_own_width_on_a_laptop(
    new_context,
    organiser_user,
    live_server,
    playing,  # noqa: F811
):
    event, _round = playing
    page = organiser_at(new_context, organiser_user, live_server, 1920, 1080)
    page.goto(f"/e/{event.slug}/organiser/edit/")
    button, form = page.locator("form.event-form button.primary"), page.locator("form.event-form")
    assert button.bounding_box()["width"] < form.bounding_box()["width"] / 2
