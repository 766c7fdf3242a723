"""Every registered game, the real ones and those of ``tests/games/``, runs a whole event through the app.

For each game: set-up with its own defaults, players, seating, every table's sheets entered through the table's
link from the bundle's demo sheet, the same sheet through the JSON API, standings ranked by the bundle's
``ranking`` on the page and in every export, the printed score sheets' QR codes, a backup that imports as the same
standings, the demo, and the table form's fields given anything. Nothing here names a game but the placings game's
own test of its ranking.
"""

from __future__ import annotations

import csv
import io
import json
import random
from decimal import Decimal

import openpyxl
import pytest
from django.core.management import call_command
from django.test import Client, TestCase, override_settings
from django.urls import reverse
from django.utils.html import escape
from hypothesis import given
from hypothesis import strategies as st

from tests.contract.fuzzing import (
    FUZZ_PER_GAME,
    assert_api_answer,
    assert_form_answer,
    field_texts,
    json_values,
    near_valid_sheets,
    put,
)
from tests.contract.pages import form_values, layout_fields, pdf_qr_codes, pdf_text, posted_sheet
from tests.factories import enter, seat_by_hand
from tests.games import TEST_GAMES
from tournaments import games
from tournaments.entry.paths import document_from_fields
from tournaments.models import Event, Manche, Player, Standing, Table
from tournaments.models.rounds import RoundStatus
from tournaments.services.backup import export_event, import_event
from tournaments.standings.build import seat_results
from tournaments.standings.metrics import rank_players, shown_metrics
from tournaments.standings.refresh import rebuild_now

pytestmark = pytest.mark.django_db

with override_settings(EXTRA_GAMES=TEST_GAMES):
    #: Every game of the registry with the test games registered, by key: the suite's parameters.
    KEYS = [game.key for game in games.all_games()]

NAMES = [
    "Ada Rossi",
    "Bea Martínez",
    "Cyd Nowak",
    "Dan Bianchi",
    "Eva Łukasiewicz",
    "Fabio Esposito",
    "Gloria Núñez",
    "Hugo Ferrer",
    "Irene Conti",
    "Jakub Wróbel",
]


def table_size(game) -> int:
    """The game's default table size when its rules play it, else the rules' first."""
    sizes = game.rules.table_sizes
    return game.defaults.table_size if game.defaults.table_size in sizes else sizes[0]


def set_up(client, game) -> Event:
    """The organiser opens the set-up form for the game and saves it as it comes, with the game's own defaults."""
    page = client.get(reverse("tournaments:event_new"), {"game": game.key}).content.decode()
    values = form_values(page)
    assert values["game"] == game.key
    assert values["table_size"] == str(game.defaults.table_size)
    assert values["manches_per_round"] == str(game.defaults.manches_per_round)
    values.update(name=f"{game.name} Contract Cup", date="2026-11-21", table_size=str(table_size(game)))
    values.update(rounds_planned="2", public="on", language="en")
    response = client.post(reverse("tournaments:event_new"), values)
    assert response.status_code == 302, response.content.decode()[:3000]
    return Event.objects.get(game=game.key)


def seated_and_started(client, event: Event, players: int):
    """``players`` players imported, the first round seated by the seating service, published and started."""
    text = "\n".join(NAMES[:players])
    client.post(reverse("tournaments:players_import", args=[event.slug]), {"text": text, "action": "confirm"})
    assert event.players.count() == players
    response = client.post(reverse("tournaments:round_seat", args=[event.slug]), {"method": "mixer", "confirm": "1"})
    assert response.status_code == 302
    round_ = event.rounds.get(number=1)
    client.post(reverse("tournaments:round_publish", args=[event.slug, 1]))
    client.post(reverse("tournaments:round_start", args=[event.slug, 1]))
    round_.refresh_from_db()
    assert round_.status == RoundStatus.IN_PLAY
    return round_


def names_at(table: Table) -> list[str]:
    return [seat.player.name for seat in table.seats.select_related("player").order_by("position")]


def ranks_of(result: dict) -> list[tuple[str, int, int]]:
    return [(player["name"], player["score"], player["rank"]) for player in result["players"]]


def standings_by_name(event: Event) -> dict[str, tuple]:
    rows = Standing.objects.filter(event=event).select_related("player")
    return {row.player.name: (row.rank, row.points, row.score, row.tiebreak, row.buchholz) for row in rows}


