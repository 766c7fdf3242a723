"""The organiser's players: adding, importing a CSV list, checking in, dropping and reinstating."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import seat_by_hand
from tournaments.models import Player, Team
from tournaments.models.rounds import RoundStatus
from tournaments.services.players import (
    DuplicateName,
    ImportRefused,
    add_player,
    import_players,
    parse_player_csv,
    preview_import,
)

pytestmark = pytest.mark.django_db

DATA = Path(__file__).parent / "data"


def url(name: str, event, player=None) -> str:
    kwargs = {"slug": event.slug} if player is None else {"slug": event.slug, "player_id": player.pk}
    return reverse(f"tournaments:{name}", kwargs=kwargs)


def values(rows) -> list[tuple[str, str, str]]:
    return [(row.name, row.club, row.team) for row in rows]


def errors_of(rows) -> dict[int, str]:
    return {row.number: " ".join(row.errors) for row in rows if row.errors}


# Parsing: a pure function, no database.


def test_semicolons_without_header_are_name_club_team():
    rows = parse_player_csv("Anna Rossi;Circolo A;Le Zucchine\nLuca Bianchi;Circolo B\nMarta\n")
    assert values(rows) == [
        ("Anna Rossi", "Circolo A", "Le Zucchine"),
        ("Luca Bianchi", "Circolo B", ""),
        ("Marta", "", ""),
    ]
    assert [row.number for row in rows] == [1, 2, 3]
    assert all(row.importable for row in rows)


def test_commas_with_a_quoted_comma_in_a_name():
    rows = parse_player_csv('name,club,team\n"Rossi, Anna",Circolo A,\nLuca Bianchi,Circolo B,Red\n')
    assert values(rows) == [("Rossi, Anna", "Circolo A", ""), ("Luca Bianchi", "Circolo B", "Red")]


def test_a_comma_inside_a_semicolon_list_stays_in_the_value():
    rows = parse_player_csv("Núñez, José;Club, Madrid\n")
    assert values(rows) == [("Núñez, José", "Club, Madrid", "")]


@pytest.mark.parametrize(
    "header",
    [
        "Nombre;Club;Equipo",
        "nome;circolo;squadra",
        "NAME;CLUB;TEAM",
        "Jugador;Club;Equipo",
        "Giocatore;Circolo;Squadra",
    ],
)
def test_a_header_in_english_spanish_or_italian_is_recognised(header):
    rows = parse_player_csv(f"{header}\nŁucja Kowalska;Kraków;Pierogi\n")
    assert values(rows) == [("Łucja Kowalska", "Kraków", "Pierogi")]
    assert rows[0].number == 2


def test_a_header_sets_the_column_order():
    rows = parse_player_csv("squadra;nome\nLe Zucchine;Anna Rossi\n")
    assert values(rows) == [("Anna Rossi", "", "Le Zucchine")]


def test_a_first_row_that_is_not_a_header_is_a_player():
    rows = parse_player_csv("Anna Rossi;Circolo A\n")
    assert values(rows) == [("Anna Rossi", "Circolo A", "")]


def test_bom_accents_and_blank_lines_from_a_spanish_file():
    text = (DATA / "players_es_bom.csv").read_bytes().decode("utf-8")
    assert text.startswith("\ufeff")
    rows = parse_player_csv(text)
    assert values(rows) == [
        ("Łucja Kowalska", "Club de Tarot Núñez", "Los Pimientos"),
        ("José Núñez", "Club de Tarot Núñez", ""),
        ("Jürgen Müller", "", "Los Pimientos"),
    ]
    assert [row.number for row in rows] == [2, 4, 5]


def test_blank_lines_and_separator_only_lines_are_ignored():
    rows = parse_player_csv("\n\nAnna\n   \n;;\n\nLuca\n\n")
    assert values(rows) == [("Anna", "", ""), ("Luca", "", "")]
    assert [row.number for row in rows] == [3, 7]


def test_spacing_is_tidied():
    rows = parse_player_csv("  Anna    Rossi ;  Circolo A  ;\n")
    assert values(rows) == [("Anna Rossi", "Circolo A", "")]


def test_tabs_from_a_pasted_spreadsheet():
    rows = parse_player_csv("Anna Rossi\tCircolo A\tRed\n")
    assert values(rows) == [("Anna Rossi", "Circolo A", "Red")]


def test_every_row_error_is_named():
    long_name = "x" * 101
    text = "\n".join(
        [
            "name;club;team",
            ";Circolo A;Red",
            f"{long_name};Circolo A",
            "Anna;Circolo A;Red;extra",
            "Luca;" + "c" * 101,
            "Marta;;" + "t" * 101,
            "Anna",
            "ANNA ",
            "Giulia",
        ]
    )
    rows = parse_player_csv(text)
    errors = errors_of(rows)
    assert "name is missing" in errors[2]
    assert "name is longer than 100 characters" in errors[3]
    assert "Too many columns" in errors[4]
    assert "club is longer than 100 characters" in errors[5]
    assert "team is longer than 100 characters" in errors[6]
    assert "Same name as line 4" in errors[7]
    assert "Same name as line 4" in errors[8]
    assert 9 not in errors
    assert len(rows) == 8


def test_a_name_of_exactly_100_characters_is_fine():
    rows = parse_player_csv("y" * 100 + ";club")
    assert rows[0].importable


def test_trailing_empty_columns_are_not_too_many():
    rows = parse_player_csv("Anna;Circolo A;Red;;\n")
    assert rows[0].importable


def test_already_registered_names_are_flagged_not_errors():
    rows = parse_player_csv("Anna Rossi;A\nluca  bianchi;B\nMarta;C\n", registered={"luca bianchi"})
    assert [row.duplicate for row in rows] == [False, True, False]
    assert not any(row.errors for row in rows)
    assert [row.importable for row in rows] == [True, False, True]


# Import through the page: preview, then confirm.


@pytest.fixture
def event(make_event):
    return make_event("cheese-rescue", players=3, table_size=3)


def preview(client, event, **data):
    return client.post(url("players_import", event), {"action": "preview", **data})


def test_the_import_page_shows_the_form(organiser_client, event):
    page = organiser_client.get(url("players_import", event)).content.decode()
    assert 'type="file"' in page and "<textarea" in page
    assert 'enctype="multipart/form-data"' in page


def test_preview_shows_every_row_and_saves_nothing(organiser_client, event):
    text = "nome;circolo;squadra\nŁucja Kowalska;Kraków;Pierogi\nplayer 01;Club A;\n;Orphan Club;\n"
    response = preview(organiser_client, event, text=text)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Łucja Kowalska" in page and "Kraków" in page
    assert "Already registered: skipped." in page
    assert "The name is missing." in page
    assert "Nothing was saved" in page
    assert 'value="confirm"' not in page
    assert event.players.count() == 3
    assert not Team.objects.filter(event=event).exists()


def test_preview_of_an_uploaded_file_with_bom(organiser_client, event):
    upload = SimpleUploadedFile("players.csv", (DATA / "players_es_bom.csv").read_bytes(), content_type="text/csv")
    page = preview(organiser_client, event, file=upload).content.decode()
    for name in ("Łucja Kowalska", "José Núñez", "Jürgen Müller"):
        assert name in page
    assert "Import 3 players" in page
    assert event.players.count() == 3


def test_a_file_not_in_utf8_is_read_as_windows_1252_and_says_so(organiser_client, event):
    upload = SimpleUploadedFile("players.csv", "José Núñez;Club".encode("cp1252"))
    response = preview(organiser_client, event, file=upload)
    assert response.status_code == 200
    page = response.content.decode()
    assert "José Núñez" in page and "Read as Windows-1252" in page


def test_an_empty_import_asks_for_a_file_or_text(organiser_client, event):
    response = preview(organiser_client, event, text="  \n")
    assert response.status_code == 400
    assert "Choose a CSV file or paste the list of players." in response.content.decode()


def confirm_text(page: str) -> str:
    """The text the preview's confirm form sends back, as a browser would."""
    match = re.search(r'<input type="hidden" name="text" value="([^"]*)">', page, re.S)
    assert match, "the preview offers no confirmation"
    return html.unescape(match.group(1))


