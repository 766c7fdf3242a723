"""Veggies: the rulebook's scoring, every check of a stand, and properties of grids and tallies."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import scoring
from scoring.grid import find_groups
from scoring.veggies import GOODS, RULES, BiggestGoods, biggest_goods, tally_from_grid

PLAYERS = ["Ola", "Christina", "Michael", "Patricia"]
GOOD_OF_CELL = {"S": "strawberries", "B": "bananas", "G": "grapes", "C": "carrots", "M": "mushrooms"}

#: Ola's stand as eight cards of 2 x 3 in two rows of four: strawberries 5 in 4 groups, bananas 3 in 2,
#: grapes 5 in 1, carrots 2 in 6, mushrooms 3 in 4, and 3 mice.
OLA_GRID = [
    "SSSGGGECCMME",
    "SSXGGBBBECMS",
    "ECEXEECMESEM",
    "SEMMCEXEBECC",
]


def tally(mice: int = 0, declared: list[str] | None = None, **goods: tuple[int, int]) -> dict[str, Any]:
    """A tally stand: tally(3, ["grapes"], grapes=(5, 1)) is grapes largest 5 in 1 group, 3 mice."""
    stand: dict[str, Any] = {
        "goods": {good: {"largest": largest, "groups": groups} for good, (largest, groups) in goods.items()},
        "mice": mice,
    }
    if declared is not None:
        stand["declared"] = declared
    return stand


def grid(rows: list[str], declared: list[str] | None = None) -> dict[str, Any]:
    stand: dict[str, Any] = {"grid": rows}
    if declared is not None:
        stand["declared"] = declared
    return stand


def sheet(stands: list[Any], players: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    names = players if players is not None else PLAYERS[: len(stands)]
    return {"game": "veggies", "players": names, "stands": stands, **extra}


def errors(document: dict[str, Any]) -> list[dict[str, str]]:
    with pytest.raises(scoring.ScoreSheetError) as caught:
        scoring.score(document)
    return caught.value.errors


def error_at(document: dict[str, Any], path: str) -> str:
    """The message of the only problem reported, which must be at ``path``."""
    found = errors(document)
    assert [e["path"] for e in found] == [path], found
    return found[0]["message"]


def scores(result: dict[str, Any]) -> list[int]:
    return [p["score"] for p in result["players"]]


def ola_table(ola: dict[str, Any]) -> dict[str, Any]:
    """The rulebook's table: Christina declares bananas, Michael grapes, Patricia strawberries."""
    return sheet(
        [
            ola,
            tally(1, ["bananas"], bananas=(6, 2), grapes=(2, 3), strawberries=(1, 1)),
            tally(0, ["grapes"], grapes=(7, 2), carrots=(4, 1)),
            tally(2, ["strawberries"], strawberries=(6, 3), bananas=(2, 2)),
        ]
    )


OLA_TALLY = {"strawberries": (5, 4), "bananas": (3, 2), "grapes": (5, 1)}


# The rulebook's example


def test_rulebook_example_ola_scores_25():
    result = scoring.score(ola_table(tally(3, ["strawberries"], **OLA_TALLY)))
    ola = result["players"][0]
    assert ola["score"] == 25
    assert ola["tiebreak"] == [-3]
    assert ola["breakdown"] == {
        "declared": ["strawberries"],
        "scored_goods": ["strawberries", "bananas", "grapes"],
        "goods": {
            "strawberries": {"largest": 5, "groups": 4, "points": 20},
            "bananas": {"largest": 3, "groups": 2, "points": 6},
            "grapes": {"largest": 5, "groups": 1, "points": 5},
        },
        "mice": 3,
        "mouse_penalty": -6,
    }


def test_rulebook_table_scores_every_player_for_the_same_three_goods():
    result = scoring.score(ola_table(tally(3, ["strawberries"], **OLA_TALLY)))
    assert result["variant"] == "standard"
    assert scores(result) == [25, 1 + 12 + 6 - 2, 14, 18 + 4 - 4]
    assert [p["rank"] for p in result["players"]] == [1, 3, 4, 2]
    for player in result["players"]:
        assert player["breakdown"]["scored_goods"] == ["strawberries", "bananas", "grapes"]
    michael = result["players"][2]["breakdown"]
    assert michael["goods"]["strawberries"] == {"largest": 0, "groups": 0, "points": 0}
    assert "carrots" not in michael["goods"]


def test_rulebook_ola_must_choose_between_strawberries_and_grapes():
    document = ola_table(tally(3, **OLA_TALLY))
    message = error_at(document, "stands[0].declared")
    assert message == "Goods tie for this stand's biggest groups, so the player declares which: strawberries / grapes."


def test_rulebook_ola_may_choose_grapes_instead():
    result = scoring.score(ola_table(tally(3, ["grapes"], **OLA_TALLY)))
    assert result["players"][0]["score"] == 25
    assert result["players"][0]["breakdown"]["declared"] == ["grapes"]


def test_ola_grid_has_the_rulebook_numbers():
    assert tally_from_grid(OLA_GRID) == {
        "goods": {
            "strawberries": {"largest": 5, "groups": 4},
            "bananas": {"largest": 3, "groups": 2},
            "grapes": {"largest": 5, "groups": 1},
            "carrots": {"largest": 2, "groups": 6},
            "mushrooms": {"largest": 3, "groups": 4},
        },
        "mice": 3,
    }


