import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tournaments.seating import (
    METHODS,
    count_repeats,
    meetings_of_round,
    meetings_of_rounds,
    normalise_history,
    plan_table_sizes,
    random_seating,
    seat_round,
    swiss_seating,
)
from tournaments.seating.swiss import apply_swap, best_swap


def assert_seats_everyone_once(tables, players, sizes):
    assert Counter(p for table in tables for p in table) == Counter(players)
    assert sorted(map(len, tables), reverse=True) == sizes


def seat(method, players, round_number=1, history=None, **options):
    options = {"table_size": 4, "min_size": 3, "rounds_total": 6, "seed": 7, **options}
    return seat_round(method, players, history=history or {}, round_number=round_number, **options)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(("count", "table_size", "min_size"), [(16, 4, 3), (30, 4, 3), (13, 3, 2), (7, 4, 3)])
def test_every_method_seats_every_player_once(method, count, table_size, min_size):
    players = [f"p{i}" for i in range(count)]
    history = meetings_of_round(random_seating(players, plan_table_sizes(count, table_size, min_size), 1))
    tables = seat(
        method, players, 2, history, table_size=table_size, min_size=min_size, standings=list(reversed(players))
    )
    assert_seats_everyone_once(tables, players, plan_table_sizes(count, table_size, min_size))


def test_unknown_method_and_duplicate_players_are_refused():
    with pytest.raises(ValueError, match="Unknown seating method"):
        seat("round-robin", list(range(8)))
    with pytest.raises(ValueError, match="twice"):
        seat("random", [1, 2, 3, 4, 5, 6, 7, 7])


def test_random_is_reproducible_by_seed_and_varies_with_it():
    players = list(range(1, 25))
    first = seat("random", players, seed=3)
    assert seat("random", list(reversed(players)), seed=3) == first
    assert seat("random", players, seed=4) != first
    assert seat("random", players, seed=3, round_number=2) != first
    assert random_seating(players, [4] * 6, random.Random(5)) == random_seating(players, [4] * 6, 5)


def test_swiss_keeps_the_top_players_together_when_they_have_not_met():
    standings = list(range(1, 17))
    round_one = [[1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15], [4, 8, 12, 16]]
    tables = seat("swiss", standings, 2, meetings_of_rounds([round_one]), standings=standings)
    assert tables == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]


def test_swiss_avoids_repeats_when_it_can_moving_players_little():
    standings = list(range(1, 17))
    round_one = [[1, 2, 9, 13], [3, 6, 10, 14], [4, 7, 11, 15], [5, 8, 12, 16]]
    history = meetings_of_rounds([round_one])
    tables = swiss_seating(standings, [4] * 4, history)
    assert count_repeats(tables, history) == 0
    assert 1 in tables[0] and 16 in tables[3]
    assert sum(abs(t - (p - 1) // 4) for t, table in enumerate(tables) for p in table) <= 4


def test_swiss_follows_standings_and_places_unranked_players_last():
    players = list(range(1, 9))
    tables = seat("swiss", players, standings=[8, 7, 6, 5, 99, 4, 3])
    assert tables == [[8, 7, 6, 5], [4, 3, 1, 2]]


def test_swiss_searches_past_the_point_where_single_swaps_stop():
    rng = random.Random(2)
    players = list(range(32))
    history = meetings_of_rounds(random_seating(players, [4] * 8, rng) for _ in range(6))
    standings = rng.sample(players, 32)
    greedy = [standings[i : i + 4] for i in range(0, 32, 4)]
    rank = {p: i for i, p in enumerate(standings)}
    while (swap := best_swap(greedy, normalise_history(history), rank)) is not None:
        apply_swap(greedy, swap)
    assert count_repeats(greedy, history) == 4
    assert count_repeats(swiss_seating(standings, [4] * 8, history), history) == 0


def test_position_counts_rotate_the_starting_player():
    players = list(range(8))
    tables = seat("random", players, position_counts={0: {1: 3}, 1: {1: 2}})
    for table in tables:
        starts = {0: 3, 1: 2}
        assert starts.get(table[0], 0) == min(starts.get(p, 0) for p in table)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    count=st.integers(6, 40),
    table_size=st.integers(3, 5),
    method=st.sampled_from(METHODS),
    rounds_played=st.integers(0, 3),
    seed=st.integers(0, 10**6),
)
def test_any_method_seats_any_player_count_exactly_once(count, table_size, method, rounds_played, seed):
    try:
        sizes = plan_table_sizes(count, table_size, 2)
    except ValueError:
        assume(False)
    players = list(range(100, 100 + count))
    rng = random.Random(seed)
    history = meetings_of_rounds(random_seating(players, sizes, rng) for _ in range(rounds_played))
    tables = seat_round(
        method,
        players,
        table_size=table_size,
        min_size=2,
        history=history,
        round_number=rounds_played + 1,
        rounds_total=rounds_played + 2,
        seed=seed,
        standings=rng.sample(players, count),
        position_counts={},
    )
    assert_seats_everyone_once(tables, players, sizes)
