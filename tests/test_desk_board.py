"""The desk during a round: alerts, the clock, then a board of the round's tables (a tile each, its state by colour
and by word, its players, its last change), counts and filters by state, refreshed live through a partial that
answers 204 while nothing changed; the settings below."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments.models import Table
from tournaments.models.rounds import RoundStatus, TableStatus
from tournaments.services.audit import Author
from tournaments.services.desk_board import State, short_names, table_state
from tournaments.services.sheets import confirm_sheet, dispute_sheet

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
ORGANISER = Author(via="organiser")


def confirm(table: Table) -> None:
    manche = table.manches.get(number=1)
    confirm_sheet(manche, version=manche.version, author=ORGANISER)


def dispute(table: Table) -> None:
    seat = table.seats.select_related("player").get(position=2)
    author = Author(via="player", player=seat.player, seat=2)
    dispute_sheet(table.manches.get(number=1), author, reason="Wrong total")


def every_state(event, number: int = 1):
    """Round ``number`` in play, a table in each state: 1 empty, 2 entered, 3 to confirm, 4 confirmed, 5 disputed,
    6 locked (its sheet entered)."""
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    round_ = seat_by_hand(event, number, [ids[i : i + 4] for i in range(0, 24, 4)], status=RoundStatus.IN_PLAY)
    tables = {table.number: table for table in round_.tables.all()}
    enter(tables[2], cheese_tallies([9, 5, 3, 1]))
    for number in (3, 4, 5, 6):
        enter(tables[number], cheese_tallies([9, 5, 3, 1]))
        enter(tables[number], cheese_tallies([6, 4, 2, 1]), manche_number=2)
    confirm(tables[4])
    manche = tables[4].manches.get(number=2)
    confirm_sheet(manche, version=manche.version, author=ORGANISER)
    dispute(tables[5])
    Table.objects.filter(pk=tables[6].pk).update(locked=True)
    return round_


@pytest.fixture
def playing(make_event):
    event = make_event("cheese-rescue", players=24, manches_per_round=2)
    return event, every_state(event)


def desk(event, query: str = "") -> str:
    return reverse("tournaments:event_manage", args=[event.slug]) + query


def board_url(event, query: str = "") -> str:
    return reverse("tournaments:desk_board", args=[event.slug]) + query


def tiles(html: str) -> dict[str, str]:
    """Each tile's table and state word, as the board shows them."""
    found = re.findall(r'class="tile-number">Table (\d+)</span> <span class="tile-state">([^<]+)</span>', html)
    return dict(found)