def test_ola_grid_scores_25_with_its_tally_in_the_breakdown():
    result = scoring.score(ola_table(grid(OLA_GRID, ["strawberries"])))
    ola = result["players"][0]
    assert ola["score"] == 25
    assert ola["breakdown"]["tally"] == tally_from_grid(OLA_GRID)
    assert ola["breakdown"]["mouse_penalty"] == -6
    assert "tally" not in result["players"][1]["breakdown"]


def test_ola_grid_without_declaration_names_the_choices():
    message = error_at(ola_table(grid(OLA_GRID)), "stands[0].declared")
    assert "strawberries / grapes" in message


# Game rules and variants


def test_rules_describe_the_game():
    assert RULES.key == "veggies"
    assert RULES.name == "Veggies"
    assert RULES.tiebreak_label == "fewest mice"
    assert RULES.table_sizes == (2, 3, 4)
    assert RULES.player_counts == (2, 3, 4)
    assert [(v.key, v.player_counts) for v in RULES.variants] == [
        ("standard", (3, 4)),
        ("two-player", (2,)),
        ("teams", (4,)),
    ]
    assert [RULES.default_variant(n) for n in (2, 3, 4)] == ["two-player", "standard", "standard"]
    assert scoring.GAMES["veggies"] is RULES


def test_two_players_default_to_the_two_player_variant():
    document = sheet([tally(0, grapes=(4, 1), bananas=(2, 1)), tally(0, carrots=(3, 2))])
    result = scoring.score(document)
    assert result["variant"] == "two-player"
    assert result["players"][0]["breakdown"]["declared"] == ["bananas", "grapes"]
    assert result["players"][1]["breakdown"]["declared"] == ["carrots"]
    assert scores(result) == [4 + 2, 6]


@pytest.mark.parametrize(
    ("variant", "count"),
    [("standard", 2), ("two-player", 3), ("two-player", 4), ("teams", 3), ("teams", 2)],
)
def test_variants_refuse_other_player_counts(variant, count):
    document = sheet([tally(0, grapes=(1, 1))] * count, variant=variant)
    assert [e["path"] for e in errors(document)] == ["players"]


def test_a_good_declared_by_several_players_is_scored_once():
    document = sheet(
        [tally(0, ["grapes"], grapes=(3, 2)), tally(0, ["grapes"], grapes=(2, 1)), tally(0, grapes=(4, 1))]
    )
    result = scoring.score(document)
    assert scores(result) == [6, 2, 4]
    assert result["players"][0]["breakdown"]["scored_goods"] == ["grapes"]


def test_undeclared_goods_score_nothing():
    document = sheet(
        [tally(0, ["grapes"], grapes=(3, 2), carrots=(2, 5)), tally(0, grapes=(4, 1)), tally(0, grapes=(1, 1))]
    )
    result = scoring.score(document)
    assert scores(result) == [6, 4, 1]
    assert "carrots" not in result["players"][0]["breakdown"]["goods"]


def test_each_mouse_costs_two_points_and_scores_may_go_negative():
    result = scoring.score(sheet([tally(5, grapes=(1, 1)), tally(0, grapes=(1, 1)), tally(0)]))
    assert scores(result) == [1 - 10, 1, 0]
    assert result["players"][0]["breakdown"]["mouse_penalty"] == -10


def test_fewest_mice_breaks_a_tie_and_equal_mice_share_the_rank():
    document = sheet(
        [tally(1, grapes=(4, 1)), tally(0, grapes=(2, 1)), tally(1, grapes=(4, 1)), tally(3, grapes=(6, 1))]
    )
    result = scoring.score(document)
    assert scores(result) == [2, 2, 2, 0]
    assert [p["tiebreak"] for p in result["players"]] == [[-1], [0], [-1], [-3]]
    assert [p["rank"] for p in result["players"]] == [2, 1, 2, 4]


def test_a_stand_without_goods_declares_nothing():
    result = scoring.score(sheet([tally(2), tally(0, grapes=(2, 1)), tally(0, declared=[])]))
    assert result["players"][0]["breakdown"]["declared"] == []
    assert scores(result) == [-4, 2, 0]


def test_empty_spaces_and_other_goods_do_not_count():
    result = scoring.score(sheet([grid(["EEEEEE", "EEGEEE"]), grid(["CCGGGG"]), grid(["MMM", "GGE"])]))
    assert result["players"][1]["breakdown"]["declared"] == ["grapes"]
    assert result["players"][2]["breakdown"]["declared"] == ["mushrooms"]
    assert scores(result) == [1, 4, 2 + 3]


# Two-player declarations


def two_player(stand: dict[str, Any]) -> dict[str, Any]:
    return sheet([stand, tally(0, grapes=(1, 1))], ["Ada", "Bea"])


def test_two_player_declares_the_two_biggest_goods():
    result = scoring.score(two_player(tally(0, ["grapes", "carrots"], grapes=(4, 1), carrots=(3, 2), bananas=(2, 3))))
    assert result["players"][0]["breakdown"]["scored_goods"] == ["grapes", "carrots"]
    assert scores(result)[0] == 4 + 6


