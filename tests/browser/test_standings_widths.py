"""The standings on a phone (360 px) in every language: each heading of the list within the list; and the projector
on a wide screen (1920 px), its headings within its table."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from .conftest import PHONE
from .helpers import realistic_night, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = ("en", "es", "it")

#: Each heading whose text leaves its own cell, or whose cell leaves its list or table, with the pixels it leaves by.
OUTSIDE = r"""(selector) => {
  const problems = [];
  const range = document.createRange();
  const leaves = (text, inner, outer, what) => {
    const right = Math.round(inner.right - outer.right), left = Math.round(outer.left - inner.left);
    if (right > 0) problems.push(`"${text}" ends ${right} px past ${what}`);
    if (left > 0) problems.push(`"${text}" starts ${left} px before ${what}`);
  };
  for (const list of document.querySelectorAll(selector)) {
    if (!list.getClientRects().length) continue;
    const frame = list.getBoundingClientRect();
    const cells = list.querySelectorAll(".standings-list-head > span, thead th");
    if (!cells.length) problems.push("no headings");
    for (const cell of cells) {
      const text = cell.textContent.trim();
      const hidden = cell.querySelector(".visually-hidden");
      if (!text || (hidden && hidden.textContent.trim() === text)) continue;
      range.selectNodeContents(cell);
      const box = cell.getBoundingClientRect();
      leaves(text, box, frame, "the list");
      leaves(text, range.getBoundingClientRect(), box, "its column");
    }
  }
  return problems;
}"""


def in_language(context, language: str, live_server):
    """The context with the language cookie a visitor's choice in the header sets."""
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])
    return context


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_standings_list_fits_a_phone_in_every_language(new_context, live_server, language):
    night = realistic_night("snack-match")
    context = new_context(
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
        extra_http_headers={"Accept-Language": language},
    )
    page = in_language(context, language, live_server).new_page()
    page.goto(reverse("tournaments:standings", args=[night.event.slug]))
    assert page.locator("html").get_attribute("lang") == language
    assert page.evaluate(OUTSIDE, ".standings-list") == []
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, f"standings-360-{language}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_projector_headings_stay_in_its_table_at_1920(new_context, live_server, language):
    night = realistic_night("snack-match")
    context = new_context(viewport={"width": 1920, "height": 1080})
    page = in_language(context, language, live_server).new_page()
    page.goto(reverse("tournaments:projector", args=[night.event.slug]))
    assert page.evaluate(OUTSIDE, ".projector-table") == []
    screenshot(page, f"projector-1920-{language}")
