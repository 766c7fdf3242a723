"""The organiser's players page on a phone: a list saved by Excel on Windows with bad and blank lines, the good
players imported, a search, a name corrected, everyone checked in and two taken back; never wider than the phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .helpers import club_event, screenshot

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

    page.get_by_role("button", name="Check in all").click()
    expect(page.locator("#check-in-undo")).to_contain_text("14 players checked in.")
    for name in NAMES[:2]:
        row = page.locator("tr", has=page.get_by_role("link", name=f"{name} (edit)"))
        row.get_by_role("button", name=re.compile("^Undo")).click()
        expect(row.get_by_role("button", name=re.compile("^Check in"))).to_be_visible()
    assert event.players.filter(checked_in=True).count() == 12
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(page, "players-phone")