def expected_ranks(event: Event) -> dict[str, int]:
    """Each player's rank as ``rank_players`` gives it over the stored seats, by the game's ranking."""
    names = dict(event.players.values_list("pk", "name"))
    ranked = rank_players(seat_results(event), names, event.game_bundle.ranking)
    return {names[row.player]: row.rank for row in ranked}


@pytest.fixture
def organiser_client(organiser):
    client = Client()
    client.force_login(organiser)
    return client


@pytest.mark.parametrize("key", KEYS)
def test_a_whole_event_of_every_game(key, organiser_client, tmp_path):
    game = games.get_game(key)
    event = set_up(organiser_client, game)
    size = event.table_size
    round_ = seated_and_started(organiser_client, event, 2 * size)
    tables = list(round_.tables.order_by("number"))
    assert [table.seats.count() for table in tables] == [size, size]
    rng = random.Random(key)
    client = Client()

    # Every table enters its sheets through its link, the form's fields as the game's layout draws them.
    documents: dict[tuple[int, int], dict] = {}
    for table in tables[:-1]:
        names = names_at(table)
        page = client.get(reverse("tournaments:table", args=[table.token])).content.decode()
        for manche in table.manches.order_by("number"):
            part = game.demo_sheet(rng, names, event)
            fields = posted_sheet(game, names, part, event)
            assert all(f'name="{field.name}"' in page for field in layout_fields(game, names, part, event))
            assert game.entry.normalise(document_from_fields(fields.items(), game.entry.roots)) == part
            save = reverse("tournaments:table_save", args=[table.token, manche.number])
            with TestCase.captureOnCommitCallbacks(execute=True):
                response = client.post(save, {**fields, "version": "0", "seat": "1"})
            assert response.status_code == 302, response.content.decode()[:3000]
            document = {"game": key, "variant": event.effective_variant, "players": names, **part}
            documents[table.pk, manche.number] = document
            manche.refresh_from_db()
            assert ranks_of(manche.result) == ranks_of(games.score(document))

    # The JSON API takes the first table's sheet as the form sent it, and scores it the same.
    first = tables[0]
    for manche in first.manches.order_by("number"):
        document = documents[first.pk, manche.number]
        body = {"manche": manche.number, "version": manche.version, "document": document}
        with TestCase.captureOnCommitCallbacks(execute=True):
            answer = client.put(
                reverse("tournaments:api_table_sheet", args=[first.token]),
                json.dumps(body),
                content_type="application/json",
            )
        assert answer.status_code == 200, answer.content.decode()[:3000]
        assert ranks_of(answer.json()) == ranks_of(games.score(document))

    # The last table sends its sheets through the JSON API alone.
    last = tables[-1]
    api = reverse("tournaments:api_table_sheet", args=[last.token])
    names = client.get(api).json()["players"]
    assert names == names_at(last)
    for manche in last.manches.order_by("number"):
        document = {"game": key, "players": names, **game.demo_sheet(rng, names, event)}
        body = {"manche": manche.number, "version": 0, "document": document}
        with TestCase.captureOnCommitCallbacks(execute=True):
            answer = client.put(api, json.dumps(body), content_type="application/json")
        assert answer.status_code == 200, answer.content.decode()[:3000]
        assert ranks_of(answer.json()) == ranks_of(games.score(document))
        manche.refresh_from_db()
        assert ranks_of(manche.result) == ranks_of(games.score(document))
    assert not Manche.objects.filter(table__round=round_, result__isnull=True).exists()

    # The standings rank as the game's ranking says, and every page and file lists every player.
    organiser_client.post(reverse("tournaments:round_complete", args=[event.slug, 1]))
    rebuild_now(event.pk)
    stored = standings_by_name(event)
    assert {name: row[0] for name, row in stored.items()} == expected_ranks(event)
    assert set(stored) == set(NAMES[: 2 * size])
    headings = [metric.heading_for(game) for metric in shown_metrics(game)]
    assert [metric.key for metric in shown_metrics(game)] == [
        key for key in game.ranking if key != "tiebreak" or game.tiebreak_name()
    ]
    page = client.get(reverse("tournaments:standings", args=[event.slug])).content.decode()
    assert all(name in page for name in stored) and all(escape(heading) in page for heading in headings)
    rows = list(
        csv.reader(
            io.StringIO(client.get(reverse("tournaments:standings_csv", args=[event.slug])).content.decode("utf-8-sig"))
        )
    )
    assert rows[0][-len(headings) - 1 : -1] == headings
    assert sorted(row[1] for row in rows[1:]) == sorted(stored)
    ranks_in_csv = {row[1]: int(row[0]) for row in rows[1:]}
    assert ranks_in_csv == {name: row[0] for name, row in stored.items()}
    workbook = openpyxl.load_workbook(
        io.BytesIO(client.get(reverse("tournaments:standings_xlsx", args=[event.slug])).content)
    )
    sheet = [list(row) for row in workbook.active.iter_rows(values_only=True)]
    assert sheet[0] == rows[0] and sorted(row[1] for row in sheet[1:]) == sorted(stored)
    printed = pdf_text(organiser_client.get(reverse("tournaments:print_standings", args=[event.slug])).content)
    assert all(name in printed for name in stored) and all(" ".join(h.split()) in printed for h in headings)

    # The round's score sheets: one QR code per table, each the table's link.
    sheets = organiser_client.get(reverse("tournaments:print_sheets", args=[event.slug, 1]))
    assert sheets["Content-Type"] == "application/pdf"
    links = sorted(f"http://testserver{reverse('tournaments:table', args=[t.token])}" for t in tables)
    assert sorted(set(pdf_qr_codes(sheets.content, tmp_path))) == links

    # A backup imports as the same event with the same standings, stored and rebuilt.
    backup = export_event(event)
    event.delete()
    restored = import_event(backup)
    assert restored.game == key
    assert standings_by_name(restored) == stored
    rebuild_now(restored.pk)
    assert standings_by_name(restored) == stored