def test_two_player_tie_for_second_place_must_be_chosen():
    stand = tally(0, grapes=(4, 1), carrots=(3, 2), bananas=(3, 3))
    message = error_at(two_player(stand), "stands[0].declared")
    assert message.endswith("bananas and grapes / grapes and carrots.")
    stand["declared"] = ["grapes", "bananas"]
    assert scoring.score(two_player(stand))["players"][0]["breakdown"]["declared"] == ["bananas", "grapes"]


def test_two_player_three_way_tie_lists_three_pairs():
    stand = tally(0, grapes=(2, 1), carrots=(2, 2), bananas=(2, 3))
    message = error_at(two_player(stand), "stands[0].declared")
    assert message.endswith("bananas and grapes / bananas and carrots / grapes and carrots.")


def test_two_player_may_not_leave_out_a_bigger_good():
    stand = tally(0, ["carrots", "bananas"], grapes=(4, 1), carrots=(3, 2), bananas=(3, 3))
    message = error_at(two_player(stand), "stands[0].declared")
    assert message == (
        "grapes has a bigger group than a declared good, so it must be declared; "
        "the choices are: bananas and grapes / grapes and carrots."
    )


def test_two_player_with_one_kind_of_good_declares_one():
    result = scoring.score(two_player(tally(0, ["grapes"], grapes=(4, 2))))
    assert scores(result)[0] == 8
    message = error_at(two_player(tally(0, ["grapes", "grapes"], grapes=(4, 2))), "stands[0].declared[1]")
    assert message == "grapes is declared twice."


def test_two_player_declaring_one_of_two_kinds_is_too_few():
    message = error_at(two_player(tally(0, ["grapes"], grapes=(4, 1), carrots=(1, 1))), "stands[0].declared")
    assert message == "Declare exactly 2 of this stand's goods (its biggest groups); it declares 1."


# Declarations


@pytest.mark.parametrize("declared", [[], ["grapes", "carrots"]])
def test_standard_declares_exactly_one(declared):
    stand = tally(0, declared, grapes=(4, 1), carrots=(1, 1))
    message = error_at(sheet([stand, tally(), tally()]), "stands[0].declared")
    assert message == f"Declare exactly 1 of this stand's goods (its biggest groups); it declares {len(declared)}."


def test_declaring_a_smaller_good_names_the_choices():
    stand = tally(0, ["carrots"], grapes=(4, 1), carrots=(3, 1), bananas=(4, 2))
    message = error_at(sheet([stand, tally(), tally()]), "stands[0].declared[0]")
    assert message == (
        "carrots (largest group 3) is not among this stand's biggest groups; the choices are: bananas / grapes."
    )


def test_declaring_a_good_not_in_the_stand():
    message = error_at(sheet([tally(0, ["mushrooms"], grapes=(4, 1)), tally(), tally()]), "stands[0].declared[0]")
    assert message == "There are no mushrooms in this stand to declare."


def test_declaring_on_an_empty_stand():
    found = errors(sheet([tally(1, ["grapes"]), tally(), tally()]))
    assert [e["path"] for e in found] == ["stands[0].declared[0]"]


@pytest.mark.parametrize("name", ["apples", "Grapes", 3, None, ["grapes"]])
def test_declaring_an_unknown_good_names_the_goods(name):
    message = error_at(sheet([tally(0, [name], grapes=(4, 1)), tally(), tally()]), "stands[0].declared[0]")
    assert message == "Declare one of the goods: strawberries, bananas, grapes, carrots, mushrooms."


@pytest.mark.parametrize("declared", ["grapes", {"grapes": 1}, 3, True])
def test_declared_must_be_a_list(declared):
    message = error_at(sheet([tally(0, declared, grapes=(4, 1)), tally(), tally()]), "stands[0].declared")
    assert message == 'List the goods this player declares, such as ["grapes"].'


def test_declared_list_is_bounded_before_it_is_read():
    stand = tally(0, ["x"] * 10_000, grapes=(4, 1))
    message = error_at(sheet([stand, tally(), tally()]), "stands[0].declared")
    assert message == "A player declares at most 5 goods; this lists 10000."


def test_declared_null_is_the_same_as_left_out():
    result = scoring.score(sheet([tally(0, grapes=(4, 1)) | {"declared": None}, tally(), tally()]))
    assert result["players"][0]["breakdown"]["declared"] == ["grapes"]


def test_declared_names_are_checked_even_when_the_stand_is_wrong():
    stand = {"goods": "lots", "mice": 0, "declared": ["apples"]}
    paths = [e["path"] for e in errors(sheet([stand, tally(), tally()]))]
    assert paths == ["stands[0].goods", "stands[0].declared[0]"]


def test_declarations_come_out_in_the_order_of_the_goods():
    stand = tally(0, ["mushrooms", "strawberries"], strawberries=(3, 1), mushrooms=(3, 1))
    result = scoring.score(two_player(stand))
    assert result["players"][0]["breakdown"]["declared"] == ["strawberries", "mushrooms"]


# Stand forms


@pytest.mark.parametrize(
    "stand",
    [
        {"grid": ["GGGGGG"], "goods": {}, "mice": 0},
        {"grid": ["GGGGGG"], "mice": 0},
        {"grid": ["GGGGGG"], "goods": {}},
    ],
)
def test_a_stand_is_not_both_a_tally_and_a_grid(stand):
    message = error_at(sheet([stand, tally(), tally()]), "stands[0]")
    assert message == "A stand is given as a tally (goods and mice) or as a grid, not both."