def test_confirm_saves_exactly_the_good_rows_and_skips_duplicates(organiser_client, event):
    upload = SimpleUploadedFile("players.csv", (DATA / "players_it_comma.csv").read_bytes())
    organiser_client.post(url("players_add", event), {"name": "Luca Bianchi", "club": "Circolo B"})
    page = preview(organiser_client, event, file=upload).content.decode()
    assert "Import 2 players" in page
    text = confirm_text(page)
    assert event.players.count() == 4
    response = organiser_client.post(url("players_import", event), {"action": "confirm", "text": text}, follow=True)
    assert response.redirect_chain[-1][0] == url("players", event)
    assert "2 players imported. 1 already registered, skipped." in response.content.decode()
    assert event.players.count() == 6
    anna = event.players.get(name="Rossi, Anna")
    elodie = event.players.get(name="Élodie Faure")
    assert anna.club == "Circolo Scopone" and anna.team == elodie.team
    assert anna.team.name == "Le Zucchine"
    assert event.players.get(name="Luca Bianchi").club == "Circolo B"
    assert Team.objects.filter(event=event).count() == 1


def test_confirm_of_a_bad_list_is_refused_and_shows_its_rows(organiser_client, event):
    text = "Anna Rossi;A\nAnna Rossi;B\n" + "z" * 101 + "\n"
    response = organiser_client.post(url("players_import", event), {"action": "confirm", "text": text})
    page = response.content.decode()
    assert response.status_code == 200
    assert "Some rows have errors: nothing was imported." in page
    assert "Same name as line 1" in page and "longer than 100 characters" in page
    assert "Anna Rossi;A\nAnna Rossi;B\n" + "z" * 101 in page
    assert event.players.count() == 3


