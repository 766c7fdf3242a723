"""Standings: placement points with split ties, game score, tiebreak, Buchholz, stored and served cheaply."""

from decimal import Decimal

import pytest
from django.urls import reverse

from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments.games import Game
from tournaments.models import Standing
from tournaments.models.rounds import RoundStatus
from tournaments.services.results import split_points
from tournaments.standings.metrics import SeatResult, rank_players


def test_tied_places_split_their_points():
    assert split_points([1, 2, 3, 4], (4, 2, 1, 0)) == [4, 2, 1, 0]
    assert split_points([1, 1, 3, 4], (4, 2, 1, 0)) == [3, 3, 1, 0]
    assert split_points([1, 2, 2, 2], (4, 2, 1, 0)) == [4, 1, 1, 1]
    assert split_points([1, 1, 1], (4, 2, 1)) == [Decimal("2.33")] * 3
    assert split_points([1, 1, 1, 1], (4, 2, 1, 0)) == [Decimal("1.75")] * 4


def result(player, round_, table, points, score, tiebreak=0):
    return SeatResult(player, round_, table, Decimal(points), score, tiebreak)


def test_points_then_score_then_tiebreak_then_buchholz():
    results = [
        result(1, 1, 10, 4, 30),
        result(2, 1, 10, 0, 10),
        result(3, 1, 11, 4, 30),
        result(4, 1, 11, 0, 31),
    ]
    ranked = rank_players(results, [1, 2, 3, 4, 5], Game.ranking)
    assert [(r.player, r.rank) for r in ranked] == [(1, 1), (3, 1), (4, 3), (2, 4), (5, 5)]
    assert ranked[-1].rounds == 0


def test_game_tiebreak_decides_before_buchholz():
    results = [result(1, 1, 10, 4, 20, -1), result(2, 1, 11, 4, 20, -3), result(3, 1, 10, 0, 5), result(4, 1, 11, 0, 5)]
    ranked = rank_players(results, [1, 2, 3, 4], Game.ranking)
    assert [r.player for r in ranked][:2] == [1, 2]
    assert ranked[0].rank == 1 and ranked[1].rank == 2


def test_buchholz_sums_the_points_of_every_opponent_met():
    results = [
        # round 1: 1 beats 2; 3 beats 4
        result(1, 1, 10, 4, 20),
        result(2, 1, 10, 0, 10),
        result(3, 1, 11, 4, 20),
        result(4, 1, 11, 0, 10),
        # round 2: 2 beats 3; 1 beats 4
        result(2, 2, 12, 4, 20),
        result(3, 2, 12, 0, 10),
        result(1, 2, 13, 4, 20),
        result(4, 2, 13, 0, 10),
    ]
    ranked = {r.player: r for r in rank_players(results, [1, 2, 3, 4], Game.ranking)}
    assert ranked[1].metrics["points"] == 8
    assert ranked[2].metrics["buchholz"] == ranked[1].metrics["points"] + ranked[3].metrics["points"]
    assert ranked[3].metrics["buchholz"] == 0 + 4
    # 2 and 3 have the same points and score: the stronger opponents of 2 decide
    assert (ranked[2].rank, ranked[3].rank) == (2, 3)


@pytest.mark.django_db
def test_a_recorded_sheet_updates_seats_and_standings(make_event):
    event = make_event("cheese-rescue", players=6, table_size=3)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    round_ = seat_by_hand(event, 1, [ids[:3], ids[3:]])
    first, second = round_.tables.order_by("number")
    enter(first, cheese_tallies([6, 6, 2]))
    enter(second, cheese_tallies([5, 3, 1]))
    standings = {s.player_id: s for s in Standing.objects.filter(event=event)}
    assert standings[ids[0]].points == standings[ids[1]].points == 3  # tied first: (4 + 2) / 2
    assert standings[ids[3]].points == 4 and standings[ids[3]].rank == 1
    assert standings[ids[0]].rank == standings[ids[1]].rank == 2  # same points, score, cheeses and opponents
    assert standings[ids[2]].points == 1 and standings[ids[5]].points == 1
    event.refresh_from_db()
    assert event.standings_version == 2


