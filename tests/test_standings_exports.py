"""The standings' files (CSV, Excel, PDF) and screens: numbers as numbers, players without a result shown as such,
the players who did not play apart from the ranking, and long names whole on the seating."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments.models import Player
from tournaments.models.rounds import RoundStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(make_event):
    """Ten players, two never seated; round 1 in play, table 1 scored with a tie for second, table 2 still playing."""
    event = make_event("cheese-rescue", players=10, manches_per_round=1)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    Player.objects.filter(pk=ids[0]).update(name="=HYPERLINK(1)")
    first, _second = seat_by_hand(event, 1, [ids[:4], ids[4:8]], status=RoundStatus.IN_PLAY).tables.order_by("number")
    enter(first, cheese_tallies([5, 4, 4, 1]))
    return event


def csv_rows(client, event) -> list[list[str]]:
    body = client.get(reverse("tournaments:standings_csv", args=[event.slug])).content.decode("utf-8-sig")
    return list(csv.reader(io.StringIO(body)))


def workbook_sheet(client, event):
    response = client.get(reverse("tournaments:standings_xlsx", args=[event.slug]))
    return load_workbook(io.BytesIO(response.content)).active


def pdf_text(content: bytes) -> str:
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(content)).pages)


def test_the_excel_standings_hold_numbers_as_numbers_and_names_as_text_without_an_apostrophe(client, night):
    sheet = workbook_sheet(client, night)
    header = [cell.value for cell in next(sheet.iter_rows())]
    points = header.index("Tournament points")
    rows = list(sheet.iter_rows(min_row=2))
    scored = [row for row in rows if row[header.index("Rounds")].value == 1]
    assert len(scored) == 4
    for row in scored:
        assert row[0].data_type == "n" and isinstance(row[0].value, int)
        assert row[points].data_type == "n" and isinstance(row[points].value, int | float)
        assert not isinstance(row[points].value, str)
    halves = [row[points] for row in scored if isinstance(row[points].value, float)]
    assert halves and all(cell.value % 1 == 0.5 and cell.number_format == "0.0#" for cell in halves)
    wholes = [row[points] for row in scored if isinstance(row[points].value, int)]
    assert wholes and all(cell.number_format == "General" for cell in wholes)
    formula = next(row[header.index("Player")] for row in rows if "HYPERLINK" in str(row[header.index("Player")].value))
    assert formula.value == "=HYPERLINK(1)", "no apostrophe shows"
    assert formula.data_type == "s" and formula.quotePrefix, "kept as text: no formula runs"


def test_players_without_a_result_show_a_dash_and_those_who_did_not_play_are_left_out(client, night):
    ids = list(night.players.order_by("pk").values_list("pk", flat=True))
    names = dict(night.players.values_list("pk", "name"))
    playing = {names[pk] for pk in ids[4:8]}
    absent = {names[pk] for pk in ids[8:]}

    projector = client.get(reverse("tournaments:projector", args=[night.slug])).content.decode()
    lines = {re.search(r'<td class="name">([^<]+?) ?<', row).group(1): row for row in projector.split("<tr")[2:]}
    assert set(lines) == {*playing, *(name for name in names.values() if name not in playing | absent)}
    for name in playing:
        assert re.search(r'<td class="number">([^<]*)</td>', lines[name]).group(1) == "–"
        assert '<span class="tag">playing</span>' in lines[name]
        assert re.findall(r'class="number metric-\w+">([^<]*)<', lines[name]) == ["–", "–", "–"]
    assert not any(name in projector for name in absent)

    page = client.get(reverse("tournaments:standings", args=[night.slug])).content.decode()
    listed, apart = page.split('class="standings-absent"')
    assert all(name in listed for name in playing) and not any(name in listed for name in absent)
    assert "Did not play (2 players)" in apart and all(name in apart for name in absent)
    assert reverse("tournaments:standings_xlsx", args=[night.slug]) in listed, "the Excel file is offered"

    rows = csv_rows(client, night)
    assert not any(row[1] in absent for row in rows)
    for row in rows:
        if row[1] in playing:
            assert row[0] == "" and set(row[3:-1]) == {""} and row[-1] == "0"
    sheet = workbook_sheet(client, night)
    assert not any(row[1] in absent for row in sheet.iter_rows(values_only=True))


def test_the_printed_standings_list_the_players_who_did_not_play_apart(organiser_client, night):
    ids = list(night.players.order_by("pk").values_list("pk", flat=True))
    names = dict(night.players.values_list("pk", "name"))
    content = organiser_client.get(reverse("tournaments:print_standings", args=[night.slug])).content
    text = pdf_text(content)
    ranking, apart = text.split("Did not play (2 players)")
    assert all(names[pk] in ranking for pk in ids[:8])
    assert all(names[pk] in apart and names[pk] not in ranking for pk in ids[8:])
    assert re.search(rf"– {re.escape(names[ids[4]])} · playing", ranking)


def test_a_very_long_name_wraps_on_the_seating_at_its_full_size(organiser_client, make_event):
    event = make_event("cheese-rescue", players=4, manches_per_round=1)
    long_name = "Maria Guadalupe Hernández-Fernández de la Santísima Trinidad Bartholomew"
    Player.objects.filter(event=event, name="Player 00").update(name=long_name)
    seat_by_hand(event, 1, [list(event.players.order_by("pk").values_list("pk", flat=True))])
    content = organiser_client.get(reverse("tournaments:print_seating", args=[event.slug, 1])).content
    reader = PdfReader(io.BytesIO(content))
    for page, size in zip(reader.pages, (10, 11)):
        sizes: list[float] = []

        def note(text, cm, tm, font, font_size, sizes=sizes):
            if text.strip() and text.strip() in long_name:
                sizes.append(font_size * tm[0])

        text = page.extract_text(visitor_text=note)
        assert " ".join(text.split()).count(long_name) == 1, "the whole name, once, on two lines"
        assert len([line for line in text.splitlines() if line.strip() and line.strip() in long_name]) >= 2
        assert sizes and min(sizes) == pytest.approx(size), "not shrunk"


def test_the_desk_offers_the_standings_as_pdf_csv_and_excel(organiser_client, night):
    desk = organiser_client.get(reverse("tournaments:event_manage", args=[night.slug])).content.decode()
    for name in ("print_standings", "standings_csv", "standings_xlsx"):
        assert reverse(f"tournaments:{name}", args=[night.slug]) in desk