def test_confirm_revalidates_against_players_registered_meanwhile(organiser_client, event):
    text = "Anna Rossi;A\nLuca Bianchi;B\n"
    page = preview(organiser_client, event, text=text).content.decode()
    add_player(event, "ANNA ROSSI")
    organiser_client.post(url("players_import", event), {"action": "confirm", "text": confirm_text(page)})
    assert sorted(event.players.values_list("name", flat=True)) == [
        "ANNA ROSSI",
        "Luca Bianchi",
        "Player 00",
        "Player 01",
        "Player 02",
    ]


def test_confirm_with_only_registered_players_imports_nothing(organiser_client, event):
    response = organiser_client.post(url("players_import", event), {"action": "confirm", "text": "Player 00\n"})
    assert "Nothing to import" in response.content.decode()
    assert event.players.count() == 3


def test_import_players_refuses_rows_with_errors(event):
    rows = preview_import(event, "Anna\n;club\n")
    with pytest.raises(ImportRefused):
        import_players(event, rows)
    assert event.players.count() == 3


# The players page: adding, checking in, dropping.


def test_players_page_lists_players_and_counts(organiser_client, event):
    player = event.players.get(name="Player 01")
    player.team = Team.objects.create(event=event, name="Red")
    player.checked_in = True
    player.save()
    event.players.filter(name="Player 02").update(active=False)
    page = organiser_client.get(url("players", event)).content.decode()
    assert all(f"Player 0{i}" in page for i in range(3))
    assert "Club A" in page and "Team Red" in page
    assert "3 players, 1 checked in, 1 dropped" in page
    assert page.count(">Reinstate Player 02<") == 1 and page.count(">Drop Player 0") == 2


def test_adding_a_player_with_a_new_team(organiser_client, event):
    response = organiser_client.post(
        url("players_add", event),
        {"name": "  Jürgen   Müller ", "club": "Berlin", "team": "Die Möhren", "checked_in": "on"},
        follow=True,
    )
    assert "Jürgen Müller added." in response.content.decode()
    player = event.players.get(name="Jürgen Müller")
    assert player.checked_in and player.club == "Berlin" and player.team.name == "Die Möhren"
    organiser_client.post(url("players_add", event), {"name": "Anna", "team": "die möhren"})
    assert event.players.get(name="Anna").team == player.team