def test_every_registered_game_is_in_the_suite():
    assert [game.key for game in games.all_games()] == KEYS
    assert {"high-score", "placings"} <= set(KEYS) and len(KEYS) >= 6


def test_the_demo_makes_an_event_of_every_game_that_has_one():
    """One load of the demo (it makes every game's events at once) is checked game by game."""
    call_command("load_demo")
    for key in KEYS:
        game = games.get_game(key)
        events = Event.objects.filter(game=key)
        if game.demo is None:
            assert not events.exists(), key
            continue
        running = events.get(name=game.demo.name)
        assert running.players.count() >= 8 and running.rounds.get(number=1).status == RoundStatus.IN_PLAY, key
        assert Manche.objects.filter(table__round__event=running, result__isnull=False).exists(), key
        assert events.count() > 1 and Standing.objects.filter(event__in=events, rank=1).exists(), key


# The placings game ranks by placement points alone ---------------------------------------------------------------


def tied_on_points(make_event, key: str, part: dict) -> dict[str, int]:
    """The ranks after one table of four where the first two earn the same points (1, 1, 0, 0) from ``part``."""
    event = make_event(key, players=4, table_size=4, manches_per_round=1, placement_points=[1, 1, 0, 0])
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    table = seat_by_hand(event, 1, [ids], status=RoundStatus.IN_PLAY).tables.get()
    enter(table, part)
    rebuild_now(event.pk)
    return {s.player.name: (s.rank, s.points, s.score) for s in Standing.objects.filter(event=event)}


def test_equal_points_share_a_rank_by_placings_alone_but_not_by_the_default_ranking(make_event):
    placings = tied_on_points(make_event, "placings", {"places": [1, 2, 3, 3]})
    assert placings == {
        "Player 00": (1, Decimal(1), 3),
        "Player 01": (1, Decimal(1), 2),
        "Player 02": (3, Decimal(0), 1),
        "Player 03": (3, Decimal(0), 1),
    }
    by_default = tied_on_points(make_event, "high-score", {"scores": [9, 5, 1, 1]})
    assert games.get_game("high-score").ranking == ("points", "score", "tiebreak", "buchholz")
    assert [by_default[f"Player 0{i}"][:2] for i in range(4)] == [
        (1, Decimal(1)),
        (2, Decimal(1)),
        (3, Decimal(0)),
        (3, Decimal(0)),
    ]


