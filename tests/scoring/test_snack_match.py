"""Snack Match: groups of identical snacks and tablecloths, the special diet, and every check of the sheet."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import scoring
from scoring.grid import find_groups
from scoring.snack_match import RULES, tally_from_grid

NAMES = ["Ada", "Bea", "Cyd", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"]
FAST = settings(max_examples=200, deadline=None)
MODIFIERS = ["fewest", "corners", "groups", "lines", "most", "isolated", "center", "pairs"]

# The rulebook's final scoring example, as plausible 4 x 4 zones.
# Benjamín: orange cloths 5 (3) + green cloths 5 (3) + sodas 4 (2) + donuts 4 (2) + sandwiches 3 (1) = 11.
#   Snacks           Cloths
#   soda soda donut donut      orange orange orange green
#   soda soda donut donut      orange orange green  green
#   sand sand sand  saus       blue   green  green  yellow
#   saus donut soda saus       yellow blue   red    red
BENJAMIN = [
    ["soda/orange", "soda/orange", "donut/orange", "donut/green"],
    ["soda/orange", "soda/orange", "donut/green", "donut/green"],
    ["sandwich/blue", "sandwich/green", "sandwich/green", "sausage/yellow"],
    ["sausage/yellow", "donut/blue", "soda/red", "sausage/red"],
]
BENJAMIN_TALLY = {
    "snacks": {"soda": [4, 1], "donut": [4, 1], "sandwich": [3], "sausage": [2, 1]},
    "cloths": {"orange": [5], "green": [5], "blue": [1, 1], "yellow": [1, 1], "red": [2]},
}
BENJAMIN_GROUPS = [
    {"kind": "snack", "component": "donut", "size": 4, "points": 2},
    {"kind": "snack", "component": "soda", "size": 4, "points": 2},
    {"kind": "snack", "component": "sandwich", "size": 3, "points": 1},
    {"kind": "cloth", "component": "green", "size": 5, "points": 3},
    {"kind": "cloth", "component": "orange", "size": 5, "points": 3},
]
# Sofía: green cloths 9 (7) + orange cloths 3 (1) + sandwiches 4 (2) + sausages 4 (2) + sodas 3 (1) = 13.
SOFIA = [
    ["sandwich/green", "sandwich/green", "sausage/green", "sausage/green"],
    ["sandwich/green", "sandwich/green", "sausage/green", "sausage/green"],
    ["soda/green", "soda/orange", "soda/orange", "donut/orange"],
    ["donut/blue", "sausage/red", "donut/blue", "sandwich/red"],
]
SOFIA_TALLY = {
    "snacks": {"sandwich": [4, 1], "sausage": [4, 1], "soda": [3], "donut": [1, 1, 1]},
    "cloths": {"green": [9], "orange": [3], "blue": [1, 1], "red": [1, 1]},
}
SOFIA_GROUPS = [
    {"kind": "snack", "component": "sandwich", "size": 4, "points": 2},
    {"kind": "snack", "component": "sausage", "size": 4, "points": 2},
    {"kind": "snack", "component": "soda", "size": 3, "points": 1},
    {"kind": "cloth", "component": "green", "size": 9, "points": 7},
    {"kind": "cloth", "component": "orange", "size": 3, "points": 1},
]


def sheet(*zones: dict, **fields: object) -> dict:
    return {"game": "snack-match", "players": NAMES[: len(zones)], "zones": list(zones), **fields}


def grid(rows: list) -> dict:
    return {"grid": rows}


def tally(snacks: dict | None = None, cloths: dict | None = None) -> dict:
    groups = {}
    if snacks is not None:
        groups["snacks"] = snacks
    if cloths is not None:
        groups["cloths"] = cloths
    return {"groups": groups}


def errors(document: object) -> list[dict[str, str]]:
    with pytest.raises(scoring.ScoreSheetError) as caught:
        scoring.score(document)
    return caught.value.errors


def only_error(document: object) -> dict[str, str]:
    found = errors(document)
    assert len(found) == 1, found
    return found[0]


def scores(document: dict) -> list[int]:
    return [p["score"] for p in scoring.score(document)["players"]]


def picture(legend: dict[str, str], *rows: str) -> list[list[str | None]]:
    """A grid from rows of characters: each character a square of ``legend``, ``.`` for no card."""
    return [[None if char == "." else legend[char] for char in row] for row in rows]


# Squares for the special diet tests: the diet components are the donut snack and the green cloth.
LEGEND = {
    "D": "donut/orange",
    "G": "soda/green",
    "B": "donut/green",
    "o": "soda/orange",
    "s": "sausage/blue",
    "w": "sandwich/red",
}
PLAIN = picture(LEGEND, "owsw", "swos", "owsw", "swos")  # no donut and no green anywhere


def diet_sheet(*grids: list, diet: list[tuple[str, str]]) -> dict:
    cards = [{"component": component, "modifier": modifier} for component, modifier in diet]
    return sheet(*(grid(rows) for rows in grids), variant="special-diet", diet=cards)


def modifier_points(*grids: list, component: str = "donut", modifier: str) -> list[int]:
    """Each player's points from one diet card (the second card, on the absent 'nothing' component, scores 0)."""
    second = "corners" if modifier != "corners" else "groups"
    result = scoring.score(diet_sheet(*grids, diet=[(component, modifier), ("nothing", second)]))
    for player in result["players"]:
        assert player["breakdown"]["modifiers"][1]["points"] == 0
    return [player["breakdown"]["modifiers"][0]["points"] for player in result["players"]]


# The rules as the registry describes them -------------------------------------------------------