def test_a_duplicate_name_is_a_form_error_and_keeps_what_was_typed(organiser_client, event):
    response = organiser_client.post(url("players_add", event), {"name": "player 01", "club": "Elsewhere"})
    page = response.content.decode()
    assert response.status_code == 400
    assert response.context["form"].errors["name"] == [
        "A player called player 01 is already registered: names must differ (capitals do not count)."
    ]
    assert 'value="Elsewhere"' in page
    assert event.players.count() == 3


def test_a_duplicate_name_with_other_letters_case_is_refused_by_the_service(event):
    add_player(event, "Łucja Núñez")
    with pytest.raises(DuplicateName):
        add_player(event, "ŁUCJA NÚÑEZ")


def test_a_missing_name_names_the_field(organiser_client, event):
    response = organiser_client.post(url("players_add", event), {"name": "", "club": "Somewhere"})
    assert response.status_code == 400
    assert response.context["form"].errors["name"] == ["This field is required."]


def test_a_player_added_after_round_one_is_late(organiser_client, event):
    ids = list(event.players.values_list("pk", flat=True))
    seat_by_hand(event, 1, [ids])
    response = organiser_client.post(url("players_add", event), {"name": "Latecomer"}, follow=True)
    page = response.content.decode()
    assert "registered late" in page
    latecomer = event.players.get(name="Latecomer")
    row = page[page.index(f'<tr id="player-{latecomer.pk}"') :]
    assert "<em>(late)</em>" in row[: row.index("</tr>")]
    assert page.count("<em>(late)</em>") == 1


def test_no_one_is_late_before_round_one(organiser_client, event):
    page = organiser_client.get(url("players", event)).content.decode()
    assert "(late)" not in page


def test_check_in_and_undo_without_javascript(organiser_client, event):
    player = event.players.get(name="Player 00")
    response = organiser_client.post(url("players_check_in", event, player), {"checked_in": "1"}, follow=True)
    assert "Player 00 checked in." in response.content.decode()
    player.refresh_from_db()
    assert player.checked_in
    organiser_client.post(url("players_check_in", event, player), {"checked_in": "0"})
    player.refresh_from_db()
    assert not player.checked_in


def test_htmx_check_in_answers_with_the_row_and_the_counts(organiser_client, event):
    player = event.players.get(name="Player 00")
    response = organiser_client.post(
        url("players_check_in", event, player), {"checked_in": "1"}, HTTP_HX_REQUEST="true"
    )
    page = response.content.decode()
    assert page.lstrip().startswith(f'<tr id="player-{player.pk}"')
    assert "Undo" in page
    assert 'id="player-counts" class="meta" role="status" hx-swap-oob="true"' in page
    assert "3 players, 1 checked in, 0 dropped" in page
    assert "<html" not in page


def test_a_player_of_another_event_is_not_found(organiser_client, event, make_event):
    other = make_event("veggies", players=2).players.first()
    response = organiser_client.post(url("players_drop", event, other))
    assert response.status_code == 404
    other.refresh_from_db()
    assert other.active


def test_actions_need_post(organiser_client, event):
    player = event.players.first()
    assert organiser_client.get(url("players_drop", event, player)).status_code == 405


def test_drop_keeps_the_player_and_results_but_seats_them_no_more(organiser_client, event):
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    seat_by_hand(event, 1, [ids], status=RoundStatus.COMPLETE)
    dropped = event.players.get(pk=ids[0])
    response = organiser_client.post(url("players_drop", event, dropped), HTTP_HX_REQUEST="true")
    assert f'<tr id="player-{dropped.pk}" class="muted">' in response.content.decode()
    assert "Reinstate" in response.content.decode()
    dropped.refresh_from_db()
    assert not dropped.active and dropped.seats.count() == 1
    assert set(Player.objects.filter(event=event, active=True).values_list("pk", flat=True)) == set(ids[1:])
    page = organiser_client.get(url("players", event)).content.decode()
    assert dropped.name in page and "3 players, 0 checked in, 1 dropped" in page


