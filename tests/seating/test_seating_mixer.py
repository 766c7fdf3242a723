import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tournaments.seating import (
    count_repeats,
    meetings_of_rounds,
    mixer_seating,
    plan_table_sizes,
    random_seating,
    repeat_lower_bound,
    seat_round,
    total_repeats,
)
from tournaments.seating.designs import affine_rounds
from tournaments.seating.local_search import meeting_matrix
from tournaments.seating.relabelling import find_relabelling


def play_event(players_by_round, rounds, table_size=4, min_size=3, seed=0, first_round=None):
    """Seat round after round from the history alone, as the app does; the rounds and the slowest call."""
    schedule, slowest = [], 0.0
    for round_number in range(1, rounds + 1):
        players = players_by_round(round_number)
        start = time.monotonic()
        if round_number == 1 and first_round is not None:
            tables = first_round(players)
        else:
            tables = seat_round(
                "mixer",
                players,
                table_size=table_size,
                min_size=min_size,
                history=meetings_of_rounds(schedule),
                round_number=round_number,
                rounds_total=rounds,
                seed=seed,
            )
        slowest = max(slowest, time.monotonic() - start)
        assert sorted(p for table in tables for p in table) == sorted(players)
        assert sorted(map(len, tables), reverse=True) == plan_table_sizes(len(players), table_size, min_size)
        schedule.append(tables)
    return schedule, slowest


@pytest.mark.parametrize(("count", "rounds"), [(16, 5), (32, 8)])
@pytest.mark.parametrize("seed", [0, 1])
def test_no_repeats_for_the_social_golfer_events(count, rounds, seed):
    players = [f"player-{i}" for i in range(count)]
    schedule, slowest = play_event(lambda _: players, rounds, seed=seed)
    assert total_repeats(schedule) == 0
    assert slowest < 10


def test_no_repeats_after_a_random_first_round():
    players = list(range(32))
    schedule, _ = play_event(
        lambda _: players, 8, first_round=lambda ps: random_seating(ps, plan_table_sizes(32, 4, 3), 11)
    )
    assert total_repeats(schedule) == 0


def test_same_history_gives_the_same_round():
    players = list(range(20))
    history = meetings_of_rounds([random_seating(players, [4] * 5, 1)])
    first = mixer_seating(players, [4] * 5, history, round_number=2, rounds_total=5, seed=3)
    again = mixer_seating(list(reversed(players)), [4] * 5, dict(history), round_number=2, rounds_total=5, seed=3)
    assert first == again


def test_a_player_dropping_midway_still_seats_everyone_with_few_repeats():
    everyone = list(range(1, 33))
    schedule, slowest = play_event(lambda r: everyone if r < 4 else everyone[:-1], 8)
    assert total_repeats(schedule) <= repeat_lower_bound(32, [4] * 8) + 3
    assert slowest < 10


def test_late_arrivals_and_tables_of_three():
    everyone = list(range(1, 16))
    schedule, _ = play_event(lambda r: everyone if r > 1 else everyone[:-2], 5, table_size=3, min_size=2)
    assert total_repeats(schedule) <= 1


def test_odd_counts_and_short_tables_reach_no_repeats():
    for count, rounds, size, minimum in [(30, 6, 4, 3), (13, 5, 3, 2), (21, 5, 4, 3)]:
        schedule, _ = play_event(lambda _, c=count: list(range(c)), rounds, size, minimum)
        assert total_repeats(schedule) == 0, (count, rounds, size)


def test_more_rounds_than_new_opponents_spreads_repeats_to_the_bound():
    schedule, _ = play_event(lambda _: list(range(16)), 7)
    assert total_repeats(schedule) == repeat_lower_bound(16, [4] * 7)


def test_a_round_alone_avoids_the_history_when_it_can():
    players = list(range(24))
    rng = random.Random(4)
    history = meetings_of_rounds(random_seating(players, [4] * 6, rng) for _ in range(3))
    tables = mixer_seating(players, [4] * 6, history, round_number=4, rounds_total=4, seed=0)
    assert count_repeats(tables, history) == 0


def test_a_single_table_seats_everyone():
    assert mixer_seating([3, 1, 2], [3], {(1, 2): 4}, round_number=5, rounds_total=5) == [[1, 2, 3]]


def test_finite_geometry_designs_have_no_repeats():
    for players, size, rounds in [(16, 4, 5), (32, 4, 9), (9, 3, 4), (27, 3, 13), (8, 2, 7), (64, 8, 9)]:
        built = affine_rounds(players, size, rounds, random.Random(0))
        assert len(built) == rounds
        assert all(sorted(p for table in tables for p in table) == list(range(players)) for tables in built)
        assert total_repeats(built) == 0
    assert affine_rounds(24, 4, 3, random.Random(0)) == []


def test_relabelling_is_found_for_renamed_rounds_and_refused_for_changed_ones():
    plan = affine_rounds(32, 4, 8, random.Random(0))
    names = list(range(32))
    random.Random(1).shuffle(names)
    renamed = [[[names[p] for p in table] for table in tables] for tables in plan[:4]]
    found = find_relabelling(meeting_matrix(32, {}, plan[:4]), meeting_matrix(32, {}, renamed), list(range(32)))
    assert found is not None
    assert meeting_matrix(32, {}, [[[found[p] for p in t] for t in tables] for tables in plan[:4]]) == (
        meeting_matrix(32, {}, renamed)
    )
    renamed[3][0][0], renamed[3][1][0] = renamed[3][1][0], renamed[3][0][0]
    assert find_relabelling(meeting_matrix(32, {}, plan[:4]), meeting_matrix(32, {}, renamed), names) is None


def test_separate_processes_seat_the_same_round():
    script = (
        "import json, sys; sys.path.insert(0, sys.argv[1]);"
        "from tournaments.seating import meetings_of_rounds, random_seating, seat_round;"
        "players = [f'p{i}' for i in range(22)];"
        "history = meetings_of_rounds([random_seating(players, [4, 4, 4, 4, 3, 3], 5)]);"
        "print(json.dumps(seat_round('mixer', players[:-1], table_size=4, min_size=3, history=history,"
        " round_number=2, rounds_total=4, seed='club', position_counts={})))"
    )
    root = str(Path(__file__).resolve().parents[2])
    outputs = {
        subprocess.run(
            [sys.executable, "-c", script, root],
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for hash_seed in ("1", "2")
    }
    assert len(outputs) == 1