def test_rules_describe_the_game() -> None:
    assert RULES.key == "snack-match"
    assert RULES.name == "Snack Match"
    assert [v.key for v in RULES.variants] == ["standard", "special-diet"]
    assert all(v.player_counts == (2, 3, 4, 5, 6, 7, 8, 9) for v in RULES.variants)
    assert RULES.table_sizes == (2, 3, 4)
    assert RULES.tiebreak_label == "largest group"
    assert [f.key for f in RULES.tally_fields] == ["snacks", "cloths"]
    assert all(RULES.default_variant(n) == "standard" for n in range(2, 10))
    assert scoring.GAMES["snack-match"] is RULES


def test_the_default_variant_is_standard() -> None:
    assert scoring.score(sheet(grid(BENJAMIN), grid(SOFIA)))["variant"] == "standard"


@pytest.mark.parametrize("variant", ["standard", "special-diet"])
def test_solo_is_not_a_tournament_format(variant: str) -> None:
    document = sheet(grid(BENJAMIN), variant=variant, diet=[{"component": "a", "modifier": "corners"}] * 2)
    assert only_error(document)["path"] == "players"


def test_nine_players_are_scored() -> None:
    result = scoring.score(sheet(*[grid(BENJAMIN)] * 9))
    assert [p["score"] for p in result["players"]] == [11] * 9
    assert [p["rank"] for p in result["players"]] == [1] * 9


def test_an_unknown_variant_is_refused() -> None:
    assert only_error(sheet(grid(BENJAMIN), grid(SOFIA), variant="solo"))["path"] == "variant"


# The rulebook's examples ---------------------------------------------------------------------------


def test_a_group_of_five_sandwiches_gives_three_points_and_two_donuts_nothing() -> None:
    # The cloths alternate, so no tablecloth group scores.
    rows = [
        ["sandwich/green", "sandwich/orange", "sandwich/green", "donut/orange"],
        ["sandwich/orange", "sandwich/green", "soda/orange", "donut/green"],
    ]
    player = scoring.score(sheet(grid(rows), grid(SOFIA)))["players"][0]
    assert player["score"] == 3
    assert player["breakdown"]["groups"] == [{"kind": "snack", "component": "sandwich", "size": 5, "points": 3}]
    assert player["breakdown"]["largest_group"] == 5


@pytest.mark.parametrize(("size", "points"), [(1, 0), (2, 0), (3, 1), (4, 2), (5, 3), (6, 4), (7, 5), (8, 6)])
def test_the_points_table_with_tallies(size: int, points: int) -> None:
    assert scores(sheet(tally({"sandwich": [size]}), tally(cloths={"green": [size]}))) == [points, points]


@pytest.mark.parametrize("size", range(1, 17))
def test_the_points_table_with_grids(size: int) -> None:
    # The first `size` squares in reading order are sandwiches; every other square is a different snack,
    # and the cloths form a chequerboard, so the sandwiches are the only group of more than one.
    squares = [
        f"{'sandwich' if i < size else f'snack{i}'}/{'green' if (i // 4 + i % 4) % 2 else 'orange'}" for i in range(16)
    ]
    rows = [squares[r * 4 : r * 4 + 4] for r in range(4)]
    player = scoring.score(sheet(grid(rows), grid(SOFIA)))["players"][0]
    assert player["score"] == max(size - 2, 0)
    assert player["breakdown"]["largest_group"] == size


def test_benjamin_scores_11_and_sofia_13_and_sofia_wins() -> None:
    result = scoring.score(
        {"game": "snack-match", "players": ["Benjamín", "Sofía"], "zones": [grid(BENJAMIN), grid(SOFIA)]}
    )
    benjamin, sofia = result["players"]
    assert (benjamin["score"], benjamin["rank"]) == (11, 2)
    assert (sofia["score"], sofia["rank"]) == (13, 1)
    assert benjamin["breakdown"] == {
        "groups": BENJAMIN_GROUPS,
        "groups_points": 11,
        "modifiers": [],
        "modifiers_points": 0,
        "largest_group": 5,
    }
    assert sofia["breakdown"]["groups"] == SOFIA_GROUPS
    assert sofia["tiebreak"] == [9]
    assert benjamin["tiebreak"] == [5]


def test_the_example_zones_as_tallies_score_the_same() -> None:
    result = scoring.score(sheet({"groups": BENJAMIN_TALLY}, {"groups": SOFIA_TALLY}))
    assert [p["score"] for p in result["players"]] == [11, 13]
    assert [p["rank"] for p in result["players"]] == [2, 1]
    assert result["players"][0]["breakdown"]["groups"] == BENJAMIN_GROUPS
    assert result["players"][1]["breakdown"]["groups"] == SOFIA_GROUPS


def test_the_example_tallies_may_leave_out_groups_of_one_and_two() -> None:
    benjamin = tally({"soda": [4], "donut": [4], "sandwich": [3]}, {"orange": [5], "green": [5]})
    sofia = tally({"sandwich": [4], "sausage": [4], "soda": [3]}, {"green": [9], "orange": [3]})
    assert scores(sheet(benjamin, sofia)) == [11, 13]


def test_a_grid_and_a_tally_may_sit_at_the_same_table() -> None:
    assert scores(sheet(grid(BENJAMIN), {"groups": SOFIA_TALLY})) == [11, 13]


def test_tally_from_grid_gives_every_group_largest_first() -> None:
    assert tally_from_grid(BENJAMIN) == {"groups": BENJAMIN_TALLY}
    assert tally_from_grid(SOFIA) == {"groups": SOFIA_TALLY}


# The standard game ---------------------------------------------------------------------------------