def test_a_dropped_player_is_not_seated_by_the_next_round(make_event, organiser_client):
    from tournaments.services.seating import seat_next_round

    event = make_event("cheese-rescue", players=9, table_size=4)
    dropped = event.players.get(name="Player 03")
    organiser_client.post(url("players_drop", event, dropped))
    round_ = seat_next_round(event)
    seated = set(round_.seats.values_list("player_id", flat=True))
    assert dropped.pk not in seated and len(seated) == 8
    organiser_client.post(url("players_reinstate", event, dropped))
    round_.status = RoundStatus.COMPLETE
    round_.save()
    assert dropped.pk in set(seat_next_round(event).seats.values_list("player_id", flat=True))


def test_reinstate_makes_the_player_active_again(organiser_client, event):
    player = event.players.get(name="Player 02")
    organiser_client.post(url("players_drop", event, player))
    response = organiser_client.post(url("players_reinstate", event, player), follow=True)
    assert "Player 02 reinstated" in response.content.decode()
    player.refresh_from_db()
    assert player.active
    assert Player.objects.filter(event=event, active=True).count() == 3


# Who may do it.


def test_login_is_required(client, event):
    for name in ("players", "players_import"):
        response = client.get(url(name, event))
        assert response.status_code == 302 and reverse("login") in response["Location"]
    player = event.players.first()
    response = client.post(url("players_drop", event, player))
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.active


def test_a_user_who_does_not_run_the_event_gets_403(client, event, django_user_model):
    client.force_login(django_user_model.objects.create_user("stranger", password="a-long-test-password"))
    player = event.players.first()
    assert client.get(url("players", event)).status_code == 403
    assert client.get(url("players_import", event)).status_code == 403
    assert client.post(url("players_add", event), {"name": "Intruder"}).status_code == 403
    assert client.post(url("players_import", event), {"action": "confirm", "text": "Intruder"}).status_code == 403
    assert client.post(url("players_drop", event, player)).status_code == 403
    assert client.post(url("players_check_in", event, player), {"checked_in": "1"}).status_code == 403
    player.refresh_from_db()
    assert player.active and not player.checked_in
    assert event.players.count() == 3


def test_an_organiser_named_by_the_event_may_run_it(client, event, django_user_model):
    user = django_user_model.objects.create_user("helper", password="a-long-test-password")
    event.organisers.add(user)
    client.force_login(user)
    assert client.get(url("players", event)).status_code == 200
    client.post(url("players_add", event), {"name": "Helper's friend"})
    assert event.players.filter(name="Helper's friend").exists()


def test_a_post_without_csrf_token_is_refused(event, organiser):
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    player = event.players.first()
    assert client.post(url("players_check_in", event, player), {"checked_in": "1"}).status_code == 403
    assert client.post(url("players_add", event), {"name": "Sneaky"}).status_code == 403
    assert client.post(url("players_import", event), {"action": "confirm", "text": "Sneaky"}).status_code == 403
    player.refresh_from_db()
    assert not player.checked_in and event.players.count() == 3
    page = client.get(url("players", event)).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    response = client.post(url("players_check_in", event, player), {"checked_in": "1", "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.checked_in


# Cost.


def players_page_queries(client, event) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url("players", event)).status_code == 200
    return len(queries)


def test_players_page_query_count_does_not_grow_with_players(
    organiser_client, make_event, django_assert_max_num_queries
):
    small = make_event("cheese-rescue", players=3, table_size=3)
    large = make_event("veggies", players=40)
    for event in (small, large):
        for player in event.players.all()[:2]:
            player.team = Team.objects.create(event=event, name=f"Team of {player.name}")
            player.save()
        seat_by_hand(event, 1, [list(event.players.values_list("pk", flat=True)[:3])])
    small_count = players_page_queries(organiser_client, small)
    assert players_page_queries(organiser_client, large) == small_count
    with django_assert_max_num_queries(6):
        organiser_client.get(url("players", large))