@pytest.mark.parametrize("stand", [{}, {"declared": ["grapes"]}, {"tally": {}}])
def test_a_stand_is_a_tally_or_a_grid(stand):
    found = errors(sheet([stand, tally(), tally()]))
    assert found[0] == {"path": "stands[0]", "message": "Give this stand as a tally (goods and mice) or as a grid."}


@pytest.mark.parametrize("stand", [None, [], "SSGG", 3])
def test_a_stand_is_an_object(stand):
    assert error_at(sheet([stand, tally(), tally()]), "stands[0]") == "An object with named fields is expected here."


@pytest.mark.parametrize("stands", [None, {}, "stands"])
def test_stands_is_a_list(stands):
    document = {"game": "veggies", "players": PLAYERS[:3]}
    if stands is not None:
        document["stands"] = stands
    assert error_at(document, "stands") == "A list is expected here."


def test_stands_has_one_entry_per_player():
    document = sheet([tally(), tally()], PLAYERS[:3])
    assert error_at(document, "stands") == "There must be one entry per player (3); there are 2."


def test_every_problem_of_every_stand_is_reported_at_once():
    document = sheet(
        [
            tally(-1, grapes=(0, 2)),
            grid(["SSZ"]),
            tally(0, ["apples"], grapes=(1, 1)),
            {"goods": {"figs": {}}, "mice": 0},
        ]
    )
    assert [e["path"] for e in errors(document)] == [
        "stands[0].goods.grapes.largest",
        "stands[0].mice",
        "stands[1].grid[0]",
        "stands[2].declared[0]",
        "stands[3].goods.figs",
    ]


# Tally checks


def tally_error(goods: Any, mice: Any = 0) -> list[dict[str, str]]:
    return errors(sheet([{"goods": goods, "mice": mice}, tally(), tally()]))


def test_a_good_left_out_or_with_no_groups_is_not_in_the_stand():
    stand = tally(0, grapes=(4, 1), carrots=(0, 0))
    result = scoring.score(sheet([stand, tally(0, ["carrots"], carrots=(1, 1)), tally()]))
    assert result["players"][0]["breakdown"]["goods"]["carrots"] == {"largest": 0, "groups": 0, "points": 0}
    assert result["players"][0]["breakdown"]["declared"] == ["grapes"]


def test_tally_needs_goods_and_mice():
    assert tally_error({}, None) == [{"path": "stands[0].mice", "message": "Write a whole number here."}]
    found = errors(sheet([{"mice": 0}, tally(), tally()]))
    assert found == [{"path": "stands[0].goods", "message": "An object with named fields is expected here."}]


@pytest.mark.parametrize("mice", [-1, 49, 1.0, True, "2", 10**9])
def test_mice_is_a_count_of_at_most_48(mice):
    assert [e["path"] for e in tally_error({}, mice)] == ["stands[0].mice"]


def test_unknown_goods_are_named():
    found = tally_error({"apples": {"largest": 1, "groups": 1}, "grapes": {"largest": 1, "groups": 1}})
    assert found == [
        {
            "path": "stands[0].goods.apples",
            "message": "'apples' is not a good; the goods are: strawberries, bananas, grapes, carrots, mushrooms.",
        }
    ]


def test_a_tally_lists_at_most_five_goods():
    goods = {f"good{i}": {"largest": 1, "groups": 1} for i in range(1000)}
    found = tally_error(goods)
    assert found == [
        {
            "path": "stands[0].goods",
            "message": "There are only 5 goods: strawberries, bananas, grapes, carrots, mushrooms; this lists 1000.",
        }
    ]


@pytest.mark.parametrize("entry", [5, [5, 1], None, "5x1"])
def test_a_good_is_an_object(entry):
    assert [e["path"] for e in tally_error({"grapes": entry})] == ["stands[0].goods.grapes"]


@pytest.mark.parametrize(
    ("entry", "paths"),
    [
        ({"largest": 2}, ["groups"]),
        ({"groups": 2}, ["largest"]),
        ({"largest": 2.0, "groups": 1}, ["largest"]),
        ({"largest": 2, "groups": False}, ["groups"]),
        ({"largest": -1, "groups": -1}, ["largest", "groups"]),
        ({"largest": 49, "groups": 1}, ["largest"]),
        ({"largest": 1, "groups": 49}, ["groups"]),
    ],
)
def test_largest_and_groups_are_counts(entry, paths):
    found = tally_error({"grapes": entry})
    assert [e["path"] for e in found] == [f"stands[0].goods.grapes.{key}" for key in paths]


def test_groups_without_a_largest_group():
    found = tally_error({"grapes": {"largest": 0, "groups": 2}})
    assert found == [
        {"path": "stands[0].goods.grapes.largest", "message": "With 2 groups, the largest group has at least 1 space."}
    ]


def test_a_largest_group_without_groups():
    found = tally_error({"grapes": {"largest": 3, "groups": 0}})
    assert found == [
        {"path": "stands[0].goods.grapes.groups", "message": "A largest group of 3 spaces makes at least 1 group."}
    ]