def test_snacks_and_tablecloths_are_grouped_separately() -> None:
    # "green" is a snack in some squares and a cloth in others: they never join.
    rows = [["green/pea", "pea/green", "green/pea"], ["pea/green", "green/pea", "pea/green"]]
    assert scores(sheet(grid(rows), grid(rows))) == [0, 0]


def test_squares_touching_only_at_a_corner_are_separate_groups() -> None:
    rows = picture({"w": "sandwich/a", "x": "soda/b", "y": "soda/c"}, "wxw", "xwy", "wyw")
    assert scores(sheet(grid(rows), grid(rows))) == [0, 0]


def test_separate_groups_of_one_component_each_score() -> None:
    rows = picture({"w": "sandwich/a", "x": "soda/b"}, "wwww", "xxxx", "wwwx")
    player = scoring.score(sheet(grid(rows), grid(SOFIA)))["players"][0]
    # Sandwiches 4 and 3, sodas 5; cloths a 4 and 3, b 5.
    assert player["score"] == 2 + 1 + 3 + 2 + 1 + 3
    assert [(g["kind"], g["component"], g["size"]) for g in player["breakdown"]["groups"]] == [
        ("snack", "soda", 5),
        ("snack", "sandwich", 4),
        ("snack", "sandwich", 3),
        ("cloth", "b", 5),
        ("cloth", "a", 4),
        ("cloth", "a", 3),
    ]


def test_a_grid_may_be_smaller_than_four_by_four_and_ragged() -> None:
    rows = [["donut/x", "donut/y"], ["donut/z"], [], [None, None, "soda/x"]]
    player = scoring.score(sheet(grid(rows), grid(SOFIA)))["players"][0]
    assert player["score"] == 1
    assert player["breakdown"]["largest_group"] == 3


def test_names_are_trimmed_and_otherwise_kept_as_written() -> None:
    rows = [["Donut / green", "Donut/green ", " Donut/green"], ["donut/Green", None, None]]
    player = scoring.score(sheet(grid(rows), grid(SOFIA)))["players"][0]
    assert [(g["component"], g["size"]) for g in player["breakdown"]["groups"]] == [("Donut", 3), ("green", 3)]


def test_tally_names_are_trimmed() -> None:
    player = scoring.score(sheet(tally({" donut ": [3]}), grid(SOFIA)))["players"][0]
    assert player["breakdown"]["groups"] == [{"kind": "snack", "component": "donut", "size": 3, "points": 1}]


def test_an_empty_tally_scores_nothing() -> None:
    result = scoring.score(sheet(tally(), {"groups": {"snacks": {}, "cloths": {"green": []}}}))
    assert [p["score"] for p in result["players"]] == [0, 0]
    assert result["players"][0]["breakdown"] == {
        "groups": [],
        "groups_points": 0,
        "modifiers": [],
        "modifiers_points": 0,
        "largest_group": 0,
    }


def test_a_null_form_counts_as_absent() -> None:
    assert scores(sheet({"grid": BENJAMIN, "groups": None}, {"grid": None, "groups": SOFIA_TALLY})) == [11, 13]


def test_keys_the_spec_does_not_name_are_ignored() -> None:
    document = sheet({"grid": BENJAMIN, "note": "x"}, {"groups": {**SOFIA_TALLY, "extra": 1}}, comment=[1])
    assert scores(document) == [11, 13]


def test_on_equal_scores_the_largest_group_wins() -> None:
    five = tally({"donut": [5]})
    three_three_three = tally({"donut": [3, 3], "soda": [3]})
    result = scoring.score(sheet(three_three_three, five))
    assert [p["score"] for p in result["players"]] == [3, 3]
    assert [p["tiebreak"] for p in result["players"]] == [[3], [5]]
    assert [p["rank"] for p in result["players"]] == [2, 1]


def test_players_still_tied_share_the_victory() -> None:
    result = scoring.score(sheet(tally({"donut": [5]}), tally(cloths={"green": [5]}), tally({"soda": [4]})))
    assert [p["rank"] for p in result["players"]] == [1, 1, 3]


def test_the_largest_group_counts_groups_that_do_not_score() -> None:
    pair = picture({"d": "donut/a", "x": "soda/b", "y": "sausage/c"}, "ddx", "xyx")
    singles = picture({"a": "donut/a", "b": "soda/b", "c": "sausage/c"}, "abc", "cab")
    result = scoring.score(sheet(grid(singles), grid(pair)))
    assert [p["tiebreak"] for p in result["players"]] == [[1], [2]]
    assert [p["rank"] for p in result["players"]] == [2, 1]


# The special diet ----------------------------------------------------------------------------------


def test_fewest_gives_three_points_to_the_player_with_the_fewest() -> None:
    one = picture(LEGEND, "Dwsw", "swos", "owsw", "swos")
    two = picture(LEGEND, "DDsw", "swos", "owsw", "swos")
    assert modifier_points(one, two, two, modifier="fewest") == [3, 0, 0]


def test_fewest_gives_three_points_to_every_tied_player() -> None:
    one = picture(LEGEND, "Dwsw", "swos", "owsw", "swos")
    two = picture(LEGEND, "DDsw", "swos", "owsw", "swos")
    assert modifier_points(one, two, one, modifier="fewest") == [3, 0, 3]


def test_fewest_includes_players_who_have_none() -> None:
    two = picture(LEGEND, "DDsw", "swos", "owsw", "swos")
    assert modifier_points(PLAIN, two, modifier="fewest") == [3, 0]
    assert modifier_points(PLAIN, PLAIN, modifier="fewest") == [3, 3]


