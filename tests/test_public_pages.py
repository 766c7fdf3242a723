"""The public pages around the standings: the event page (the round now first, finding a table by name), the event's
status, a player's page and link (the table now first), the projector's pages sized to its screen, and the database
asked a fixed number of times whatever the event's size."""

from __future__ import annotations

import html
import re
import time
from urllib.parse import parse_qsl, urlsplit

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
from tournaments.standings.rows import standings_rows
from tournaments.standings.stage import standings_stage
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
    heading = f"{player.name}'s table now: {now.table.number}, seat {now.position}"
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


def polled(answer) -> dict[str, str]:
    """What a projector page's next poll sends: its own address's query and the time its page is over (``turn``)."""
    page = answer.content.decode()
    address = html.unescape(re.search(r'<section id="projector-page"\s+hx-get="([^"]+)"', page).group(1))
    return dict(parse_qsl(urlsplit(address).query))


def poll(client, url: str, query: dict, turn_in: float):
    """A projector page's poll whose page is over in ``turn_in`` seconds (past when negative)."""
    turn = str(int((time.time() + turn_in) * 1000))
    return client.get(url, {**query, "turn": turn}, HTTP_HX_REQUEST="true")


def names_on(answer) -> list[str]:
    return re.findall(r'<td class="name">([^<]+)</td>', answer.content.decode())


def listed(event: Event) -> list[str]:
    return [row.player.name for row in standings_rows(event, standings_stage(event))]


def test_a_projector_page_holds_the_rows_asked_and_polls_with_its_version_and_page(client, mid_round):
    url = reverse("tournaments:projector_next", args=[mid_round.slug])
    first = client.get(url, {"page": "1", "rows": "3"}, HTTP_HX_REQUEST="true")
    page = first.content.decode()
    assert page.count("<tr") == 4  # the heading and three players
    version = f"{Event.objects.get(pk=mid_round.pk).standings_version}-live2"
    assert polled(first) == {"v": version, "page": "1", "pages": "3", "rows": "3"}
    assert 'data-rows="3"' in page and f'data-version="{version}"' in page
    assert 'hx-include="#projector-turn, #projector-restarted"' in page
    assert 'id="projector-title" hx-swap-oob="true"' in page and "Live standings, round 2" in page
    assert re.search(
        r'<input type="hidden" id="projector-turn" name="turn" value="\d+" hx-swap-oob="true">'
        r'<input type="hidden" id="projector-restarted" name="restarted" value="0" hx-swap-oob="true">$',
        page,
    )
    assert names_on(first) == listed(mid_round)[:3]


def test_a_projector_poll_gets_nothing_while_its_page_shows_the_stored_standings_and_its_time_is_not_over(
    client, mid_round
):
    url = reverse("tournaments:projector_next", args=[mid_round.slug])
    query = polled(client.get(url, {"page": "2", "rows": "3"}, HTTP_HX_REQUEST="true"))
    assert query["page"] == "2"
    for _ in range(2):
        assert poll(client, url, query, turn_in=5).status_code == 204
    anew = client.get(url, {**query, "rows": "4"}, HTTP_HX_REQUEST="true")  # the page measured its screen
    assert anew.status_code == 200 and 'id="projector-turn"' in anew.content.decode(), "sent anew, its time from now"
    assert polled(anew) == {**query, "rows": "4", "pages": "2"}
    single = polled(client.get(url, {"page": "1", "rows": "20"}, HTTP_HX_REQUEST="true"))
    assert single["pages"] == "1"
    assert poll(client, url, single, turn_in=-1).status_code == 204, "one page: the same page, nothing to send"


def test_a_change_shows_on_the_projector_page_that_is_up_at_its_next_poll(client, mid_round):
    url = reverse("tournaments:projector_next", args=[mid_round.slug])
    query = polled(client.get(url, {"page": "1", "rows": "3"}, HTTP_HX_REQUEST="true"))
    before = listed(mid_round)
    table = mid_round.rounds.get(number=2).tables.order_by("number").first()
    enter(table, cheese_tallies([10, 6, 4, 1]), via="link")
    after = listed(mid_round)
    assert after[:3] != before[:3], "the sheet changed what page 1 shows"
    pending = poll(client, url, query, turn_in=5)
    assert (pending.status_code, pending["HX-Trigger"]) == (204, "standings-pending"), "rendered after this answer"
    changed = poll(client, url, query, turn_in=5)
    assert changed.status_code == 200, "the page asks again a second later: here"
    assert names_on(changed) == after[:3]
    version = f"{Event.objects.get(pk=mid_round.pk).standings_version}-live2"
    assert polled(changed) == {**query, "v": version}, "the same page, at the version of now"
    assert 'id="projector-turn"' not in changed.content.decode(), "the page keeps its time"
    assert poll(client, url, polled(changed), turn_in=5).status_code == 204