def test_the_placings_standings_show_placement_points_alone(make_event, client):
    event = make_event("placings", players=4, table_size=4, manches_per_round=1, public=True)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    enter(seat_by_hand(event, 1, [ids], status=RoundStatus.IN_PLAY).tables.get(), {"places": [2, 1, 4, 3]})
    rebuild_now(event.pk)
    assert [metric.key for metric in shown_metrics(event.game_bundle)] == ["points"]
    page = client.get(reverse("tournaments:standings", args=[event.slug])).content.decode()
    assert "Tournament points" in page and "Game score" not in page and "Opponents" not in page
    assert '<div class="standings-list figures-1">' in page and 'data-figure="score"' not in page, "phone list"
    header = next(
        csv.reader(
            io.StringIO(client.get(reverse("tournaments:standings_csv", args=[event.slug])).content.decode("utf-8-sig"))
        )
    )
    assert "Tournament points" in header and "Game score" not in header
    first = Player.objects.get(event=event, name="Player 01")
    for name, args in (("projector", [event.slug]), ("player", [event.slug, first.pk]), ("statistics", [event.slug])):
        shown = client.get(reverse(f"tournaments:{name}", args=args))
        assert shown.status_code == 200, name
        assert "Game score" not in shown.content.decode(), name
    assert [p.name for p in Player.objects.filter(standings__rank=1)] == ["Player 01"]


# The table form of every game, given anything -------------------------------------------------------------------


def seated_table(make_event, game) -> Table:
    size = table_size(game)
    event = make_event(game.key, players=size, table_size=size, manches_per_round=1)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    return seat_by_hand(event, 1, [ids], status=RoundStatus.IN_PLAY).tables.get()


def valid_sheet(table: Table) -> dict[str, str]:
    """The fields of a demo sheet as the game's form posts them."""
    event = table.round.event
    game = event.game_bundle
    names = names_at(table)
    return posted_sheet(game, names, game.demo_sheet(random.Random(table.pk), names, event), event)


@pytest.fixture
def fuzz_client():
    return Client(raise_request_exception=False)


@pytest.mark.parametrize("key", KEYS)
def test_generated_posts_to_the_sheet_form_are_answered_with_their_errors(key, fuzz_client, make_event):
    table = seated_table(make_event, games.get_game(key))
    url = reverse("tournaments:table_save", args=[table.token, 1])
    valid = valid_sheet(table)
    assert fuzz_client.post(url, {**valid, "seat": "1", "version": "0"}).status_code == 302

    @FUZZ_PER_GAME
    @given(
        fields=near_valid_sheets(table, valid),
        seat=st.sampled_from(["1", "2"]) | field_texts,
        version=st.just("current") | field_texts,
        htmx=st.booleans(),
    )
    def check(fields, seat, version, htmx):
        if version == "current":
            version = str(table.manches.get(number=1).version)
        extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        assert_form_answer(fuzz_client.post(url, {**fields, "seat": seat, "version": version}, **extra), table)

    check()


@pytest.mark.parametrize("key", KEYS)
def test_near_valid_sheets_put_to_the_api_get_a_json_answer(key, fuzz_client, make_event):
    game = games.get_game(key)
    table = seated_table(make_event, game)
    names = names_at(table)
    form = game.entry
    valid = valid_sheet(table)

    def document_of(fields: dict, players, extra: dict) -> dict:
        return {
            "game": key,
            "players": players,
            **form.normalise(document_from_fields(fields.items(), form.roots)),
            **extra,
        }

    assert (
        put(
            fuzz_client, table, json.dumps({"version": 0, "manche": 1, "document": document_of(valid, names, {})})
        ).status_code
        == 200
    )

    @FUZZ_PER_GAME
    @given(
        fields=near_valid_sheets(table, valid),
        version=st.just("current") | st.integers(-2, 3) | json_values,
        manche=st.just(1) | st.integers(-1, 3) | json_values,
        players=st.just(names) | json_values,
        extra=st.just({})
        | st.dictionaries(st.sampled_from(["game", "variant", "players", "x"]), json_values, max_size=2),
    )
    def check(fields, version, manche, players, extra):
        if version == "current":
            version = table.manches.get(number=1).version
        body = {"version": version, "manche": manche, "document": document_of(fields, players, extra)}
        assert_api_answer(put(fuzz_client, table, json.dumps(body)))

    check()