def test_most_costs_three_points_to_the_player_with_the_most() -> None:
    one = picture(LEGEND, "Dwsw", "swos", "owsw", "swos")
    three = picture(LEGEND, "Dwsw", "sDos", "owsD", "swos")
    assert modifier_points(one, three, PLAIN, modifier="most") == [0, -3, 0]


def test_most_costs_three_points_to_every_tied_player() -> None:
    one = picture(LEGEND, "Dwsw", "swos", "owsw", "swos")
    three = picture(LEGEND, "Dwsw", "sDos", "owsD", "swos")
    assert modifier_points(three, one, three, modifier="most") == [-3, 0, -3]


def test_most_costs_nothing_when_nobody_has_any() -> None:
    assert modifier_points(PLAIN, PLAIN, PLAIN, modifier="most") == [0, 0, 0]


def test_most_applies_at_one_square() -> None:
    one = picture(LEGEND, "Dwsw", "swos", "owsw", "swos")
    assert modifier_points(one, PLAIN, modifier="most") == [-3, 0]


def test_corners_gives_a_point_per_corner_square() -> None:
    all_corners = picture(LEGEND, "DwsD", "swos", "owsw", "DwsD")
    two_corners = picture(LEGEND, "Dwsw", "sDDs", "oDDw", "swoD")
    empty_corners = picture(LEGEND, ".DD.", "sDDs", "oDDw", ".DD.")
    assert modifier_points(all_corners, two_corners, empty_corners, PLAIN, modifier="corners") == [4, 2, 0, 0]


def test_center_costs_two_points_per_middle_square() -> None:
    full_centre = picture(LEGEND, "owsw", "sDDs", "oDDw", "swos")
    one = picture(LEGEND, "DDDD", "sDos", "Dwsw", "DDDD")
    assert modifier_points(full_centre, one, PLAIN, modifier="center") == [-8, -2, 0]


def test_groups_gives_a_point_per_group_single_squares_included() -> None:
    three_groups = picture(LEGEND, "Dwsw", "swDD", "DwsD", "Dwos")  # 1, then 3 (DD + D below), then 2
    one_group = picture(LEGEND, "DDDD", "DDDD", "DDDD", "DDDD")
    assert modifier_points(three_groups, one_group, PLAIN, modifier="groups") == [3, 1, 0]


def test_lines_gives_two_points_per_complete_row_or_column() -> None:
    row = picture(LEGEND, "owsw", "DDDD", "owsw", "swos")
    column = picture(LEGEND, "oDsw", "sDos", "oDsw", "sDos")
    cross = picture(LEGEND, "oDsw", "DDDD", "oDsw", "sDos")
    everything = picture(LEGEND, "DDDD", "DDDD", "DDDD", "DDDD")
    gap = picture(LEGEND, "oDsw", "DDD.", "oDsw", "s.os")
    assert modifier_points(row, column, cross, everything, gap, PLAIN, modifier="lines") == [2, 2, 4, 16, 0, 0]


def test_isolated_costs_two_points_per_square_not_in_a_group_of_two() -> None:
    # Diagonal neighbours do not make a group; the pair and the trio cost nothing.
    diagonal = picture(LEGEND, "Dwsw", "sDos", "owDw", "swos")
    mixed = picture(LEGEND, "DDsD", "swos", "DDsw", "Dwos")
    assert modifier_points(diagonal, mixed, PLAIN, modifier="isolated") == [-6, -2, 0]


def test_pairs_costs_two_points_per_group_of_exactly_two() -> None:
    two_pairs_and_a_trio = picture(LEGEND, "DDsw", "swoD", "DwsD", "DDos")
    single_and_four = picture(LEGEND, "Dwsw", "swos", "DDDD", "swos")
    assert modifier_points(two_pairs_and_a_trio, single_and_four, PLAIN, modifier="pairs") == [-4, 0, 0]


def test_a_diet_component_matches_a_snack_or_a_tablecloth() -> None:
    # "green" is the cloth of G and B squares; a B square (donut/green) counts once.
    greens = picture(LEGEND, "GBsw", "swos", "owsw", "swoG")
    assert modifier_points(greens, PLAIN, component="green", modifier="corners") == [2, 0]
    assert modifier_points(greens, PLAIN, component="green", modifier="most") == [-3, 0]
    assert modifier_points(greens, PLAIN, component="green", modifier="groups") == [2, 0]


def test_a_snack_and_a_tablecloth_of_one_name_are_two_components() -> None:
    # "green" is a snack in square a and a tablecloth in square b: never one group of two.
    rows = picture({"a": "green/x", "b": "y/green", "c": "z/z"}, "abcc", "cccc", "cccc", "cccc")
    document = diet_sheet(rows, PLAIN, diet=[("green", "pairs"), ("nothing", "corners")])
    with pytest.raises(scoring.ScoreSheetError) as refused:
        scoring.score(document)
    assert refused.value.errors == [
        {
            "path": "diet[0].kind",
            "message": "'green' is both a snack and a tablecloth at this table; say which the card shows.",
        }
    ]
    for kind in ("snack", "cloth"):
        document["diet"][0]["kind"] = kind
        result = scoring.score(document)
        assert [p["breakdown"]["modifiers"][0]["points"] for p in result["players"]] == [0, 0]
        document["diet"][0]["modifier"] = "isolated"
        result = scoring.score(document)
        assert [p["breakdown"]["modifiers"][0]["points"] for p in result["players"]] == [-2, 0]
        document["diet"][0]["modifier"] = "pairs"


