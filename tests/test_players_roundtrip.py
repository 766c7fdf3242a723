"""The app's own player list, downloaded as CSV or Excel, imports back: its columns are recognised, check-ins and
drops come along only when the organiser asks, and the same file read again into the same event adds nobody."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from tournaments.models import Player, Team
from tournaments.services.players import guess_separator, parse_player_csv

pytestmark = pytest.mark.django_db

NAMES = ["Íñigo Ruiz", "Siobhán O'Neill", "Łukasz Wiśniewski", "Zoë Ærø"]


@pytest.fixture
def event(make_event):
    event = make_event("cheese-rescue", players=0)
    team = Team.objects.create(event=event, name="Los Pimientos")
    for number, name in enumerate(NAMES):
        Player.objects.create(
            event=event, name=name, club="Club, Ñandú", team=team if number % 2 else None, checked_in=number < 2
        )
    Player.objects.filter(name=NAMES[3]).update(active=False)
    return event


def exported(client, event, kind: str) -> bytes:
    response = client.get(reverse(f"tournaments:players_{kind}", args=[event.slug]))
    assert response.status_code == 200
    return response.content


def upload(client, event, kind: str, content: bytes, action: str = "preview"):
    url = reverse("tournaments:players_import", args=[event.slug])
    return client.post(url, {"file": SimpleUploadedFile(f"players.{kind}", content), "action": action})


def upload_keeping(client, event, kind: str, content: bytes, action: str = "preview"):
    """``upload`` with "Keep check-ins and dropped players from the file" ticked."""
    url = reverse("tournaments:players_import", args=[event.slug])
    data = {"file": SimpleUploadedFile(f"players.{kind}", content), "action": action, "keep_status": "on"}
    return client.post(url, data)


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_the_export_imports_into_a_new_event_with_nobody_checked_in_or_dropped(
    organiser_client, event, make_event, kind
):
    content = exported(organiser_client, event, kind)
    other = make_event("veggies", players=0)
    page = upload(organiser_client, other, kind, content).content.decode()
    assert "Too many columns" not in page and "Error" not in page
    assert "<strong>4</strong> to import" in page and "<strong>0</strong> with errors" in page
    assert (
        "2 players are checked in in the file: they will be imported as not checked in. Tick “Keep check-ins and "
        "dropped players from the file” below and preview again to keep them."
    ) in page
    assert (
        "1 player is marked dropped in the file (Zoë Ærø): they will be imported as playing. Tick “Keep check-ins "
        "and dropped players from the file” below and preview again to keep them dropped."
    ) in page
    assert upload(organiser_client, other, kind, content, action="confirm").status_code == 302
    players = {p.name: p for p in other.players.select_related("team")}
    assert sorted(players) == sorted(NAMES)
    assert not any(p.checked_in for p in players.values())
    assert all(p.active for p in players.values())
    assert {p.club for p in players.values()} == {"Club, Ñandú"}
    assert players[NAMES[1]].team.name == "Los Pimientos" and players[NAMES[0]].team is None


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_the_export_keeps_its_check_ins_and_drops_when_asked(organiser_client, event, make_event, kind):
    content = exported(organiser_client, event, kind)
    other = make_event("veggies", players=0)
    page = upload_keeping(organiser_client, other, kind, content).content.decode()
    assert "2 players are checked in in the file: they will be imported checked in, as you asked." in page
    assert "1 player is marked dropped in the file (Zoë Ærø): they will be imported dropped, as you asked." in page
    assert '<input type="hidden" name="keep_status" value="on">' in page
    assert upload_keeping(organiser_client, other, kind, content, action="confirm").status_code == 302
    players = {p.name: p for p in other.players.all()}
    assert {name for name, p in players.items() if p.checked_in} == set(NAMES[:2])
    assert {name for name, p in players.items() if not p.active} == {NAMES[3]}


def test_an_active_cell_that_is_neither_yes_nor_no_is_named():
    rows = parse_player_csv("Name;Active\nAnna;gone\nLuca;no\nMarta;\n")
    assert rows[0].errors == ["The active column says “gone”: write yes or no."]
    assert [row.active for row in rows[1:]] == [False, True]


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_the_export_read_again_into_its_own_event_adds_nobody(organiser_client, event, kind):
    content = exported(organiser_client, event, kind)
    page = upload(organiser_client, event, kind, content).content.decode()
    assert "<strong>0</strong> to import · <strong>4</strong> already registered" in page
    assert page.count("Already registered: skipped.") == 4
    assert "Nothing to import: every player of the list is already registered." in page
    upload(organiser_client, event, kind, content, action="confirm")
    assert event.players.count() == 4


@pytest.mark.parametrize("language", ["es", "it"])
def test_an_export_in_spanish_or_italian_is_read_whatever_the_language(organiser_client, event, language):
    with translation.override(language):
        content = exported(organiser_client, event, "csv")
    rows = parse_player_csv(content.decode("utf-8-sig"))
    assert [row.errors for row in rows] == [[]] * 4
    assert sorted(row.name for row in rows if row.checked_in) == sorted(NAMES[:2])


def test_a_checked_in_cell_that_is_neither_yes_nor_no_is_named():
    rows = parse_player_csv("Name;Checked in\nAnna;perhaps\nLuca;sí\n")
    assert rows[0].errors == ["The checked-in column says “perhaps”: write yes or no."]
    assert rows[1].checked_in and not rows[1].errors


def test_one_line_starting_with_a_tab_does_not_make_a_pasted_list_tab_separated():
    text = "name,club\n\tAnna Rossi,Circolo A\nLuca Bianchi,Circolo B\nMarta Verdi,Circolo C\n"
    assert guess_separator(text) == ","
    rows = parse_player_csv(text)
    assert [(row.name, row.club) for row in rows] == [
        ("Anna Rossi", "Circolo A"),
        ("Luca Bianchi", "Circolo B"),
        ("Marta Verdi", "Circolo C"),
    ]
    assert not any(row.errors for row in rows)


def test_a_list_pasted_from_a_spreadsheet_is_still_tab_separated():
    text = "Anna Rossi\tCircolo A, Roma\nLuca Bianchi\tCircolo B\n"
    assert [(row.name, row.club) for row in parse_player_csv(text)] == [
        ("Anna Rossi", "Circolo A, Roma"),
        ("Luca Bianchi", "Circolo B"),
    ]


def test_the_pasted_list_with_a_stray_tab_imports_through_the_page(organiser_client, make_event):
    event = make_event("cheese-rescue", players=0)
    url = reverse("tournaments:players_import", args=[event.slug])
    text = "Anna Rossi;Circolo A\n\tLuca Bianchi;Circolo B\nMarta Verdi;Circolo C\n"
    assert organiser_client.post(url, {"text": text, "action": "confirm"}).status_code == 302
    assert sorted(event.players.values_list("name", "club")) == [
        ("Anna Rossi", "Circolo A"),
        ("Luca Bianchi", "Circolo B"),
        ("Marta Verdi", "Circolo C"),
    ]
