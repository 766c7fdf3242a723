"""The stored schedules without repeats, and the mixer seating them round by round from the history alone."""

import random
import time
from itertools import combinations

import pytest

from tournaments.seating import (
    meetings_of_rounds,
    plan_table_sizes,
    position_counts_of,
    random_seating,
    repeat_lower_bound,
    seat_round,
    total_repeats,
)
from tournaments.seating.known_schedules import (
    BEST_KNOWN,
    best_known_rounds,
    decode_round,
    encode_round,
    known_schedule,
    stored_schedules,
)
from tournaments.seating.mixer import without_players_who_never_meet


def play(players, rounds, table_size, seed, history_rounds=(), seat_by_hand=None):
    """Seat ``rounds`` rounds as the app does: round 1 at random (unless ``history_rounds`` were played before),
    then the mixer from the meetings and positions so far. ``seat_by_hand(number, tables)`` may change a round
    before it counts. The rounds and the slowest mixer call."""
    schedule, slowest = [list(tables) for tables in history_rounds], 0.0
    sizes = plan_table_sizes(len(players), table_size, table_size - 1)
    while len(schedule) < rounds:
        number = len(schedule) + 1
        if number == 1:
            tables = random_seating(players, sizes, random.Random(f"first:{seed}"))
        else:
            start = time.monotonic()
            tables = seat_round(
                "mixer",
                players,
                table_size=table_size,
                min_size=table_size - 1,
                history=meetings_of_rounds(schedule),
                round_number=number,
                rounds_total=rounds,
                seed=seed,
                position_counts=position_counts_of(schedule),
            )
            slowest = max(slowest, time.monotonic() - start)
        assert sorted(p for table in tables for p in table) == sorted(players)
        assert sorted(map(len, tables), reverse=True) == sizes
        schedule.append(seat_by_hand(number, tables) if seat_by_hand else tables)
    return schedule, slowest


def test_every_stored_schedule_seats_everyone_once_a_round_and_no_pair_twice():
    for (players, table_size), rounds in stored_schedules().items():
        assert len(rounds) == BEST_KNOWN[players, table_size], (players, table_size)
        met = set()
        for tables in rounds:
            assert sorted(p for table in tables for p in table) == list(range(players))
            assert {len(table) for table in tables} == {table_size}
            for table in tables:
                for pair in combinations(sorted(table), 2):
                    assert pair not in met, (players, table_size, pair)
                    met.add(pair)


def test_a_schedule_is_stored_for_every_count_with_more_than_one_round_known_but_two():
    wanted = {key for key, rounds in BEST_KNOWN.items() if rounds > 1}
    assert set(stored_schedules()) == wanted


def test_best_known_rounds_cover_every_full_count_up_to_64_within_the_counting_bound():
    for table_size in (3, 4):
        counts = {players for players, size in BEST_KNOWN if size == table_size}
        assert counts == set(range(table_size, 65, table_size))
        for players in counts:
            assert 1 <= best_known_rounds(players, table_size) <= (players - 1) // (table_size - 1)
    assert best_known_rounds(20, 4) == 5 and best_known_rounds(12, 3) == 4 and best_known_rounds(12, 4) == 1
    assert best_known_rounds(64, 4) == 21 and best_known_rounds(63, 3) == 31 and best_known_rounds(30, 4) is None


def test_known_schedules_are_copies_and_rounds_read_back_as_written():
    first = known_schedule(28, 4)
    first[0][0][0] = 99
    assert known_schedule(28, 4)[0][0][0] != 99
    assert known_schedule(30, 4) == [] and known_schedule(28, 5) == []
    tables = [[63, 0, 10], [36, 62, 9]]
    assert encode_round(tables) == "*0a A+9"
    assert decode_round(encode_round(tables)) == ((63, 0, 10), (36, 62, 9))