def test_squares_of_one_name_group_only_within_their_kind() -> None:
    # Orange snacks on orange tablecloths: a group of 3 snacks and a group of 3 cloths, each scoring 1.
    rows = picture({"o": "orange/orange", "g": "soda/green"}, "ooog", "gggg", "....", "....")
    players = scoring.score(sheet(grid(rows), grid(PLAIN[:2]), variant="standard"))["players"]
    assert players[0]["breakdown"]["groups"] == [
        {"kind": "snack", "component": "soda", "size": 5, "points": 3},
        {"kind": "snack", "component": "orange", "size": 3, "points": 1},
        {"kind": "cloth", "component": "green", "size": 5, "points": 3},
        {"kind": "cloth", "component": "orange", "size": 3, "points": 1},
    ]


def test_a_diet_card_names_its_kind_or_the_zones_tell_it() -> None:
    card = {"component": "donut", "modifier": "corners", "kind": "dessert"}
    document = diet_sheet(PLAIN, PLAIN, diet=[("donut", "groups")])
    document["diet"] = [card, {"component": "green", "modifier": "groups"}]
    with pytest.raises(scoring.ScoreSheetError) as refused:
        scoring.score(document)
    assert refused.value.errors[0]["path"] == "diet[0].kind"


def test_special_diet_adds_modifiers_to_the_groups() -> None:
    benjamin_diet = diet_sheet(BENJAMIN, SOFIA, diet=[("green", "fewest"), ("sandwich", "isolated")])
    result = scoring.score(benjamin_diet)
    benjamin, sofia = result["players"]
    # Benjamín has 5 green squares against Sofía's 9; his sandwiches are one group of 3,
    # Sofía has a group of 4 and a single sandwich.
    assert benjamin["breakdown"]["modifiers"] == [
        {"component": "green", "modifier": "fewest", "points": 3},
        {"component": "sandwich", "modifier": "isolated", "points": 0},
    ]
    assert sofia["breakdown"]["modifiers"] == [
        {"component": "green", "modifier": "fewest", "points": 0},
        {"component": "sandwich", "modifier": "isolated", "points": -2},
    ]
    assert (benjamin["score"], sofia["score"]) == (14, 11)
    assert benjamin["breakdown"]["modifiers_points"] == 3
    assert sofia["breakdown"]["modifiers_points"] == -2
    assert [p["rank"] for p in result["players"]] == [1, 2]


def test_the_largest_group_still_breaks_ties_in_the_special_diet() -> None:
    result = scoring.score(diet_sheet(BENJAMIN, SOFIA, diet=[("sandwich", "isolated"), ("cake", "corners")]))
    # Sofía: 13 - 2 for her single sandwich; Benjamín: 11. Her green group of 9 beats his groups of 5.
    assert [p["score"] for p in result["players"]] == [11, 11]
    assert [p["tiebreak"] for p in result["players"]] == [[5], [9]]
    assert [p["rank"] for p in result["players"]] == [2, 1]


# Checks of the document ----------------------------------------------------------------------------


def test_zones_are_required() -> None:
    document = {"game": "snack-match", "players": ["Ada", "Bea"]}
    assert only_error(document) == {"path": "zones", "message": "List one picnic zone per player, in seat order."}


def test_zones_must_be_a_list() -> None:
    document = {"game": "snack-match", "players": ["Ada", "Bea"], "zones": {"Ada": {}}}
    assert only_error(document) == {"path": "zones", "message": "A list is expected here."}


def test_there_is_one_zone_per_player() -> None:
    document = sheet(grid(BENJAMIN), grid(SOFIA))
    document["zones"].append(grid(SOFIA))
    error = only_error(document)
    assert error["path"] == "zones"
    assert "one entry per player (2); there are 3" in error["message"]


def test_a_zone_is_an_object() -> None:
    assert only_error(sheet(grid(BENJAMIN), ["grid"]))["path"] == "zones[1]"


def test_a_zone_has_exactly_one_form() -> None:
    both = only_error(sheet(grid(BENJAMIN), {"grid": SOFIA, "groups": SOFIA_TALLY}))
    assert both == {
        "path": "zones[1]",
        "message": "Give this picnic zone either as its groups or as its grid, not both.",
    }
    neither = only_error(sheet(grid(BENJAMIN), {}))
    assert neither == {"path": "zones[1]", "message": "Give this picnic zone as its groups or as its grid."}


def test_a_grid_is_a_list_of_lists() -> None:
    assert only_error(sheet(grid("sandwich/green"), grid(SOFIA)))["path"] == "zones[0].grid"
    assert only_error(sheet(grid([*SOFIA[:3], "sandwich/green"]), grid(SOFIA)))["path"] == "zones[0].grid[3]"


def test_a_grid_has_at_most_four_rows_of_four_squares() -> None:
    tall = only_error(sheet(grid([*SOFIA, [None]]), grid(SOFIA)))
    assert tall == {"path": "zones[0].grid", "message": "A picnic zone is at most 4 rows high; this grid has 5."}
    wide = only_error(sheet(grid([SOFIA[0], [*SOFIA[1], None]]), grid(SOFIA)))
    assert wide == {
        "path": "zones[0].grid[1]",
        "message": "A picnic zone is at most 4 squares wide; this row has 5.",
    }


@pytest.mark.parametrize(
    "square",
    ["sandwich", "sandwich/green/blue", "/green", "sandwich/", " / ", "", 3, True, ["sandwich", "green"], {"a": "b"}],
)
def test_a_square_is_snack_slash_cloth_or_null(square: object) -> None:
    rows = [row[:] for row in SOFIA]
    rows[2][1] = square
    assert only_error(sheet(grid(BENJAMIN), grid(rows))) == {
        "path": "zones[1].grid[2][1]",
        "message": "Write a square as 'snack/tablecloth', like 'sandwich/green', or null where there is no card.",
    }


