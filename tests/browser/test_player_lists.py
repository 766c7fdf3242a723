"""The organiser's players page on a phone: a list saved by Excel on Windows with bad and blank lines, the good
players imported, a search, a name corrected, everyone checked in and two taken back; never wider than the phone.
On a laptop, last week's list says what becomes of its check-ins, its dropped player and a letter Windows lost."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, logged_in
from .helpers import club_event, layout_problems, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Begoña Ibáñez", "Jürgen Müller", "Françoise Lefèvre", "Søren Ærø", "Ana Luísa Gonçalves", "José Núñez"]


def test_an_excel_list_edited_and_checked_in_on_a_phone(organiser_phone, organiser_user, tmp_path):
    page = organiser_phone
    event = club_event("cheese-rescue", name="Cheese Night", organiser=organiser_user)
    lines = ["Nombre;Club", *[f"{name};Asociación Lúdica, València" for name in NAMES], "", ";Sin nombre"]
    lines += [f"{NAMES[0]};Otra vez"]
    path = tmp_path / "jugadores.csv"
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode("cp1252"))

    page.goto(f"/e/{event.slug}/organiser/players/import/")
    page.get_by_label("CSV or Excel file").set_input_files(path)
    page.get_by_role("button", name="Preview").click()
    preview = page.locator("#import-preview")
    expect(preview).to_contain_text("Read as Windows-1252")
    expect(preview).to_contain_text("1 blank line skipped")
    screenshot(page, "players-import-windows-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.get_by_role("button", name=re.compile("^Import the 6 good players")).click()
    expect(page.locator("ul.messages")).to_contain_text("6 players imported.")

    page.get_by_label("Find a player").fill("núñez")
    page.get_by_role("button", name="Filter").click()
    rows = page.locator("#player-list ~ table tbody tr")
    expect(rows).to_have_count(1)
    rows.get_by_role("link", name="José Núñez (edit)").click()
    page.get_by_label("Name").fill("José Núñez Pérez")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("ul.messages")).to_contain_text("José Núñez Pérez saved.")

    page.locator("summary", has_text="Several players").click()
    page.get_by_role("button", name="Check in all").click()
    expect(page.locator("#check-in-undo")).to_contain_text("14 players checked in.")
    for name in NAMES[:2]:
        row = page.locator("tr", has=page.get_by_role("link", name=f"{name} (edit)"))
        row.get_by_role("button", name=re.compile("^Undo")).click()
        expect(row.get_by_role("button", name=re.compile("^Check in"))).to_be_visible()
    assert event.players.filter(checked_in=True).count() == 12
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(page, "players-phone")


#: Last week's player list as Excel on Windows saves it again: Windows-1252, where Ł becomes "?".
LAST_WEEK = [
    "Name;Club;Team;Checked in;Active",
    "Małgorzata Kowalski;Klub Planszówka;;Yes;Yes",
    *[f"{name};Asociación Lúdica;;Yes;Yes" for name in NAMES[1:]],
    f"{NAMES[0]};Asociación Lúdica;;Yes;No",
]


@pytest.mark.parametrize("language", ["en", "es", "it"])
def test_last_weeks_list_says_what_becomes_of_its_check_ins_drops_and_lost_letters(
    new_context, organiser_user, live_server, tmp_path, language
):
    event = club_event("cheese-rescue", name="Cheese Night", organiser=organiser_user)
    event.players.create(name="Małgorzata Kowalski", club="Klub Planszówka")
    path = tmp_path / "last-week.csv"
    path.write_bytes(("\r\n".join(LAST_WEEK) + "\r\n").encode("cp1252", errors="replace"))
    context = logged_in(new_context(viewport=DESKTOP), organiser_user, live_server)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()

    page.goto(f"/e/{event.slug}/organiser/players/import/")
    page.locator("input[name=file]").set_input_files(path)
    page.locator("button[value=preview]").click()
    expect(page.locator("#import-check-ins")).to_contain_text("7")
    expect(page.locator("#import-dropped")).to_contain_text(NAMES[0])
    warned = page.locator("#import-preview tbody tr.warning")
    expect(warned).to_have_count(1)
    expect(warned).to_contain_text("Ma?gorzata Kowalski")
    expect(warned).to_contain_text("Małgorzata Kowalski")
    expect(page.locator("#import-preview")).to_contain_text("Windows-1252")
    assert layout_problems(page) == []
    screenshot(page, f"players-import-last-week-{language}", full_page=True)

    page.locator("input[name=file]").set_input_files(path)
    page.locator("input[name=keep_status]").check()
    page.locator("button[value=preview]").click()
    expect(page.locator("#import-check-ins")).not_to_have_class(re.compile("warning"))
    expect(page.locator("#import-preview tbody")).to_contain_text(NAMES[0])
    screenshot(page, f"players-import-last-week-kept-{language}")
    page.locator("button[value=confirm]").click()
    expect(page.locator("ul.messages")).to_be_visible()
    assert event.players.filter(name="Ma?gorzata Kowalski", checked_in=True).exists()
    assert not event.players.get(name=NAMES[0]).active