@pytest.mark.parametrize(
    ("count", "rounds", "table_size"),
    [
        (16, 5, 4),
        (20, 5, 4),
        (24, 6, 4),
        (24, 7, 4),
        (28, 9, 4),
        (32, 9, 4),
        (32, 10, 4),
        (40, 13, 4),
        (48, 8, 4),
        (64, 21, 4),
        (21, 10, 3),
        (33, 16, 3),
        (45, 22, 3),
        (60, 29, 3),
    ],
)
def test_the_mixer_seats_every_known_round_without_a_repeat(count, rounds, table_size):
    players = [f"player-{i}" for i in range(count)]
    schedule, slowest = play(players, rounds, table_size, seed="club night")
    assert total_repeats(schedule) == 0
    assert slowest < 10


@pytest.mark.parametrize(
    ("count", "rounds", "table_size"), [(64, 21, 4), (28, 9, 4), (32, 10, 4), (27, 13, 3), (60, 29, 3)]
)
def test_the_seed_picks_who_sits_where_but_not_how_well(count, rounds, table_size):
    players = list(range(100, 100 + count))
    schedules = [play(players, rounds, table_size, seed)[0] for seed in (0, 1, 2)]
    assert [total_repeats(schedule) for schedule in schedules] == [0, 0, 0]
    assert len({str(schedule[1:]) for schedule in schedules}) == 3


def test_an_event_seated_by_another_plan_so_far_continues_it_without_a_repeat():
    stored = known_schedule(40, 4)
    names = [f"p{i}" for i in range(40)]
    random.Random(7).shuffle(names)
    earlier = [[[names[p] for p in table] for table in tables] for tables in stored[:5]]
    schedule, _ = play(sorted(names), 13, 4, seed=3, history_rounds=earlier)
    assert schedule[:5] == earlier
    assert total_repeats(schedule) == 0


def test_past_the_known_rounds_the_repeats_are_spread_to_the_bound():
    schedule, slowest = play(list(range(16)), 7, 4, seed=0)
    assert total_repeats(schedule) == repeat_lower_bound(16, [4] * 7)
    assert slowest < 10


@pytest.mark.parametrize(("count", "rounds", "table_size"), [(47, 5, 4), (30, 6, 4), (31, 8, 3), (29, 5, 4)])
def test_short_tables_reach_no_repeats(count, rounds, table_size):
    schedule, slowest = play(list(range(count)), rounds, table_size, seed=0)
    assert total_repeats(schedule) == 0
    assert slowest < 10


def test_a_player_dropping_out_or_arriving_late_is_searched_around():
    everyone = list(range(40))
    first, _ = play(everyone, 3, 4, seed=0)
    after_a_drop, slowest = play(everyone[:-1], 6, 4, seed=0, history_rounds=first)
    assert total_repeats(after_a_drop) == 0
    late_start, _ = play(everyone[:-1], 1, 4, seed=0)
    with_the_late_player, _ = play(everyone, 5, 4, seed=0, history_rounds=late_start)
    assert total_repeats(with_the_late_player) == 0
    assert slowest < 10


@pytest.mark.parametrize(("count", "rounds", "table_size"), [(47, 15, 4), (62, 30, 3), (30, 9, 4)])
def test_short_tables_follow_a_known_schedule_without_players_who_never_meet(count, rounds, table_size):
    schedule, slowest = play(list(range(count)), rounds, table_size, seed=5)
    assert total_repeats(schedule) == 0
    assert slowest < 10


def test_the_players_left_out_of_a_known_schedule_never_meet_in_it():
    stored = known_schedule(9, 3)
    two_rounds = without_players_who_never_meet(stored[:2], 9, 2)
    assert [sorted(map(len, tables), reverse=True) for tables in two_rounds] == [[3, 2, 2], [3, 2, 2]]
    assert sorted(p for table in two_rounds[0] for p in table) == list(range(7))
    assert total_repeats(two_rounds) == 0
    assert without_players_who_never_meet(stored, 9, 2) == []
    assert without_players_who_never_meet(stored, 9, 0) == stored