@pytest.mark.parametrize("square", ["s" * 41 + "/green", "sandwich/" + "g" * 41])
def test_names_in_a_square_have_at_most_40_characters(square: str) -> None:
    rows = [row[:] for row in SOFIA]
    rows[0][0] = square
    assert only_error(sheet(grid(rows), grid(SOFIA))) == {
        "path": "zones[0].grid[0][0]",
        "message": "A snack or tablecloth name has at most 40 characters.",
    }
    rows[0][0] = "s" * 40 + "/" + "g" * 40
    assert scores(sheet(grid(rows), grid(SOFIA)))[0] == 11


def test_every_bad_square_is_reported() -> None:
    rows = [["a/b", 1, "c"], ["x/y", "z/w", None], [None, "q"]]
    paths = [e["path"] for e in errors(sheet(grid(rows), grid(SOFIA)))]
    assert paths == ["zones[0].grid[0][1]", "zones[0].grid[0][2]", "zones[0].grid[2][1]"]


def test_a_grid_shows_at_least_the_card_on_top() -> None:
    rows = [["sandwich/green", None], [None, "soda/blue"]]
    assert only_error(sheet(grid(rows), grid(SOFIA))) == {
        "path": "zones[0].grid",
        "message": "A picnic zone shows at least the 3 squares of the card on top; this grid shows 2.",
    }
    assert only_error(sheet(grid([]), grid(SOFIA)))["message"].endswith("this grid shows 0.")


def test_a_tally_is_an_object_of_kinds() -> None:
    assert only_error(sheet({"groups": [5, 3]}, grid(SOFIA)))["path"] == "zones[0].groups"
    assert only_error(sheet({"groups": {"snacks": [5]}}, grid(SOFIA)))["path"] == "zones[0].groups.snacks"
    assert only_error(sheet({"groups": {"cloths": "green"}}, grid(SOFIA)))["path"] == "zones[0].groups.cloths"


def test_a_tally_lists_sizes_per_name() -> None:
    error = only_error(sheet(tally({"donut": 5}), grid(SOFIA)))
    assert error == {"path": "zones[0].groups.snacks.donut", "message": "A list is expected here."}


@pytest.mark.parametrize(
    ("size", "message"),
    [
        (0, "This must be at least 1; it is 0."),
        (-3, "This must be at least 1; it is -3."),
        (17, "This must be at most 16; it is 17."),
        (10**12, "This number is far too large for a score sheet."),
        ("5", "Write a whole number here."),
        (5.0, "Write a whole number here."),
        (True, "Write a whole number here."),
        (None, "Write a whole number here."),
    ],
)
def test_a_group_size_is_a_whole_number_from_1_to_16(size: object, message: str) -> None:
    error = only_error(sheet(tally(cloths={"green": [3, size]}), grid(SOFIA)))
    assert error == {"path": "zones[0].groups.cloths.green[1]", "message": message}


def test_the_groups_of_one_kind_cover_at_most_16_squares() -> None:
    assert scores(sheet(tally({"donut": [8, 8]}, {"green": [16]}), grid(SOFIA)))[0] == 6 + 6 + 14
    error = only_error(sheet(tally({"donut": [8], "soda": [8, 1]}), grid(SOFIA)))
    assert error == {
        "path": "zones[0].groups.snacks",
        "message": "The groups of one kind cover at most the 16 squares of a picnic zone; these add up to 17.",
    }


def test_a_tally_lists_at_most_16_groups_per_name() -> None:
    error = only_error(sheet(tally({"donut": [1] * 17}), grid(SOFIA)))
    assert error == {
        "path": "zones[0].groups.snacks.donut",
        "message": "A picnic zone has at most 16 squares; this lists 17 groups.",
    }


def test_a_tally_names_at_most_16_components_of_one_kind() -> None:
    error = only_error(sheet(tally(cloths={f"cloth{i}": [] for i in range(17)}), grid(SOFIA)))
    assert error == {
        "path": "zones[0].groups.cloths",
        "message": "A picnic zone has 16 squares, so at most 16 different names of one kind; this lists 17.",
    }


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "A snack or tablecloth name is expected here."),
        ("   ", "A snack or tablecloth name is expected here."),
        (7, "A snack or tablecloth name is expected here."),
        ("d" * 41, "A snack or tablecloth name has at most 40 characters."),
    ],
)
def test_tally_names_are_short_non_empty_texts(name: object, message: str) -> None:
    error = only_error(sheet(tally({name: [3], "soda": [4]}), grid(SOFIA)))
    assert error == {"path": "zones[0].groups.snacks", "message": message}


def test_every_problem_of_every_zone_is_reported() -> None:
    document = sheet(tally({"donut": [0]}, {"green": "x"}), grid([["a"]]), 5)
    assert [e["path"] for e in errors(document)] == [
        "zones[0].groups.snacks.donut[0]",
        "zones[0].groups.cloths.green",
        "zones[1].grid[0][0]",
        "zones[2]",
    ]


# Checks of the special diet ------------------------------------------------------------------------


def test_a_diet_belongs_to_the_special_diet_variant() -> None:
    document = sheet(grid(BENJAMIN), grid(SOFIA), diet=[{"component": "donut", "modifier": "corners"}] * 2)
    assert only_error(document) == {
        "path": "diet",
        "message": "Only the special-diet variant has a diet; choose that variant or leave the diet out.",
    }


