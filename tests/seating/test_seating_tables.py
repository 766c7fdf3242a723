import pytest

from tournaments.seating import plan_table_sizes
from tournaments.seating.tables import canonical_order, split_into_tables


@pytest.mark.parametrize(
    ("players", "size", "minimum", "expected"),
    [
        (16, 4, 3, [4, 4, 4, 4]),
        (12, 3, 2, [3, 3, 3, 3]),
        (30, 4, 3, [4] * 6 + [3] * 2),
        (13, 3, 2, [3, 3, 3, 2, 2]),
        (17, 4, 3, [4, 4, 3, 3, 3]),
        (7, 4, 3, [4, 3]),
        (3, 4, 3, [3]),
        (4, 4, 4, [4]),
        (0, 4, 3, []),
    ],
)
def test_tables_of_the_event_size_then_one_smaller(players, size, minimum, expected):
    sizes = plan_table_sizes(players, size, minimum)
    assert sizes == expected
    assert sum(sizes) == players
    assert sizes == sorted(sizes, reverse=True)


@pytest.mark.parametrize(
    ("players", "size", "minimum"),
    [(5, 4, 4), (5, 4, 3), (2, 4, 2), (6, 4, 4), (7, 3, 3), (4, 3, 4), (4, 0, 1), (-1, 4, 3)],
)
def test_impossible_table_sizes_are_refused_clearly(players, size, minimum):
    with pytest.raises(ValueError, match=r"\d"):
        plan_table_sizes(players, size, minimum)


def test_five_players_at_tables_of_four_minimum_four_names_the_problem():
    with pytest.raises(ValueError, match="5 players cannot be seated at tables of 4 with at least 4"):
        plan_table_sizes(5, 4, 4)


def test_split_and_canonical_order():
    assert split_into_tables([1, 2, 3, 4, 5], [3, 2]) == [[1, 2, 3], [4, 5]]
    with pytest.raises(ValueError):
        split_into_tables([1, 2, 3], [2, 2])
    assert canonical_order([3, 1, 2]) == [1, 2, 3]
    assert canonical_order(["b", 1, "a"]) == sorted(["b", 1, "a"], key=repr)