def test_a_tally_fits_in_eight_cards():
    just_fits = {"grapes": {"largest": 20, "groups": 11}, "carrots": {"largest": 10, "groups": 5}}
    stand = {"goods": just_fits, "mice": 4, "declared": ["grapes"]}
    assert scoring.score(sheet([stand, tally(), tally()]))["players"][0]["score"] == 220 - 8
    found = tally_error(just_fits, 5)
    assert found == [
        {
            "path": "stands[0]",
            "message": "This tally needs at least 49 visible spaces; a stand of 8 cards shows at most 48.",
        }
    ]


# Grid checks


def grid_error(rows: Any) -> list[dict[str, str]]:
    return errors(sheet([{"grid": rows}, tally(), tally()]))


@pytest.mark.parametrize("rows", [[], "SSGG", None, {"0": "SSGG"}])
def test_a_grid_is_a_list_of_rows(rows):
    assert grid_error(rows) == [
        {"path": "stands[0].grid", "message": 'A grid is a list of rows, each a text such as "SSGG  ".'}
    ]


def test_a_grid_row_is_a_text():
    found = grid_error(["SSSGGG", ["S", "S"], 7])
    assert [e["path"] for e in found] == ["stands[0].grid[1]", "stands[0].grid[2]"]
    assert found[0]["message"] == 'Each row of a grid is a text such as "SSGG  ".'


def test_a_grid_has_at_most_24_rows():
    found = grid_error(["S"] * 25)
    assert found == [{"path": "stands[0].grid", "message": "A stand spans at most 24 rows; this grid has 25."}]
    assert len(grid_error(["x"] * 10**5)) == 1


def test_a_grid_row_has_at_most_24_spaces():
    found = grid_error(["S" * 25, "S" * 10**6])
    assert found[0] == {"path": "stands[0].grid[0]", "message": "A stand spans at most 24 spaces; this row has 25."}
    assert len(found) == 2


def test_a_24_by_24_grid_with_48_spaces_is_accepted():
    rows = ["S" + " " * 23] * 24
    rows[0] = "S" * 24
    result = scoring.score(sheet([grid(rows), tally(), tally()]))
    assert result["players"][0]["score"] == 47


@pytest.mark.parametrize("char", ["s", ".", "A", "\t", "é"])
def test_grid_characters(char):
    found = grid_error(["SSSGGG", "SSG" + char + "GG"])
    assert found == [
        {
            "path": "stands[0].grid[1]",
            "message": f"'{char}' is not a space of a stand; "
            "use S, B, G, C, M (goods), E (empty), X (mouse) or a blank.",
        }
    ]


def test_grid_rows_have_equal_length():
    found = grid_error(["SSSGGG", "SSGGG", "SSSGGG"])
    assert found == [
        {
            "path": "stands[0].grid[1]",
            "message": "All rows of a grid have the same length; this one has 5, the first has 6.",
        }
    ]


def test_a_grid_shows_at_most_48_spaces():
    found = grid_error(["E" * 12] * 4 + ["X" + " " * 11])
    assert found == [
        {"path": "stands[0].grid", "message": "This grid shows 49 spaces; a stand of 8 cards shows at most 48."}
    ]


def test_a_grid_shows_at_least_the_top_card():
    found = grid_error(["GGG", "GG "])
    assert found == [{"path": "stands[0].grid", "message": "This grid shows 5 spaces; the top card alone shows 6."}]
    assert grid_error(["      "])[0]["message"] == "This grid shows 0 spaces; the top card alone shows 6."


@pytest.mark.parametrize(
    "rows",
    [
        ["GGG GGG"],
        ["GGG   ", "   GGG"],
        ["GGGGGG", "      ", "G     "],
        ["GGGGG ", "     G"],
    ],
)
def test_the_cards_of_a_grid_touch(rows):
    found = grid_error(rows)
    assert found == [
        {
            "path": "stands[0].grid",
            "message": "The cards of a stand touch one another; this grid is in separate pieces.",
        }
    ]


def test_blank_margins_and_holes_are_allowed():
    rows = ["        ", "  GGGG  ", "  G  G  ", "  GGGG  ", "        "]
    result = scoring.score(sheet([grid(rows), tally(), tally()]))
    assert result["players"][0]["score"] == 10


def test_grid_groups_are_orthogonal_not_diagonal():
    assert tally_from_grid(["SESE", "ESES"])["goods"] == {"strawberries": {"largest": 1, "groups": 4}}
    assert tally_from_grid(["SSE", "ESS", "EES"])["goods"] == {"strawberries": {"largest": 5, "groups": 1}}


def test_grid_groups_do_not_wrap_around_rows():
    assert tally_from_grid(["EEES", "SEEE"])["goods"] == {"strawberries": {"largest": 1, "groups": 2}}
    assert tally_from_grid(["S", "E", "S"])["goods"] == {"strawberries": {"largest": 1, "groups": 2}}


def test_tally_from_grid_ignores_unknown_characters_and_uneven_rows():
    assert tally_from_grid(["GG?", "G", "", "XxX"]) == {"goods": {"grapes": {"largest": 3, "groups": 1}}, "mice": 2}
    assert tally_from_grid([]) == {"goods": {}, "mice": 0}


# Teams


