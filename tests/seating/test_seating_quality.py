import pytest

from tournaments.seating import (
    SeatingQuality,
    count_repeats,
    meetings_of_rounds,
    normalise_history,
    pair,
    repeat_lower_bound,
    seating_quality,
    total_repeats,
)


@pytest.mark.parametrize(
    ("players", "sizes", "expected"),
    [
        (16, [4] * 5, 0),
        (32, [4] * 8, 0),
        (16, [4] * 6, 24),  # 18 meetings each against 15 opponents: 16 * 3 / 2
        (8, [4] * 3, 8),
        (9, [3] * 5, 9),
        (7, [4] * 3, 6),  # tables of 4 and 3: 54 meetings, 42 of them new at most
        (13, [3] * 5, 0),
        (4, [4] * 4, 18),
        (5, [], 0),
    ],
)
def test_lower_bound_formula(players, sizes, expected):
    assert repeat_lower_bound(players, sizes) == expected


def test_count_repeats_counts_each_pair_met_before_once():
    history = {("a", "b"): 2, frozenset(("c", "d")): 1}
    assert count_repeats([["a", "b", "c"], ["d", "e"]], history) == 1
    assert count_repeats([["a", "b", "c", "d"]], history) == 2
    assert count_repeats([["a", "c"], ["b", "d"]], history) == 0
    assert count_repeats([["a", "b"]], None) == 0


def test_total_repeats_over_a_schedule():
    rounds = [[[1, 2], [3, 4]], [[1, 2], [3, 4]], [[1, 3], [2, 4]], [[1, 2], [3, 4]]]
    assert total_repeats(rounds) == 4
    assert total_repeats([]) == 0


def test_history_helpers():
    assert meetings_of_rounds([[[1, 2, 3]], [[1, 2], [3]]]) == {pair(1, 2): 2, pair(1, 3): 1, pair(2, 3): 1}
    assert normalise_history({(1, 2): 1, (2, 1): 1, (3, 4): 0}) == {pair(1, 2): 2}
    with pytest.raises(ValueError):
        normalise_history({(1, 2): -1})
    with pytest.raises(ValueError):
        pair(1, 1)


def test_seating_quality_of_a_round_after_earlier_rounds():
    earlier = [[[1, 2], [3, 4]], [[1, 2], [3, 4]]]  # three perfect matchings of four players repeat nothing
    quality = seating_quality([[1, 2], [3, 4]], earlier)
    assert quality == SeatingQuality(repeats_this_round=2, repeats_total=4, lower_bound=0)
    assert seating_quality([[1, 2], [3, 4]], []) == SeatingQuality(0, 0, 0)
