"""Player lists as organisers have them (Windows-1252, Excel, bad and blank lines), editing a player, check in all,
search and filters, and the players and standings as CSV and Excel downloads."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook, load_workbook

from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments.models import AuditEntry, Player
from tournaments.services.players import preview_import

pytestmark = pytest.mark.django_db

NAMES = ["Begoña Ibáñez", "Jürgen Müller", "Françoise Lefèvre", "Søren Ærø", "Ana Luísa Gonçalves"]


def upload(organiser_client, event, name: str, content: bytes, action: str = "preview"):
    url = reverse("tournaments:players_import", args=[event.slug])
    return organiser_client.post(url, {"file": SimpleUploadedFile(name, content), "action": action})


def test_a_list_saved_by_excel_on_windows_is_read_and_says_so(organiser_client, make_event):
    event = make_event("cheese-rescue", players=0)
    content = ("name;club\n" + "\n".join(f"{n};Club Ñ" for n in NAMES) + "\n").encode("cp1252")
    page = upload(organiser_client, event, "players.csv", content).content.decode()
    assert "Read as Windows-1252" in page
    assert all(name in page for name in NAMES)


def test_utf8_with_a_byte_order_mark_is_read(organiser_client, make_event):
    event = make_event("cheese-rescue", players=0)
    content = ("name,club\n" + "\n".join(f"{n},Łódź" for n in NAMES)).encode("utf-8-sig")
    page = upload(organiser_client, event, "players.csv", content).content.decode()
    assert "byte order mark" in page and "Łódź" in page


def test_an_excel_workbook_is_read_from_its_first_sheet(organiser_client, make_event):
    event = make_event("cheese-rescue", players=0)
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["Name", "Club", "Team"])
    for name in NAMES:
        sheet.append([name, "Circolo", None])
    buffer = io.BytesIO()
    workbook.save(buffer)
    page = upload(organiser_client, event, "players.xlsx", buffer.getvalue()).content.decode()
    assert "Excel workbook" in page and "5</strong> to import" in page
    url = reverse("tournaments:players_import", args=[event.slug])
    text = "Name,Club,Team\n" + "".join(f"{n},Circolo,\n" for n in NAMES)
    organiser_client.post(url, {"text": text, "action": "confirm"})
    assert sorted(event.players.values_list("name", flat=True)) == sorted(NAMES)


def test_a_file_that_is_not_a_workbook_is_refused_with_a_reason(organiser_client, make_event):
    event = make_event("cheese-rescue", players=0)
    response = upload(organiser_client, event, "players.xlsx", b"PK\x03\x04 not really a workbook")
    assert response.status_code == 400
    assert "not an Excel workbook" in response.content.decode()


def test_good_lines_are_imported_without_the_bad_ones_and_blank_lines_are_reported(organiser_client, make_event):
    event = make_event("cheese-rescue", players=0)
    good = [f"Player {n}" for n in range(10)]
    lines = ["name,club", *[f"{n},Club" for n in good[:5]], "", ",Club without a name", "\u200b,Club"]
    lines += ["", *[f"{n},Club" for n in good[5:]], f"{good[0]},Club"]
    text = "\n".join(lines) + "\n"
    url = reverse("tournaments:players_import", args=[event.slug])
    page = organiser_client.post(url, {"text": text, "action": "preview"}).content.decode()
    assert "2 blank lines skipped" in page
    assert "Import the 10 good players, skip the lines listed with errors" in page
    response = organiser_client.post(url, {"text": text, "action": "confirm-good"})
    assert response.status_code == 302
    assert sorted(event.players.values_list("name", flat=True)) == sorted(good)
    refused = organiser_client.post(url, {"text": text + "Another,Club\n", "action": "confirm"})
    assert "nothing was imported" in refused.content.decode().lower()


def test_the_organiser_edits_a_player_and_the_change_is_audited(organiser_client, make_event):
    event = make_event("cheese-rescue", players=3)
    player = event.players.get(name="Player 00")
    url = reverse("tournaments:players_edit", args=[event.slug, player.pk])
    taken = organiser_client.post(url, {"name": "player 01", "club": "", "team": "", "active": "on"})
    assert taken.status_code == 400 and "already registered" in taken.content.decode()
    invisible = organiser_client.post(url, {"name": "\u200b", "club": "", "team": "", "active": "on"})
    assert invisible.status_code == 400
    saved = organiser_client.post(url, {"name": "Paola  Rossi", "club": "Circolo", "team": "Rossi", "checked_in": "on"})
    assert saved.status_code == 302
    player.refresh_from_db()
    assert (player.name, player.club, player.team.name, player.checked_in, player.active) == (
        "Paola Rossi",
        "Circolo",
        "Rossi",
        True,
        False,
    )
    entry = AuditEntry.objects.get(subject=player, action="player-edit")
    assert entry.details["name"] == ["Player 00", "Paola Rossi"] and entry.details["active"] == [True, False]
    page = organiser_client.get(url).content.decode()
    assert "Player 00 → Paola Rossi" in page


def test_check_in_all_and_none_change_every_active_player(organiser_client, make_event):
    event = make_event("cheese-rescue", players=6)
    Player.objects.filter(event=event, name="Player 05").update(active=False)
    url = reverse("tournaments:players_check_in_all", args=[event.slug])
    organiser_client.post(url, {"present": "1"})
    assert list(event.players.filter(checked_in=True).values_list("name", flat=True).order_by("name")) == [
        f"Player {n:02d}" for n in range(5)
    ]
    asked = organiser_client.post(url, {"present": "0"})
    assert "The check-ins of 5 players will be cleared." in asked.content.decode()
    assert event.players.filter(checked_in=True).count() == 5
    organiser_client.post(url, {"present": "0", "confirm": "1"})
    assert not event.players.filter(checked_in=True).exists()
    assert AuditEntry.objects.filter(event=event, action="check-in").count() == 2


def test_search_and_filters_narrow_the_list(organiser_client, make_event, django_assert_max_num_queries):
    event = make_event("cheese-rescue", players=8)
    Player.objects.filter(event=event, name="Player 03").update(checked_in=True)
    Player.objects.filter(event=event, name="Player 04").update(active=False)
    url = reverse("tournaments:players", args=[event.slug])

    def names(**query) -> list[str]:
        page = organiser_client.get(url, query).content.decode()
        return [f"Player {n:02d}" for n in range(8) if f">Player {n:02d}<" in page]

    assert names(q="player 0") == [f"Player {n:02d}" for n in range(8)]
    assert names(q="07") == ["Player 07"]
    assert names(show="in") == ["Player 03"]
    assert names(show="dropped") == ["Player 04"]
    assert names(club="Club A") == ["Player 01", "Player 03", "Player 05", "Player 07"]
    assert names(show="nonsense") == [f"Player {n:02d}" for n in range(8)]
    with django_assert_max_num_queries(12):
        organiser_client.get(url, {"q": "Player", "club": "Club B"})


def test_players_download_as_csv_and_excel_with_formulas_neutralised(organiser_client, make_event):
    event = make_event("cheese-rescue", players=2)
    Player.objects.filter(event=event, name="Player 00").update(name="=HYPERLINK(1)", club="@SUM(A1)")
    body = organiser_client.get(reverse("tournaments:players_csv", args=[event.slug])).content.decode("utf-8")
    assert body.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(body.lstrip("\ufeff"))))
    assert rows[0][:2] == ["Name", "Club"] and ["'=HYPERLINK(1)", "'@SUM(A1)"] in [row[:2] for row in rows]
    response = organiser_client.get(reverse("tournaments:players_xlsx", args=[event.slug]))
    sheet = load_workbook(io.BytesIO(response.content)).active
    values = [[cell.value for cell in row] for row in sheet.iter_rows()]
    assert values[0][:2] == ["Name", "Club"] and ["=HYPERLINK(1)", "@SUM(A1)"] in [row[:2] for row in values]
    texts = [cell for row in sheet.iter_rows() for cell in row[:2] if cell.value in ("=HYPERLINK(1)", "@SUM(A1)")]
    assert len(texts) == 2 and all(cell.data_type == "s" and cell.quotePrefix for cell in texts)


def test_standings_download_as_excel_with_numbers_as_numbers(client, make_event):
    event = make_event("cheese-rescue", players=4, manches_per_round=1)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    enter(seat_by_hand(event, 1, [ids]).tables.get(), cheese_tallies([6, 4, 2, 1]))
    response = client.get(reverse("tournaments:standings_xlsx", args=[event.slug]))
    assert response.status_code == 200
    rows = [[cell.value for cell in row] for row in load_workbook(io.BytesIO(response.content)).active.iter_rows()]
    csv_rows = list(
        csv.reader(
            io.StringIO(
                client.get(reverse("tournaments:standings_csv", args=[event.slug])).content.decode().lstrip("\ufeff")
            )
        )
    )
    assert [str(value) for value in rows[0]] == csv_rows[0]
    assert len(rows) == 5 and any(isinstance(value, int | float) and value > 0 for value in rows[1])


# Names much like another: accents, and letters lost when the file was saved --------------------------------------


def test_a_letter_windows_1252_lost_is_flagged_beside_the_registered_player(organiser_client, make_event):
    event = make_event("cheese-rescue", players=0)
    Player.objects.create(event=event, name="Małgorzata Kowalski")
    content = "name;club\nMałgorzata Kowalski;Łódź\nJürgen Müller;Köln\n".encode("cp1252", errors="replace")
    assert b"Ma?gorzata" in content
    page = upload(organiser_client, event, "players.csv", content).content.decode()
    assert "Read as Windows-1252" in page and "Jürgen Müller" in page
    assert "<strong>2</strong> to import" in page and "<strong>1</strong> name to check" in page
    assert (
        "Line 2: “Ma?gorzata Kowalski” has “?” where the file may have lost a letter: is it “Małgorzata Kowalski”, "
        "already registered?"
    ) in page
    assert page.count('<td data-label="Check">OK</td>') == 1
    assert upload(organiser_client, event, "players.csv", content, action="confirm").status_code == 302
    assert sorted(event.players.values_list("name", flat=True)) == [
        "Jürgen Müller",
        "Ma?gorzata Kowalski",
        "Małgorzata Kowalski",
    ]


def test_a_name_that_differs_only_by_accents_is_flagged(make_event):
    event = make_event("cheese-rescue", players=0)
    Player.objects.create(event=event, name="José Núñez")
    rows = preview_import(event, "Jose Nunez\nJOSÉ NÚÑEZ\nAna Luísa\nAna Luisa\n")
    assert rows[0].warnings == [
        "Line 1: “Jose Nunez” differs from “José Núñez”, already registered, only by accents or a lost letter: "
        "is it the same player?"
    ]
    assert rows[1].duplicate and not rows[1].warnings
    assert rows[2].warnings == []
    assert rows[3].warnings == [
        "Line 4: “Ana Luisa” differs from “Ana Luísa” of line 3 only by accents or a lost letter: "
        "is it the same player?"
    ]
    assert all(row.importable for row in (rows[0], rows[2], rows[3]))


def test_replacement_characters_and_question_marks_are_flagged_alone_or_beside_a_row(make_event):
    event = make_event("cheese-rescue", players=0)
    rows = preview_import(event, "Ma\ufffdgorzata Nowak\nZo? Ærø\nZoë Ærø\nMa??gorzata Nowak\nWho? Me\n")
    assert rows[0].warnings == [
        "Line 1: “Ma\ufffdgorzata Nowak” has “\ufffd” where the file may have lost a letter: check the name."
    ]
    assert rows[2].warnings == [
        "Line 3: “Zoë Ærø” differs from “Zo? Ærø” of line 2 only by accents or a lost letter: is it the same player?"
    ]
    assert rows[3].warnings == [
        "Line 4: “Ma??gorzata Nowak” has “?” where the file may have lost a letter: is it “Ma\ufffdgorzata Nowak” "
        "of line 1?"
    ]
    assert rows[4].warnings == ["Line 5: “Who? Me” has “?” where the file may have lost a letter: check the name."]


def test_names_that_are_not_look_alikes_are_not_flagged(make_event):
    event = make_event("cheese-rescue", players=0)
    Player.objects.create(event=event, name="Małgorzata Kowalski")
    rows = preview_import(event, "Małgorzata Kowalska\nMa?gorzata Nowak\nM? Kowalski\nAnna Rossi\n")
    assert [bool(row.warnings) for row in rows] == [False, True, True, False]
    assert "already registered" not in " ".join(rows[1].warnings + rows[2].warnings)


WESTERN = "Begoña Ibáñez;Søren Ærø, Gijón\n"
CENTRAL = "Małgorzata Wiśniewska;Żółw, Łódź\n"


@pytest.mark.parametrize(
    ("text", "encoding", "said"),
    [
        (WESTERN, "utf-8", "UTF-8"),
        (WESTERN, "utf-8-sig", "byte order mark"),
        (WESTERN, "cp1252", "Windows-1252"),
        (CENTRAL, "cp1250", "Windows-1250"),
    ],
)
def test_each_encoding_is_read_as_it_was_saved(organiser_client, make_event, text, encoding, said):
    event = make_event("cheese-rescue", players=0)
    page = upload(organiser_client, event, "players.csv", text.encode(encoding)).content.decode()
    assert "Read as" in page and said in page
    name, club = text.strip().split(";")
    assert name in page and club in page and "name to check" not in page
