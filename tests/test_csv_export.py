"""CSV downloads: no cell a spreadsheet would run as a formula, numbers kept as numbers, a BOM for Excel."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments.csv_export import BOM, safe_cell, write_rows
from tournaments.services.players import parse_player_csv

NAMES = ['=HYPERLINK("http://x","y")', "@SUM(A1)", "+cmd", "-2+3", "\tx", "-3"]


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ('=HYPERLINK("http://x","y")', '\'=HYPERLINK("http://x","y")'),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("+cmd", "'+cmd"),
        ("-2+3", "'-2+3"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("-", "'-"),
        ("-3", "-3"),
        ("12.5", "12.5"),
        ("-12.5", "-12.5"),
        (-3, "-3"),
        (7, "7"),
        (None, ""),
        ("Anna = Rossi", "Anna = Rossi"),
        ("José Núñez", "José Núñez"),
    ],
)
def test_cells_that_would_be_formulas_are_neutralised_and_numbers_kept(value, cell):
    assert safe_cell(value) == cell


def test_every_cell_of_a_row_is_made_safe():
    out = io.StringIO()
    write_rows(out, [["=1+1", "-4", "@x"]])
    assert out.getvalue() == "'=1+1,-4,'@x\r\n"


@pytest.mark.django_db
def test_the_standings_csv_neutralises_formulas_in_names_and_clubs(client, make_event):
    event = make_event("cheese-rescue", players=6, table_size=3)
    players = list(event.players.order_by("pk"))
    for player, name in zip(players, NAMES):
        player.name = name
        player.club = "=1+1" if name == "+cmd" else "Club"
        player.save()
    ids = [p.pk for p in players]
    first, second = seat_by_hand(event, 1, [ids[:3], ids[3:]]).tables.order_by("number")
    enter(first, cheese_tallies([6, 4, 2]))
    enter(second, cheese_tallies([5, 3, 1]))

    response = client.get(reverse("tournaments:standings_csv", args=[event.slug]))

    assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
    assert response.content.startswith(BOM.encode("utf-8"))
    text = response.content.decode("utf-8")
    assert text.startswith(BOM) and not text.startswith(BOM + BOM)
    rows = list(csv.reader(io.StringIO(text.removeprefix(BOM))))
    header, body = rows[0], rows[1:]
    assert header[:3] == ["Rank", "Player", "Club"]
    names = {row[1] for row in body}
    assert names == {
        '\'=HYPERLINK("http://x","y")',
        "'@SUM(A1)",
        "'+cmd",
        "'-2+3",
        "'\tx",
        "-3",
    }
    assert {row[2] for row in body} == {"Club", "'=1+1"}
    points = header.index("Tournament points")
    assert sorted(row[points] for row in body) == ["1", "1", "2", "2", "4", "4"]
    for row in body:
        for cell in row:
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), row
            assert not cell.startswith("-") or cell.lstrip("-").replace(".", "", 1).isdecimal(), row


def test_the_player_list_import_still_reads_a_file_that_starts_with_a_bom():
    out = io.StringIO()
    out.write(BOM)
    write_rows(out, [["name", "club", "team"], ["José Núñez", "Club", "Red"], ["Łucja", "", ""]])
    rows = parse_player_csv(out.getvalue())
    assert [(row.name, row.club, row.team) for row in rows] == [("José Núñez", "Club", "Red"), ("Łucja", "", "")]
    assert not any(row.errors for row in rows)