@pytest.mark.django_db
def test_a_correction_after_completion_moves_players_from_the_round_before(make_event):
    event = make_event("cheese-rescue", players=3, table_size=3)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    first = seat_by_hand(event, 1, [ids], RoundStatus.COMPLETE).tables.get()
    enter(first, cheese_tallies([6, 3, 1]))
    second = seat_by_hand(event, 2, [ids], RoundStatus.COMPLETE).tables.get()
    enter(second, cheese_tallies([6, 3, 1]))
    manche = enter(second, cheese_tallies([1, 3, 10]))
    standings = {s.player_id: s for s in Standing.objects.filter(event=event)}
    assert {p: s.previous_round for p, s in standings.items()} == dict.fromkeys(ids, 1)
    # After round 1 the order is 0, 1, 2; round 2 corrected, 2 leads on score (5 points like 0), 1 is last.
    assert {p: s.movement for p, s in standings.items()} == {ids[0]: -1, ids[1]: -1, ids[2]: 2}
    assert manche.revisions.last().after_completion


def build_event(make_event, players: int, rounds: int):
    event = make_event("cheese-rescue", players=players, table_size=4)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    for number in range(1, rounds + 1):
        shift = (number * 3) % players
        order = ids[shift:] + ids[:shift]
        round_ = seat_by_hand(event, number, [order[i : i + 4] for i in range(0, players, 4)], RoundStatus.COMPLETE)
        for table in round_.tables.all():
            enter(table, cheese_tallies([(number + table.number + k) % 11 for k in range(4)]))
    return event


@pytest.mark.django_db
@pytest.mark.parametrize(("players", "rounds"), [(8, 1), (24, 3)])
def test_standings_page_and_projector_run_a_constant_number_of_queries(
    client, make_event, django_assert_max_num_queries, players, rounds
):
    event = build_event(make_event, players, rounds)
    with django_assert_max_num_queries(12):
        page = client.get(reverse("tournaments:standings", args=[event.slug]))
    assert page.status_code == 200
    body = page.content.decode()
    assert all(name in body for name in event.players.values_list("name", flat=True))
    with django_assert_max_num_queries(12):
        assert client.get(reverse("tournaments:projector", args=[event.slug])).status_code == 200
    with django_assert_max_num_queries(12):
        assert client.get(reverse("tournaments:projector_next", args=[event.slug]) + "?page=2").status_code == 200


@pytest.mark.django_db
def test_live_standings_answer_204_until_they_change(client, make_event, settings):
    settings.LIVE_RENDER_SECONDS = 0
    event = build_event(make_event, 8, 1)
    event.refresh_from_db()
    url = reverse("tournaments:standings_live", args=[event.slug])
    version = f"{event.standings_version}-after1"
    assert client.get(url, {"v": version}).status_code == 204
    behind = {"v": f"{event.standings_version - 1}-after1"}
    pending = client.get(url, behind)
    assert (pending.status_code, pending["HX-Trigger"]) == (204, "standings-pending"), "rendered after the answer"
    changed = client.get(url, behind)
    assert changed.status_code == 200
    assert f'data-version="{version}"' in changed.content.decode()
    # Starting the next round changes what the standings are (live, round 2) before any sheet of it comes in.
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    seat_by_hand(event, 2, [ids[:4], ids[4:]], RoundStatus.IN_PLAY)
    pending = client.get(url, {"v": version})
    assert (pending.status_code, pending["HX-Trigger"]) == (204, "standings-pending"), "rendered after this answer"
    started = client.get(url, {"v": version})
    assert started.status_code == 200
    assert "Live standings, round 2" in started.content.decode()


@pytest.mark.django_db
def test_standings_csv_export(client, make_event):
    event = build_event(make_event, 8, 2)
    response = client.get(reverse("tournaments:standings_csv", args=[event.slug]))
    assert response.content.startswith("\ufeff".encode())
    lines = response.content.decode("utf-8-sig").strip().splitlines()
    assert lines[0].startswith("Rank,Player,Club,Tournament points")
    assert len(lines) == 9
    top = Standing.objects.filter(event=event).order_by("rank", "player__name").first()
    assert lines[1].startswith(f"{top.rank},{top.player.name},")


@pytest.mark.django_db
def test_player_page_lists_tables_opponents_and_scores(client, make_event):
    event = build_event(make_event, 8, 2)
    player = event.players.order_by("pk").first()
    page = client.get(reverse("tournaments:player", args=[event.slug, player.pk])).content.decode()
    for seat in player.seats.all():
        for other in seat.table.seats.exclude(player=player):
            assert other.player.name in page