def words(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.mark.parametrize(
    ("status", "locked", "confirmation", "state"),
    [
        (TableStatus.EMPTY, False, True, State.EMPTY),
        (TableStatus.IN_PROGRESS, False, True, State.ENTERED),
        (TableStatus.ENTERED, False, True, State.TO_CONFIRM),
        (TableStatus.ENTERED, False, False, State.ENTERED),
        (TableStatus.CONFIRMED, False, True, State.CONFIRMED),
        (TableStatus.DISPUTED, False, True, State.DISPUTED),
        (TableStatus.DISPUTED, True, True, State.DISPUTED),
        (TableStatus.ENTERED, True, True, State.LOCKED),
    ],
)
def test_a_tables_state_in_a_word(status, locked, confirmation, state):
    assert table_state(Table(status=status, locked=locked), confirmation) == state


def test_in_a_round_the_desk_leads_with_alerts_the_clock_then_the_board(organiser_client, playing):
    event, round_ = playing
    page = organiser_client.get(desk(event)).content.decode()

    order = [page.index(f'id="{name}"') for name in ("desk-alerts", "desk-clock", "desk-board", "desk-settings")]
    assert order == sorted(order)
    assert tiles(page) == {
        "1": "empty",
        "2": "entered",
        "3": "to confirm",
        "4": "confirmed",
        "5": "disputed",
        "6": "locked",
    }
    filters = words(re.search(r'<nav class="board-filters".*?</nav>', page, re.S)[0])
    assert filters == "All 6 tables 1 empty 1 entered 1 to confirm 1 confirmed 1 disputed 1 locked"


def test_each_tile_is_a_link_to_its_table_with_its_players_and_last_change(organiser_client, playing):
    event, round_ = playing
    page = organiser_client.get(desk(event)).content.decode()
    table = round_.tables.get(number=3)
    tile = re.search(r'<a class="board-tile[^"]*" id="tile-3" href="([^"]+)">(.*?)</a>', page, re.S)
    assert tile[1] == reverse("tournaments:desk_table", args=[event.slug, table.pk])
    names = [seat.player.name for seat in table.seats.select_related("player").order_by("position")]
    assert re.findall(r'<span class="name-full">([^<]+)</span>', tile[2]) == names
    shorts = re.findall(r'<span class="name-short" aria-hidden="true">([^<]+)</span>', tile[2])
    assert shorts == [name.split()[-1] for name in names]
    assert 'Last change</span> <time datetime="' in tile[2]
    empty = re.search(r'id="tile-1".*?</a>', page, re.S)[0]
    assert "No change yet" in empty and "state-empty" in page


def test_the_current_rounds_tables_are_not_listed_twice(organiser_client, playing):
    event, _ = playing
    page = organiser_client.get(desk(event)).content.decode()
    assert 'class="round-tables"' not in page and 'href="#desk-board"' in page


def test_a_filter_shows_only_the_tables_in_that_state_without_javascript(organiser_client, playing):
    event, _ = playing
    page = organiser_client.get(desk(event, "?state=to_confirm")).content.decode()
    assert tiles(page) == {"3": "to confirm"}
    current = re.search(r'<a class="state-to_confirm"[^>]*aria-current="true"', page)
    assert current and 'href="/e/' in current[0]
    assert len(tiles(organiser_client.get(desk(event, "?state=nonsense")).content.decode())) == 6


def test_a_filter_with_no_table_left_says_so_and_stays_offered(organiser_client, playing):
    event, round_ = playing
    Table.objects.filter(round=round_, number=6).update(locked=False)
    page = organiser_client.get(board_url(event, "?state=locked"), **HTMX).content.decode()
    assert tiles(page) == {} and "No table is in this state now." in page
    assert "0 locked" in words(page)


def test_the_board_partial_answers_204_until_a_table_changes(organiser_client, playing):
    event, round_ = playing
    html = organiser_client.get(board_url(event, "?state=empty"), **HTMX).content.decode()
    assert html.startswith('<section id="desk-board"') and "<html" not in html
    polled = re.search(r'hx-get="([^"]+)" hx-trigger="every 3s"', html)[1].replace("&amp;", "&")
    assert "state=empty" in polled
    assert organiser_client.get(polled, **HTMX).status_code == 204

    enter(round_.tables.get(number=1), cheese_tallies([9, 5, 3, 1]))

    changed = organiser_client.get(polled, **HTMX)
    assert changed.status_code == 200
    assert tiles(changed.content.decode()) == {}
    assert tiles(organiser_client.get(board_url(event), **HTMX).content.decode())["1"] == "entered"


def test_between_rounds_the_desk_has_no_board(organiser_client, make_event):
    event = make_event("cheese-rescue", players=8)
    page = organiser_client.get(desk(event)).content.decode()
    assert 'class="desk-board"' not in page and 'id="desk-settings"' in page
    placeholder = re.search(r'<div id="desk-board" hx-get="([^"]+)"[^>]*hidden></div>', page)
    assert placeholder, "between rounds the board's place asks whether a round has begun"
    polled = unescape(placeholder[1])
    assert organiser_client.get(polled, **HTMX).status_code == 204


def test_the_board_is_the_organisers(client, django_user_model, playing):
    event, _ = playing
    assert client.get(board_url(event)).status_code == 302
    client.force_login(django_user_model.objects.create_user("visitor", password="a-long-test-password"))
    assert client.get(board_url(event)).status_code == 403


@pytest.mark.parametrize("rounds", [1, 3])
def test_the_desk_and_its_board_ask_a_fixed_number_of_queries(
    organiser_client, make_event, django_assert_max_num_queries, rounds
):
    event = make_event("cheese-rescue", players=24, manches_per_round=2)
    for number in range(1, rounds):
        round_ = every_state(event, number)
        round_.status = RoundStatus.COMPLETE
        round_.save()
    every_state(event, rounds)
    with django_assert_max_num_queries(6):
        page = organiser_client.get(desk(event)).content.decode()
    assert len(tiles(page)) == 6
    with django_assert_max_num_queries(5):
        assert organiser_client.get(board_url(event), **HTMX).status_code == 200


def test_the_desk_asks_as_often_for_twenty_four_tables_as_for_twelve(organiser_client, make_event):
    counts = []
    for players in (48, 96):
        event = make_event("cheese-rescue", players=players, manches_per_round=1)
        ids = list(event.players.order_by("pk").values_list("pk", flat=True))
        round_ = seat_by_hand(event, 1, [ids[i : i + 4] for i in range(0, players, 4)], status=RoundStatus.IN_PLAY)
        for table in round_.tables.order_by("number")[::2]:
            enter(table, cheese_tallies([9, 5, 3, 1]))
        organiser_client.get(desk(event))
        with CaptureQueriesContext(connection) as page:
            assert len(tiles(organiser_client.get(desk(event)).content.decode())) == players // 4
        with CaptureQueriesContext(connection) as board:
            assert organiser_client.get(board_url(event), **HTMX).status_code == 200
        counts.append((len(page), len(board)))
    assert counts[0] == counts[1], counts


@pytest.mark.parametrize(
    ("names", "shown"),
    [
        (["Maria Vittoria Lefèvre", "Benoît Müller-Lüdenscheidt"], ["Lefèvre", "Müller-Lüdenscheidt"]),
        (
            ["Xosé Manuel van der Westhuizen", "Siobhán de Oliveira Bragança"],
            ["van der Westhuizen", "de Oliveira Bragança"],
        ),
        (["Niamh Puig i Cadafalch", "Ignacio José Puig i Cadafalch"], ["N. Puig i Cadafalch", "I. Puig i Cadafalch"]),
        (["Hans-Jürgen Jørgensen", "Zdeněk Jørgensen", "Dóra Mäkinen"], ["H.-J. Jørgensen", "Z. Jørgensen", "Mäkinen"]),
        (["Zdeněk Jørgensen", "Zoltán Jørgensen"], ["Zdeněk Jørgensen", "Zoltán Jørgensen"]),
        (["Cher", "Dell'Acqua"], ["Cher", "Dell'Acqua"]),
    ],
)
def test_a_narrow_tile_shows_surnames_and_initials_where_a_table_shares_one(names, shown):
    assert short_names(names) == shown
