"""The public pages around the standings: the event page (the round now first, finding a table by name), the event's
status, a player's page and link (the table now first), the projector's pages sized to its screen, and the database
asked a fixed number of times whatever the event's size."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments.models import Event, Player, Seat
from tournaments.models.event import EventStatus
from tournaments.models.rounds import RoundStatus
from tournaments.services.find_table import answers, find_seats, folded, round_now, words_of
from tournaments.services.round_end import complete_round
from tournaments.services.rounds import publish_round, start_round, unpublish_round
from tournaments.services.seating import seat_next_round
from tournaments.views.public import PROJECTOR_MAX_ROWS, PROJECTOR_MIN_ROWS, PROJECTOR_ROWS, projector_rows

pytestmark = pytest.mark.django_db

NAMES = ["Małgorzata Kowalski", "Bárbara Sánchez-Vicario", "Łukasz Øster", "Omar Said", "María José Núñez"]
NAMES += ["Mārtiņš Jørgensen", "Íñigo Peña", "Zoë Kovač"]


@pytest.fixture
def event(make_event):
    event = make_event("cheese-rescue", players=0, table_size=4, rounds_planned=2)
    Player.objects.bulk_create(Player(event=event, name=name, club="Asociación Lúdica, Valencia") for name in NAMES)
    event.ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    return event


def seat_of(event: Event, name: str, number: int) -> Seat:
    return Seat.objects.select_related("table").get(round__event=event, round__number=number, player__name=name)


# The event's status ------------------------------------------------------------------------------------------------


def test_the_event_runs_from_the_first_published_round_until_the_last_is_complete(event):
    assert event.status == EventStatus.SETUP
    first = seat_next_round(event)

    def status():
        event.refresh_from_db()
        return event.status

    assert status() == EventStatus.SETUP
    publish_round(first)
    assert status() == EventStatus.RUNNING
    unpublish_round(first)
    assert status() == EventStatus.SETUP
    publish_round(first)
    start_round(first)
    assert status() == EventStatus.RUNNING
    for table in first.tables.all():
        enter(table, cheese_tallies([9, 6, 4, 1]))
    complete_round(first)
    assert status() == EventStatus.RUNNING
    second = seat_next_round(event)
    publish_round(second)
    start_round(second)
    for table in second.tables.all():
        enter(table, cheese_tallies([9, 6, 4, 1]))
    complete_round(second)
    assert status() == EventStatus.FINISHED


def test_the_event_page_says_running_while_results_come_in(client, event):
    round_ = seat_next_round(event)
    publish_round(round_)
    enter(round_.tables.first(), cheese_tallies([9, 6, 4, 1]))
    page = client.get(event.get_absolute_url()).content.decode()
    assert '<span class="event-status running">Running</span>' in page


# Finding a table ---------------------------------------------------------------------------------------------------


def test_a_search_ignores_accents_case_and_letters_without_a_decomposition():
    assert folded("Małgorzata ØSTER Núñez") == "malgorzata oster nunez"
    assert words_of("Sánchez-Vicario, Bárbara") == ["sanchez", "vicario", "barbara"]
    assert answers("Bárbara Sánchez-Vicario", words_of("barbara vic"))
    assert answers("Łukasz Øster", words_of("LUK oster"))
    assert answers("Mārtiņš Jørgensen", ["mar"])
    assert not answers("Omar Said", ["mar"])
    assert not answers("María José Núñez", words_of("maria lopez"))


def test_find_my_table_lists_the_seats_of_the_round_now(event):
    ids = event.ids
    seat_by_hand(event, 1, [ids[:4], ids[4:]], RoundStatus.COMPLETE)
    second = seat_by_hand(event, 2, [ids[::2], ids[1::2]], RoundStatus.IN_PLAY)
    assert round_now(event) == second
    found = find_seats(second, "ma")
    assert [seat.player.name for seat in found] == ["Małgorzata Kowalski", "María José Núñez", "Mārtiņš Jørgensen"]
    assert {seat.round_id for seat in found} == {second.pk}
    assert find_seats(second, "   ") == [] and find_seats(None, "ma") == []


def test_the_event_page_finds_a_table_with_and_without_javascript(client, event):
    ids = event.ids
    seat_by_hand(event, 1, [ids[:4], ids[4:]], RoundStatus.COMPLETE)
    seat_by_hand(event, 2, [ids[::2], ids[1::2]], RoundStatus.IN_PLAY)
    seat = seat_of(event, "Bárbara Sánchez-Vicario", 2)
    expected = f"table {seat.table.number}, seat {seat.position}"
    page = client.get(event.get_absolute_url(), {"find": "barbara sanchez"}).content.decode()
    assert expected in page
    live = client.get(reverse("tournaments:find_table", args=[event.slug]), {"find": "BÁRBARA"}, HTTP_HX_REQUEST="true")
    html = live.content.decode()
    assert html.startswith('<div id="find-results"') and expected in html and "<html" not in html
    nobody = client.get(reverse("tournaments:find_table", args=[event.slug]), {"find": "Zzyzx"}).content.decode()
    assert "Nobody of that name plays in round 2." in nobody


def test_the_event_page_shows_the_round_now_first_and_links_to_the_rest(client, event):
    ids = event.ids
    seat_by_hand(event, 1, [ids[:4], ids[4:]], RoundStatus.COMPLETE)
    seat_by_hand(event, 2, [ids[::2], ids[1::2]], RoundStatus.IN_PLAY)
    unpublished = seat_by_hand(event, 3, [ids[:4], ids[4:]])
    unpublished.published = False
    unpublished.save()
    page = client.get(event.get_absolute_url()).content.decode()
    for name in ("standings", "projector"):
        assert f'href="{reverse(f"tournaments:{name}", args=[event.slug])}"' in page
    assert 'href="#players"' in page and 'id="players"' in page
    now, earlier = page.index('class="round-now"'), page.index('class="earlier-round"')
    assert now < earlier and page.index("Round 2") < page.index("Round 1")
    assert "Round 3" not in page
    assert page.count('<details class="earlier-round">') == 1


# A player's pages --------------------------------------------------------------------------------------------------


@pytest.fixture
def mid_round(event):
    ids = event.ids
    first = seat_by_hand(event, 1, [ids[:4], ids[4:]], RoundStatus.COMPLETE)
    for table in first.tables.all():
        enter(table, cheese_tallies([9, 6, 4, 1]))
    seat_by_hand(event, 2, [ids[::2], ids[1::2]], RoundStatus.IN_PLAY)
    return event


def test_the_public_player_page_shows_the_table_now_before_the_results(client, mid_round):
    player = Player.objects.get(event=mid_round, name="Małgorzata Kowalski")
    now = seat_of(mid_round, player.name, 2)
    page = client.get(reverse("tournaments:player", args=[mid_round.slug, player.pk])).content.decode()
    heading = f"Your table now: {now.table.number}, seat {now.position}"
    assert page.index(heading) < page.index("Round 1, table")
    mates = Seat.objects.filter(table=now.table).exclude(player=player).select_related("player")
    assert all(mate.player.name in page for mate in mates)
    first = seat_of(mid_round, player.name, 1)
    card = page[page.index("Round 1, table") :]
    for label, value in (("Score", first.score), ("Place", first.rank), ("Points", first.placement_points.normalize())):
        assert re.search(rf"<dt>{label}</dt><dd>{value}</dd>", card)
    assert "Live standings, round 2" in page


def test_the_player_link_opens_the_table_once_the_round_started(event):
    ids = event.ids
    round_ = seat_by_hand(event, 1, [ids[:4], ids[4:]])
    player = Player.objects.get(pk=ids[0])
    url = reverse("tournaments:player_link", args=[player.token])
    button = "Enter or confirm your table's scores"
    waiting = Client().get(url).content.decode()
    assert "Your table now" in waiting and button not in waiting
    assert "opens here once the organiser starts the round" in waiting
    round_.status = RoundStatus.IN_PLAY
    round_.save()
    assert button in Client().get(url).content.decode()


# The projector -----------------------------------------------------------------------------------------------------


def test_the_projector_takes_as_many_rows_as_its_screen_shows_within_bounds():
    assert projector_rows(None) == projector_rows("") == projector_rows("abc") == PROJECTOR_ROWS
    assert projector_rows("0") == PROJECTOR_ROWS
    assert projector_rows("1") == PROJECTOR_MIN_ROWS
    assert projector_rows("14") == 14
    assert projector_rows("5000") == PROJECTOR_MAX_ROWS
    assert projector_rows("99999999999") == PROJECTOR_ROWS


def test_a_projector_page_holds_the_rows_asked_and_asks_for_the_next_with_them(client, mid_round):
    url = reverse("tournaments:projector_next", args=[mid_round.slug])
    page = client.get(url, {"page": "1", "rows": "3"}, HTTP_HX_REQUEST="true").content.decode()
    assert page.count("<tr") == 4  # the heading and three players
    assert f'hx-get="{url}?page=2&amp;rows=3"' in page and 'data-rows="3"' in page
    assert 'id="projector-title" hx-swap-oob="true"' in page and "Live standings, round 2" in page
    last = client.get(url, {"page": "3", "rows": "3"}).content.decode()
    assert last.count("<tr") == 3 and f'hx-get="{url}?page=1&amp;rows=3"' in last


# The database is asked a fixed number of times --------------------------------------------------------------------


def event_of(make_event, players: int, rounds: int) -> Event:
    event = make_event("cheese-rescue", players=players, table_size=4)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    for number in range(1, rounds + 1):
        shift = (number * 3) % players
        order = ids[shift:] + ids[:shift]
        status = RoundStatus.COMPLETE if number < rounds else RoundStatus.IN_PLAY
        round_ = seat_by_hand(event, number, [order[i : i + 4] for i in range(0, players, 4)], status)
        for table in round_.tables.all():
            enter(table, cheese_tallies([(number + table.number + k) % 11 for k in range(4)]))
    Player.objects.filter(pk=ids[0]).update(active=False)
    return event


@pytest.mark.parametrize(("players", "rounds"), [(8, 1), (32, 3)])
def test_the_public_pages_ask_the_database_a_fixed_number_of_times(
    client, make_event, django_assert_max_num_queries, players, rounds
):
    event = event_of(make_event, players, rounds)
    player = event.players.order_by("pk").last()
    pages = [
        (event.get_absolute_url(), {}, 5),
        (event.get_absolute_url(), {"find": "player"}, 6),
        (reverse("tournaments:find_table", args=[event.slug]), {"find": "player 0"}, 3),
        (reverse("tournaments:standings", args=[event.slug]), {}, 3),
        (reverse("tournaments:standings_live", args=[event.slug]), {"v": "0"}, 3),
        (reverse("tournaments:projector", args=[event.slug]), {"rows": "12"}, 4),
        (reverse("tournaments:projector_next", args=[event.slug]), {"rows": "12", "page": "2"}, 3),
        (reverse("tournaments:player", args=[event.slug, player.pk]), {}, 6),
        (reverse("tournaments:player_link", args=[player.token]), {}, 4),
    ]
    for url, data, most in pages:
        with django_assert_max_num_queries(most):
            response = client.get(url, data)
        assert response.status_code == 200, url