def teams_sheet(**extra: Any) -> dict[str, Any]:
    stands = [tally(1, grapes=(4, 2)), tally(0, grapes=(3, 1)), tally(0, grapes=(1, 1)), tally(2, grapes=(4, 1))]
    return sheet(stands, ["Ada", "Bea", "Cyd", "Dan"], variant="teams", **extra)


def test_teams_default_to_seats_one_and_three_against_two_and_four():
    result = scoring.score(teams_sheet())
    assert scores(result) == [6, 3, 1, 0]
    assert result["teams"] == [
        {"players": ["Ada", "Cyd"], "score": 7, "rank": 1, "tiebreak": [-1]},
        {"players": ["Bea", "Dan"], "score": 3, "rank": 2, "tiebreak": [-2]},
    ]


def test_teams_named_in_the_sheet():
    result = scoring.score(teams_sheet(teams=[["Dan", "Ada"], ["Cyd", "Bea"]]))
    assert result["teams"] == [
        {"players": ["Dan", "Ada"], "score": 6, "rank": 1, "tiebreak": [-3]},
        {"players": ["Cyd", "Bea"], "score": 4, "rank": 2, "tiebreak": [0]},
    ]


def test_teams_are_scored_as_standard_with_one_declaration_each():
    document = teams_sheet()
    document["stands"][0] = tally(1, ["grapes", "carrots"], grapes=(4, 2), carrots=(4, 1))
    message = error_at(document, "stands[0].declared")
    assert message == "Declare exactly 1 of this stand's goods (its biggest groups); it declares 2."


def test_fewer_mice_in_the_team_breaks_a_team_tie():
    stands = [tally(1, grapes=(3, 1)), tally(0, grapes=(2, 1)), tally(0, grapes=(1, 1)), tally(0, grapes=(2, 1))]
    result = scoring.score(sheet(stands, ["Ada", "Bea", "Cyd", "Dan"], variant="teams"))
    assert [(t["score"], t["rank"]) for t in result["teams"]] == [(2, 2), (4, 1)]
    stands[0] = tally(1, grapes=(5, 1))
    result = scoring.score(sheet(stands, ["Ada", "Bea", "Cyd", "Dan"], variant="teams"))
    assert [(t["score"], t["tiebreak"], t["rank"]) for t in result["teams"]] == [(4, [-1], 2), (4, [0], 1)]


@pytest.mark.parametrize(
    ("teams", "paths"),
    [
        ("Ada+Cyd", ["teams"]),
        ([["Ada", "Cyd"]], ["teams"]),
        ([["Ada", "Cyd"], ["Bea", "Dan"], []], ["teams"]),
        ([["Ada", "Cyd"], "Bea Dan"], ["teams[1]"]),
        ([["Ada", "Cyd", "Bea"], ["Dan"]], ["teams[0]", "teams[1]"]),
        ([["Ada", "Cyd"], ["Bea", "Eve"]], ["teams[1][1]"]),
        ([["Ada", "Cyd"], ["Bea", 4]], ["teams[1][1]"]),
        ([["Ada", "Cyd"], ["Cyd", "Dan"]], ["teams[1][0]"]),
        ([["Ada", "Ada"], ["Bea", "Dan"]], ["teams[0][1]"]),
    ],
)
def test_teams_are_two_teams_of_two_with_every_player_once(teams, paths):
    assert [e["path"] for e in errors(teams_sheet(teams=teams))] == paths


def test_team_messages():
    found = errors(teams_sheet(teams=[["Ada", "Eve"], ["Bea", "Bea"]]))
    assert [e["message"] for e in found] == [
        "Name a player at this table: Ada, Bea, Cyd, Dan.",
        "Bea is already in a team; each player is in exactly one.",
    ]
    assert error_at(teams_sheet(teams=[]), "teams") == "List two teams, each a list of two player names."
    assert error_at(teams_sheet(teams=[[], ["Bea", "Dan"]]), "teams[0]") == "A team is a list of two player names."


def test_teams_outside_the_teams_variant_are_refused():
    document = sheet([tally(), tally(), tally(), tally()], teams=[["Ada", "Cyd"], ["Bea", "Dan"]])
    message = error_at(document, "teams")
    assert message == 'Teams are scored only in the "teams" variant; name that variant or leave teams out.'
    assert "teams" not in scoring.score(sheet([tally(), tally(), tally(), tally()]))


def test_team_and_stand_problems_are_reported_together():
    document = teams_sheet(teams="x")
    document["stands"][1] = {}
    assert [e["path"] for e in errors(document)] == ["teams", "stands[1]"]


# biggest_goods, the helper the live stand form offers choices with


def test_biggest_goods_single_winner():
    goods = {"grapes": {"largest": 4, "groups": 1}, "carrots": {"largest": 2, "groups": 3}}
    choice = biggest_goods(goods, 1)
    assert choice == BiggestGoods(forced=(), tied=("grapes",), picks=1)
    assert not choice.is_choice
    assert choice.declarations() == [("grapes",)]


def test_biggest_goods_tie_and_forced():
    goods = {good: {"largest": size, "groups": 1} for good, size in zip(GOODS, (5, 3, 3, 3, 1))}
    one = biggest_goods(goods, 1)
    assert one.declarations() == [("strawberries",)]
    two = biggest_goods(goods, 2)
    assert two == BiggestGoods(forced=("strawberries",), tied=("bananas", "grapes", "carrots"), picks=1)
    assert two.is_choice and two.size == 2
    assert two.declarations() == [
        ("strawberries", "bananas"),
        ("strawberries", "grapes"),
        ("strawberries", "carrots"),
    ]
    assert two.allows({"strawberries", "grapes"})
    assert not two.allows({"bananas", "grapes"})
    assert not two.allows({"strawberries", "mushrooms"})
    assert not two.allows({"strawberries"})