def test_the_special_diet_needs_a_diet() -> None:
    document = sheet(grid(BENJAMIN), grid(SOFIA), variant="special-diet")
    assert only_error(document) == {
        "path": "diet",
        "message": "The special diet needs its two extra cards, each a component and a modifier.",
    }


@pytest.mark.parametrize("count", [0, 1, 3])
def test_the_special_diet_has_exactly_two_cards(count: int) -> None:
    cards = [{"component": "donut", "modifier": m} for m in MODIFIERS[:count]]
    error = only_error(sheet(grid(BENJAMIN), grid(SOFIA), variant="special-diet", diet=cards))
    assert error == {
        "path": "diet",
        "message": f"The special diet uses exactly two extra cards; this diet has {count}.",
    }


def test_a_diet_is_a_list() -> None:
    document = sheet(grid(BENJAMIN), grid(SOFIA), variant="special-diet", diet={"donut": "corners"})
    assert only_error(document) == {"path": "diet", "message": "A list is expected here."}


def test_a_diet_card_has_a_component_and_a_modifier() -> None:
    cards = ["donut", {"component": " ", "modifier": "tasty"}]
    document = sheet(grid(BENJAMIN), grid(SOFIA), variant="special-diet", diet=cards)
    found = errors(document)
    assert [e["path"] for e in found] == ["diet[0]", "diet[1].component", "diet[1].modifier"]
    assert found[2]["message"] == (
        "'tasty' is not one of: fewest, corners, groups, lines, most, isolated, center, pairs."
    )


def test_a_diet_component_has_at_most_40_characters() -> None:
    cards = [{"component": "d" * 41, "modifier": "corners"}, {"component": "soda", "modifier": "most"}]
    document = sheet(grid(BENJAMIN), grid(SOFIA), variant="special-diet", diet=cards)
    assert only_error(document)["path"] == "diet[0].component"


def test_a_modifier_is_chosen_once() -> None:
    document = diet_sheet(BENJAMIN, SOFIA, diet=[("donut", "corners"), ("soda", "corners")])
    assert only_error(document) == {
        "path": "diet[1].modifier",
        "message": "The two extra cards are different modifier cards; 'corners' is chosen twice.",
    }


def test_the_same_component_may_carry_both_cards() -> None:
    result = scoring.score(diet_sheet(BENJAMIN, SOFIA, diet=[("soda", "corners"), ("soda", "pairs")]))
    assert [p["breakdown"]["modifiers_points"] for p in result["players"]] == [1, 0]


def test_the_special_diet_refuses_tallies() -> None:
    document = diet_sheet(BENJAMIN, SOFIA, diet=[("donut", "corners"), ("soda", "most")])
    document["zones"][1] = {"groups": SOFIA_TALLY}
    assert only_error(document) == {
        "path": "zones[1].groups",
        "message": (
            "The special diet needs every picnic zone as a full 4 x 4 grid, so that corners and centre are known."
        ),
    }


def test_the_special_diet_needs_full_four_by_four_grids() -> None:
    short = diet_sheet(BENJAMIN, SOFIA[:3], diet=[("donut", "corners"), ("soda", "most")])
    assert only_error(short) == {
        "path": "zones[1].grid",
        "message": "The special diet needs a full 4 x 4 grid, null where there is no card; this grid has 3 rows.",
    }
    narrow = diet_sheet(BENJAMIN, [*SOFIA[:3], SOFIA[3][:3]], diet=[("donut", "corners"), ("soda", "most")])
    assert only_error(narrow) == {
        "path": "zones[1].grid[3]",
        "message": "Each row of a full 4 x 4 grid has 4 squares, null where there is no card; this row has 3.",
    }


def test_diet_and_zone_problems_are_reported_together() -> None:
    document = diet_sheet(BENJAMIN, SOFIA[:3], diet=[("donut", "corners"), ("soda", "corners")])
    assert [e["path"] for e in errors(document)] == ["diet[1].modifier", "zones[1].grid"]


def test_tally_from_grid_reports_a_bad_grid() -> None:
    with pytest.raises(scoring.ScoreSheetError) as caught:
        tally_from_grid([["sandwich/green", "soda"], ["donut/blue"]])
    assert caught.value.errors == [
        {
            "path": "grid[0][1]",
            "message": "Write a square as 'snack/tablecloth', like 'sandwich/green', or null where there is no card.",
        }
    ]
    with pytest.raises(scoring.ScoreSheetError):
        tally_from_grid(None)


# Hostile documents ---------------------------------------------------------------------------------


def test_huge_lists_are_refused_without_reading_them() -> None:
    many = [None] * 10**6
    assert only_error(sheet(grid(many), grid(SOFIA)))["path"] == "zones[0].grid"
    assert only_error(sheet(grid([many]), grid(SOFIA)))["path"] == "zones[0].grid[0]"
    assert only_error(sheet(tally({"donut": many}), grid(SOFIA)))["path"] == "zones[0].groups.snacks.donut"
    names = {f"n{i}": [] for i in range(10**5)}
    assert only_error(sheet(tally(names), grid(SOFIA)))["path"] == "zones[0].groups.snacks"
    document = sheet(grid(BENJAMIN), grid(SOFIA), variant="special-diet", diet=many)
    assert only_error(document)["path"] == "diet"


def test_a_huge_square_text_is_refused() -> None:
    rows = [row[:] for row in SOFIA]
    rows[1][1] = "x" * 10**6 + "/green"
    assert only_error(sheet(grid(rows), grid(SOFIA)))["path"] == "zones[0].grid[1][1]"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=5),
    max_leaves=20,
)
SQUARE_TEXT = st.sampled_from(["a/x", "b/y", "a/y", " a / x ", "a", "/", "a/b/c", None, 3])