def test_a_change_sends_a_projector_past_its_first_page_back_to_it_at_once(client, mid_round):
    """The leaders show within seconds of a change; while that cycle goes on, further changes let it turn pages."""
    url = reverse("tournaments:projector_next", args=[mid_round.slug])
    query = polled(client.get(url, {"page": "3", "rows": "3"}, HTTP_HX_REQUEST="true"))
    tables = mid_round.rounds.get(number=2).tables.order_by("number")
    enter(tables[0], cheese_tallies([10, 6, 4, 1]), via="link")
    answer = poll(client, url, query, turn_in=5)
    if answer.status_code == 204:
        answer = poll(client, url, query, turn_in=5)
    assert answer.status_code == 200
    content = answer.content.decode()
    assert names_on(answer) == listed(mid_round)[:3], "the first page, its time not yet over on the third"
    assert (
        polled(answer)["page"] == "1"
        and polled(answer)["v"] == f"{Event.objects.get(pk=mid_round.pk).standings_version}-live2"
    )
    assert re.search(r'id="projector-restarted" name="restarted" value="1" hx-swap-oob="true"', content)
    turn = re.search(r'id="projector-turn" name="turn" value="(\d+)"', content)
    assert 9_000 < int(turn.group(1)) - time.time() * 1000 <= 10_000, "its time starts now"

    second = {**polled(answer), "page": "2"}
    enter(tables[1], cheese_tallies([10, 6, 4, 1]), via="link")
    kept = client.get(url, {**second, "turn": turn.group(1), "restarted": "1"}, HTTP_HX_REQUEST="true")
    assert kept.status_code in (200, 204)
    assert kept.status_code == 204 or polled(kept)["page"] == "2", "within the cycle a change started, no jump back"


def test_a_projector_page_turns_to_the_next_when_its_time_is_over_and_after_the_last_to_the_first(client, mid_round):
    url = reverse("tournaments:projector_next", args=[mid_round.slug])
    names = listed(mid_round)
    query = polled(client.get(url, {"page": "1", "rows": "3"}, HTTP_HX_REQUEST="true"))
    for number, shown, rendered in [("2", names[3:6], False), ("3", names[6:], False), ("1", names[:3], True)]:
        answer = poll(client, url, query, turn_in=-0.1)
        if not rendered:
            assert (answer.status_code, answer["HX-Trigger"]) == (204, "standings-pending"), "rendered after it"
            answer = poll(client, url, query, turn_in=-0.1)
        assert answer.status_code == 200
        assert names_on(answer) == shown
        query = polled(answer)
        assert query["page"] == number
        turn = re.search(r'id="projector-turn" name="turn" value="(\d+)" hx-swap-oob="true"', answer.content.decode())
        assert 9_000 < int(turn.group(1)) - time.time() * 1000 <= 10_000, "the next page's time starts now"


def test_the_projector_page_sends_its_turn_with_every_poll(client, mid_round):
    page = client.get(reverse("tournaments:projector", args=[mid_round.slug])).content.decode()
    turn = re.search(r'<input type="hidden" id="projector-turn" name="turn" value="(\d+)">', page)
    assert turn and 9_000 < int(turn.group(1)) - time.time() * 1000 <= 10_000
    assert page.index("projector-turn") < page.index('<section id="projector-page"')
    assert (
        'hx-trigger="every 3s, standings-pending delay:1s" hx-swap="outerHTML"'
        ' hx-include="#projector-turn, #projector-restarted"' in page
    )
    assert '<input type="hidden" id="projector-restarted" name="restarted" value="0">' in page


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
        (reverse("tournaments:standings_live", args=[event.slug]), {}, 3),
        (reverse("tournaments:projector", args=[event.slug]), {"rows": "12"}, 4),
        (reverse("tournaments:projector_next", args=[event.slug]), {"rows": "12", "page": "2"}, 3),
        (reverse("tournaments:player", args=[event.slug, player.pk]), {}, 9),
        (reverse("tournaments:statistics", args=[event.slug]), {}, 5),
        (reverse("tournaments:player_link", args=[player.token]), {}, 5),
    ]
    for url, data, most in pages:
        with django_assert_max_num_queries(most):
            response = client.get(url, data)
        assert response.status_code == 200, url