def test_biggest_goods_of_an_empty_stand_and_of_goods_with_no_groups():
    assert biggest_goods({}, 2) == BiggestGoods((), (), 0)
    assert biggest_goods({"grapes": {"largest": 0, "groups": 0}}, 1).declarations() == [()]


def test_biggest_goods_takes_the_form_of_a_tally_from_grid():
    choice = biggest_goods(tally_from_grid(OLA_GRID)["goods"], 1)
    assert choice.declarations() == [("strawberries",), ("grapes",)]


# Properties

CARD_FACES = "SSSBBGGCMEX"


@st.composite
def stand_grids(draw: st.DrawFn) -> list[str]:
    """A stand built as the rules build it: eight cards of 2 x 3, each touching or covering the others."""
    cells: dict[tuple[int, int], str] = {}
    for _ in range(8):
        height, width = draw(st.sampled_from([(2, 3), (3, 2)]))
        offsets = list(itertools.product(range(height), range(width)))
        if cells:
            touching = set(cells) | {
                (r + dr, c + dc) for r, c in cells for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))
            }
            places = sorted({(r - dr, c - dc) for r, c in touching for dr, dc in offsets})
            top, left = draw(st.sampled_from(places))
        else:
            top, left = 0, 0
        faces = draw(st.lists(st.sampled_from(CARD_FACES), min_size=6, max_size=6))
        for (dr, dc), face in zip(offsets, faces):
            cells[(top + dr, left + dc)] = face
    rows = range(min(r for r, _ in cells), max(r for r, _ in cells) + 1)
    cols = range(min(c for _, c in cells), max(c for _, c in cells) + 1)
    return ["".join(cells.get((r, c), " ") for c in cols) for r in rows]


def oracle_tally(rows: list[str]) -> dict[str, Any]:
    """The tally by scoring.grid.find_groups, to check the fast flood fill against."""
    goods: dict[str, dict[str, int]] = {}
    for group in find_groups(rows, GOOD_OF_CELL.get):
        entry = goods.setdefault(group.kind, {"largest": 0, "groups": 0})
        entry["largest"] = max(entry["largest"], group.size)
        entry["groups"] += 1
    return {"goods": {g: goods[g] for g in GOODS if g in goods}, "mice": sum(row.count("X") for row in rows)}


def declaration_for(rows: list[str], count: int, pick: int) -> list[str]:
    choices = biggest_goods(tally_from_grid(rows)["goods"], count).declarations()
    return list(choices[pick % len(choices)])


def as_tally_stand(rows: list[str], declared: list[str]) -> dict[str, Any]:
    return {**tally_from_grid(rows), "declared": declared}


@settings(max_examples=150, deadline=None)
@given(rows=stand_grids())
def test_tally_from_grid_agrees_with_find_groups(rows):
    assert tally_from_grid(rows) == oracle_tally(rows)


@settings(max_examples=200, deadline=None)
@given(
    rows=st.integers(1, 6).flatmap(
        lambda width: st.lists(st.text(alphabet="G X ", min_size=width, max_size=width), min_size=1, max_size=6)
    )
)
def test_a_grid_is_refused_as_separate_pieces_exactly_when_find_groups_finds_several(rows):
    assume(6 <= sum(len(row) - row.count(" ") for row in rows) <= 48)
    pieces = find_groups(rows, lambda cell: cell != " " or None)
    document = sheet([grid(rows), tally(), tally()])
    if len(pieces) == 1:
        assert scoring.score(document)["players"][0]["breakdown"]["mice"] == sum(row.count("X") for row in rows)
    else:
        assert error_at(document, "stands[0].grid") == (
            "The cards of a stand touch one another; this grid is in separate pieces."
        )


@settings(max_examples=60, deadline=None)
@given(grids=st.lists(stand_grids(), min_size=2, max_size=4), picks=st.lists(st.integers(0, 9), min_size=4, max_size=4))
def test_a_grid_and_its_tally_score_the_same(grids, picks):
    count = 2 if len(grids) == 2 else 1
    declared = [declaration_for(rows, count, pick) for rows, pick in zip(grids, picks)]
    players = PLAYERS[: len(grids)]
    from_grids = scoring.score(sheet([grid(r, d) for r, d in zip(grids, declared)], players))
    from_tallies = scoring.score(sheet([as_tally_stand(r, d) for r, d in zip(grids, declared)], players))
    for rows, by_grid, by_tally in zip(grids, from_grids["players"], from_tallies["players"]):
        assert (by_grid["score"], by_grid["rank"], by_grid["tiebreak"]) == (
            by_tally["score"],
            by_tally["rank"],
            by_tally["tiebreak"],
        )
        assert by_grid["breakdown"] == {**by_tally["breakdown"], "tally": tally_from_grid(rows)}


