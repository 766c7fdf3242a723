"""The script that regenerates the stored schedules: its constructions give valid schedules of the known length."""

import importlib.util
import sys
from pathlib import Path

import pytest

from tournaments.seating.known_schedules import BEST_KNOWN

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "seating_schedules.py"


@pytest.fixture(scope="module")
def script():
    spec = importlib.util.spec_from_file_location("seating_schedules", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the script loads
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


def test_every_construction_matches_the_best_known_rounds(script):
    for (players, table_size), construction in script.CONSTRUCTIONS.items():
        assert BEST_KNOWN[players, table_size] > 1
        if isinstance(construction, script.Cyclic | script.Lifted):
            assert (construction.players, construction.rounds) == (players, BEST_KNOWN[players, table_size])
        else:
            assert construction.outer * construction.inner == players


@pytest.mark.parametrize(("players", "table_size"), [(16, 4), (24, 4), (15, 3), (21, 3), (45, 3)])
def test_small_cases_are_built_again_without_a_repeat(script, players, table_size):
    rounds = script.build(players, table_size, effort=60)
    assert len(rounds) == BEST_KNOWN[players, table_size]
    script.check(rounds, players, table_size)


def test_the_nearly_kirkman_system_of_60_is_found_as_an_exact_cover(script):
    construction = script.CONSTRUCTIONS[60, 3]
    assert construction.partners
    rounds = script.build(60, 3, effort=60)
    assert len(rounds) == 29
    script.check(rounds, 60, 3)
    met = {pair for tables in rounds for table in tables for pair in script.combinations(sorted(table), 2)}
    never = {pair for pair in script.combinations(range(60), 2) if pair not in met}
    assert sorted(p for pair in never for p in pair) == list(range(60))  # each player misses one partner


def test_the_social_golfer_problem_is_lifted_from_the_affine_space_with_each_player_missing_one_partner(script):
    rounds = script.build(32, 4, effort=1)
    assert len(rounds) == 10
    script.check(rounds, 32, 4)
    met = {pair for tables in rounds for table in tables for pair in script.combinations(sorted(table), 2)}
    assert {pair for pair in script.combinations(range(32), 2) if pair not in met} == {
        (2 * x, 2 * x + 1) for x in range(16)
    }


def test_the_lift_refuses_planes_that_do_not_cover_every_vector_twice_or_leave_no_labels(script):
    planes = script.CONSTRUCTIONS[32, 4].directions
    with pytest.raises(AssertionError, match="two planes"):
        script.lift_labels(script.Lifted(planes[:9] + planes[:1]))
    with pytest.raises(AssertionError, match="no solution"):  # the same spread twice
        script.lift_labels(script.Lifted(planes[:5] + planes[:5]))


def test_the_exact_cover_finds_a_cover_and_says_when_there_is_none(script):
    options = {"a": [1, 2], "b": [3], "c": [1], "d": [2, 3]}
    assert sorted(script.exact_cover(options, script.random.Random(0), 100)) in (["a", "b"], ["c", "d"])
    assert script.exact_cover({"a": [1, 2], "b": [2, 3]}, script.random.Random(0), 100) is None


def test_the_check_refuses_a_pair_met_twice_and_a_round_that_misses_a_player(script):
    with pytest.raises(AssertionError, match="meet twice"):
        script.check([[[0, 1, 2], [3, 4, 5]], [[0, 1, 3], [2, 4, 5]]], 6, 3)
    with pytest.raises(AssertionError, match="partition"):
        script.check([[[0, 1, 2], [3, 4, 4]]], 6, 3)
