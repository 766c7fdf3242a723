"""The interface in Spanish and Italian: the header's language form shows the same page in the new
language, with dates and numbers written the way that language writes them.

The words expected come from locale/<language>/LC_MESSAGES/django.po, so the tests follow the translators.
"""

from __future__ import annotations

import re
from functools import cache

import polib
import pytest
from playwright.sync_api import Page, expect

from .helpers import CHEESE_TIE, ROOT, cheese_part, settled, tournament_day

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = {"es": "Español", "it": "Italiano", "en": "English"}
#: The event's date (21 November 2026) as each language's DATE_FORMAT writes it (Django's Italian catalogue
#: capitalises month names, so the case of the month is not checked).
DATES = {"en": "Nov. 21, 2026", "es": "21 de noviembre de 2026", "it": "21 novembre 2026"}
#: Half a tournament point as each language writes it.
HALF_POINTS = {"en": "1.5", "es": "1,5", "it": "1,5"}


@cache
def catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))


def translated(language: str, text: str) -> str:
    """``text`` in ``language`` as the catalogue has it; the test fails if it is missing or fuzzy."""
    if language == "en":
        return text
    entry = catalogue(language).find(text)
    assert entry and entry.msgstr and not entry.fuzzy, f"locale/{language} has no translation of {text!r}"
    return entry.msgstr


def switch_language(page: Page, current: str, language: str) -> None:
    """Choose the language in the header's form and press its button, as a visitor would."""
    form = page.locator("form.language")
    form.get_by_label(translated(current, "Language")).select_option(label=LANGUAGES[language])
    form.get_by_role("button", name=translated(current, "Change")).click()
    expect(page.locator("html")).to_have_attribute("lang", language)


def tied_day(organiser):
    """A Cheese Rescue tournament whose round 1 had two players tied for second place at table 1."""
    return tournament_day(
        "cheese-rescue",
        organiser,
        name="Coppa del Formaggio",
        round_1=[[cheese_part(0, CHEESE_TIE)], [cheese_part(1)]],
    )


def test_the_event_page_in_spanish_then_italian_then_english(page, organiser_user):
    day = tied_day(organiser_user)
    page.goto(f"/e/{day.event.slug}/")
    address = page.url
    expect(page.locator("p.meta")).to_contain_text(DATES["en"])

    current = "en"
    for language in ("es", "it", "en"):
        switch_language(page, current, language)
        current = language
        assert page.url == address
        expect(page.get_by_role("heading", level=1)).to_have_text("Coppa del Formaggio")
        round_2 = re.sub(r"%\(number\)s", "2", translated(language, "Round %(number)s"))
        expect(page.get_by_role("heading", level=2, name=round_2)).to_be_visible()
        expect(page.get_by_role("heading", level=2, name=translated(language, "Players"), exact=True)).to_be_visible()
        meta = page.locator("p.meta")
        expect(meta).to_contain_text(re.compile(re.escape(DATES[language]), re.IGNORECASE))
        expect(meta).to_contain_text(translated(language, "Running"))
        expect(page.get_by_role("link", name=translated(language, "Organiser login"))).to_be_visible()


def half_points(cells) -> list[str]:
    """The tournament points that end in a half, as the page writes them."""
    return [text for text in cells.all_inner_texts() if re.fullmatch(r"\d+[.,]5", text.strip())]


@pytest.mark.parametrize("language", ["es", "it"])
def test_the_projector_writes_half_points_the_language_s_way(page, organiser_user, language):
    day = tied_day(organiser_user)
    page.goto(f"/e/{day.event.slug}/projector/")
    points = page.locator("#projector-page tbody td.metric-points")
    expect(points).to_have_count(8)
    assert [p.endswith(".5") for p in half_points(points)] == [True, True]
    page.goto(f"/e/{day.event.slug}/standings/")
    switch_language(page, "en", language)
    page.get_by_role("link", name=translated(language, "Projector view")).click()
    projector = page.locator("#projector-page")
    expect(projector.get_by_role("columnheader", name=translated(language, "Points"), exact=True)).to_be_visible()
    expect(points).to_have_count(8)
    assert [p.endswith(",5") for p in half_points(points)] == [True, True]


def test_the_standings_write_half_points_the_language_s_way(page, organiser_user):
    day = tied_day(organiser_user)
    page.goto(f"/e/{day.event.slug}/standings/")
    switch_language(page, "en", "es")
    expect(page.get_by_role("heading", level=1)).to_contain_text(translated("es", "Standings"))
    points = page.locator("#standings tbody td.number:nth-child(5)")
    expect(points).to_have_count(8)
    assert [p.endswith(",5") for p in half_points(points)] == [True, True]


def test_a_table_page_in_italian_keeps_its_sheet_working(phone, organiser_user):
    """The phone form in Italian: labels, live check and the saved result all speak Italian."""
    day = tied_day(organiser_user)
    table = phone()
    table.goto(f"/t/{day.empty.token}/")
    switch_language(table, "en", "it")
    expect(table.get_by_role("heading", level=1)).to_have_text(
        translated("it", "Table %(number)s").replace("%(number)s", "2")
    )
    seated = table.locator("ol.seats li").all_inner_texts()
    game = table.locator("#manche-1")
    table.get_by_role("group", name=translated("it", "I am")).get_by_role("radio").first.check()
    points_label = translated("it", "Cheese points left")
    cards_label = translated("it", "Cheese cards left")
    for name, (points, cards) in zip(seated, [(9, 5), (6, 3), (4, 2), (1, 1)]):
        game.get_by_label(f"{points_label}: {name}").fill(str(points))
        game.get_by_label(f"{cards_label}: {name}").fill(str(cards))
    expect(game.locator("#live-1-0")).to_contain_text(translated("it", "possible with the cards left"))
    expect(game.locator("#live-1-0")).to_contain_text(translated("it", "Score"))
    settled(table)
    game.get_by_role("button", name=translated("it", "Save"), exact=True).click()
    expect(game.get_by_role("status")).to_have_text(
        translated("it", "Saved. Another player now confirms it with their own player card.")
    )
    expect(game.get_by_role("table", name=translated("it", "Result at the table"))).to_be_visible()