@settings(max_examples=60, deadline=None)
@given(grids=st.lists(stand_grids(), min_size=3, max_size=4), which=st.integers(0, 47))
def test_a_mouse_replaced_by_an_empty_space_never_lowers_the_score(grids, which):
    mice = [
        (i, r, c) for i, rows in enumerate(grids) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "X"
    ]
    assume(mice)
    declared = [declaration_for(rows, 1, 0) for rows in grids]
    players = PLAYERS[: len(grids)]
    before = scoring.score(sheet([grid(r, d) for r, d in zip(grids, declared)], players))
    i, r, c = mice[which % len(mice)]
    changed = [list(rows) for rows in grids]
    changed[i][r] = changed[i][r][:c] + "E" + changed[i][r][c + 1 :]
    after = scoring.score(sheet([grid(rows, d) for rows, d in zip(changed, declared)], players))
    assert after["players"][i]["score"] == before["players"][i]["score"] + 2
    assert scores(after)[:i] + scores(after)[i + 1 :] == scores(before)[:i] + scores(before)[i + 1 :]
    tallies = [as_tally_stand(rows, d) for rows, d in zip(grids, declared)]
    before_tally = scoring.score(sheet(tallies, players))
    tallies[i] = {**tallies[i], "mice": tallies[i]["mice"] - 1}
    after_tally = scoring.score(sheet(tallies, players))
    assert after_tally["players"][i]["score"] >= before_tally["players"][i]["score"]
    assert after_tally["players"][i]["rank"] <= before_tally["players"][i]["rank"]


@settings(max_examples=60, deadline=None)
@given(grids=st.lists(stand_grids(), min_size=2, max_size=4), shift=st.integers(1, 3), as_teams=st.booleans())
def test_scores_do_not_depend_on_where_the_seats_start(grids, shift, as_teams):
    count = 2 if len(grids) == 2 else 1
    variant = "teams" if as_teams and len(grids) == 4 else None
    players = PLAYERS[: len(grids)]
    stands = [grid(rows, declaration_for(rows, count, 0)) for rows in grids]
    extra = {"variant": variant} if variant else {}
    result = scoring.score(sheet(stands, players, **extra))
    shift %= len(grids)
    rotated = scoring.score(sheet(stands[shift:] + stands[:shift], players[shift:] + players[:shift], **extra))

    def by_name(res: dict[str, Any]) -> dict[str, tuple]:
        return {p["name"]: (p["score"], p["rank"], p["tiebreak"]) for p in res["players"]}

    assert by_name(result) == by_name(rotated)
    if variant == "teams":
        teams = {frozenset(t["players"]): (t["score"], t["rank"]) for t in result["teams"]}
        assert teams == {frozenset(t["players"]): (t["score"], t["rank"]) for t in rotated["teams"]}


@settings(max_examples=100, deadline=None)
@given(
    sizes=st.dictionaries(st.sampled_from(GOODS), st.integers(1, 8), max_size=5),
    count=st.sampled_from([1, 2]),
)
def test_biggest_goods_is_exactly_the_rule(sizes, count):
    """A declaration is valid iff no undeclared good has a larger group than a declared one."""
    goods = {good: {"largest": size, "groups": 1} for good, size in sizes.items()}
    expected_size = min(count, len(sizes))
    allowed = set(biggest_goods(goods, count).declarations())
    for candidate in itertools.combinations([g for g in GOODS if g in sizes], expected_size):
        undeclared = [g for g in sizes if g not in candidate]
        valid = all(sizes[u] <= sizes[d] for u in undeclared for d in candidate)
        assert (candidate in allowed) == valid
    players = ["Ada", "Bea"] if count == 2 else ["Ada", "Bea", "Cyd"]
    for declaration in allowed:
        stand = {"goods": goods, "mice": 0, "declared": list(declaration)}
        scoring.score(sheet([stand] + [tally()] * (len(players) - 1), players))


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
COUNTS = st.integers(-2, 50) | JSON
NEAR_TALLIES = st.fixed_dictionaries(
    {
        "goods": st.dictionaries(
            st.sampled_from(GOODS) | st.text(max_size=3),
            st.fixed_dictionaries({"largest": COUNTS, "groups": COUNTS}) | JSON,
            max_size=6,
        ),
        "mice": COUNTS,
    },
    optional={"declared": st.lists(st.sampled_from(GOODS) | JSON, max_size=3) | JSON},
)
NEAR_GRIDS = st.fixed_dictionaries(
    {"grid": st.lists(st.text(alphabet="SBGCMEX ", max_size=8), max_size=5) | JSON},
    optional={"declared": st.lists(st.sampled_from(GOODS), max_size=3) | JSON, "mice": JSON},
)


@settings(max_examples=200, deadline=None)
@given(
    stands=st.lists(NEAR_TALLIES | NEAR_GRIDS | JSON, max_size=5),
    teams=st.none() | JSON,
    variant=st.sampled_from([None, "standard", "two-player", "teams"]),
)
def test_no_input_raises_anything_but_a_score_sheet_error(stands, teams, variant):
    document: dict[str, Any] = {"game": "veggies", "players": PLAYERS[: max(2, min(4, len(stands)))]}
    document.update(stands=stands, teams=teams, variant=variant)
    try:
        scoring.score(document)
    except scoring.ScoreSheetError as error:
        assert error.errors
        assert all(isinstance(e["path"], str) and e["message"] for e in error.errors)