@FAST
@given(
    zones=st.lists(
        JSON
        | st.fixed_dictionaries({"grid": st.lists(st.lists(SQUARE_TEXT | JSON, max_size=5), max_size=5)})
        | st.fixed_dictionaries(
            {
                "groups": st.dictionaries(
                    st.sampled_from(["snacks", "cloths"]), st.dictionaries(st.text(max_size=3), JSON)
                )
            }
        ),
        min_size=2,
        max_size=3,
    ),
    variant=st.sampled_from(["standard", "special-diet", None]),
    diet=JSON | st.lists(st.fixed_dictionaries({"component": JSON, "modifier": st.sampled_from(MODIFIERS) | JSON})),
)
def test_any_document_is_scored_or_refused_with_problems(zones: list, variant: str | None, diet: object) -> None:
    document: dict = {"game": "snack-match", "players": NAMES[: len(zones)], "zones": zones, "diet": diet}
    if variant is not None:
        document["variant"] = variant
    try:
        scoring.score(document)
    except scoring.ScoreSheetError as error:
        assert error.errors
        assert all(isinstance(e["path"], str) and e["message"] for e in error.errors)


# Properties ----------------------------------------------------------------------------------------

SQUARES = st.one_of(
    st.none(),
    st.builds("{}/{}".format, st.sampled_from(["donut", "soda", "sausage"]), st.sampled_from(["green", "orange"])),
)
FULL_GRIDS = st.lists(st.lists(SQUARES, min_size=4, max_size=4), min_size=4, max_size=4)
RAGGED_GRIDS = st.lists(st.lists(SQUARES, max_size=4), max_size=4)
DIETS = st.lists(
    st.tuples(st.sampled_from(["donut", "soda", "green", "orange", "cake"]), st.sampled_from(MODIFIERS)),
    min_size=2,
    max_size=2,
    unique_by=lambda card: card[1],
)


def shown(rows: list) -> int:
    return sum(square is not None for row in rows for square in row)


@FAST
@given(grids=st.lists(FULL_GRIDS, min_size=2, max_size=6), diet=st.none() | DIETS, turn=st.integers(1, 5))
def test_rotating_the_seats_changes_nobody_s_result(grids: list, diet: list | None, turn: int) -> None:
    assume(all(shown(rows) >= 3 for rows in grids))
    turn %= len(grids)
    document = sheet(*(grid(rows) for rows in grids)) if diet is None else diet_sheet(*grids, diet=diet)
    rotated = {
        **document,
        "players": document["players"][turn:] + document["players"][:turn],
        "zones": document["zones"][turn:] + document["zones"][:turn],
    }
    before = {p["name"]: p for p in scoring.score(document)["players"]}
    after = {p["name"]: p for p in scoring.score(rotated)["players"]}
    assert before == after


@FAST
@given(rows=RAGGED_GRIDS, other=FULL_GRIDS)
def test_a_grid_and_its_tally_score_the_same(rows: list, other: list) -> None:
    assume(shown(rows) >= 3 and shown(other) >= 3)
    from_grid = scoring.score(sheet(grid(rows), grid(other)))["players"]
    from_tally = scoring.score(sheet(tally_from_grid(rows), tally_from_grid(other)))["players"]
    assert from_grid == from_tally


@FAST
@given(rows=RAGGED_GRIDS)
def test_tally_from_grid_finds_the_same_groups_as_find_groups(rows: list) -> None:
    assume(shown(rows) >= 3)
    groups = tally_from_grid(rows)["groups"]
    for part, key in ((0, "snacks"), (1, "cloths")):
        expected = Counter(
            (g.kind, g.size)
            for g in find_groups(rows, lambda square, i=part: None if square is None else square.split("/")[i])
        )
        found = Counter((name, size) for name, sizes in groups[key].items() for size in sizes)
        assert found == expected
        assert sum(size * count for (_name, size), count in found.items()) == shown(rows)


@FAST
@given(
    snacks=st.dictionaries(st.sampled_from(["donut", "soda", "cake"]), st.lists(st.integers(1, 5), max_size=1)),
    cloths=st.dictionaries(st.sampled_from(["green", "orange"]), st.lists(st.integers(1, 4), max_size=2)),
)
def test_a_tally_scores_size_minus_two_per_group_of_three_or_more(snacks: dict, cloths: dict) -> None:
    player = scoring.score(sheet(tally(snacks, cloths), grid(SOFIA)))["players"][0]
    sizes = [size for named in (snacks, cloths) for sizes in named.values() for size in sizes]
    assert player["score"] == sum(size - 2 for size in sizes if size >= 3)
    assert player["tiebreak"] == [max(sizes, default=0)]


@FAST
@given(grids=st.lists(FULL_GRIDS, min_size=2, max_size=5), diet=DIETS)
def test_the_special_diet_score_is_groups_plus_modifiers(grids: list, diet: list) -> None:
    assume(all(shown(rows) >= 3 for rows in grids))
    diet_result = scoring.score(diet_sheet(*grids, diet=diet))["players"]
    plain_result = scoring.score(sheet(*(grid(rows) for rows in grids)))["players"]
    for with_diet, plain in zip(diet_result, plain_result, strict=True):
        assert with_diet["breakdown"]["groups"] == plain["breakdown"]["groups"]
        assert with_diet["score"] == plain["score"] + with_diet["breakdown"]["modifiers_points"]
        assert [m["modifier"] for m in with_diet["breakdown"]["modifiers"]] == [m for _c, m in diet]
