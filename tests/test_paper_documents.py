"""From a paper sheet's fields to the score-sheet document: every game's sheet, blank boxes and ticks."""

from __future__ import annotations

import scoring
from tournaments.entry.paths import put, steps_of
from tournaments.games import get_game

NAMES = ["Ada", "Bea", "Cyd", "Dan"]


def test_steps_and_put_build_nested_lists_and_objects():
    assert steps_of("stands[1].goods.grapes.largest") == ["stands", 1, "goods", "grapes", "largest"]
    sheet: dict = {}
    put(sheet, "zones[1].groups.snacks.sandwich[2]", 4)
    assert sheet == {"zones": [None, {"groups": {"snacks": {"sandwich": [None, None, 4]}}}]}


def test_a_vegetables_manche_with_blank_bonus_and_penalty_boxes_scores():
    values = {}
    for p, (pozzo, crosses) in enumerate(zip((30, 20, 10, 0), (6, 4, 3, 3))):
        values[f"manches[0].pozzo[{p}]"] = pozzo
        values[f"manches[0].sequences[{p}]"] = crosses
        values[f"manches[0].family_bonuses[{p}]"] = None
        values[f"manches[0].penalties[{p}]"] = 1 if p == 3 else None
    sheet = get_game("vegetables").sheet_from_paper(NAMES, values)
    assert sheet["manches"][0]["family_bonuses"] == [0, 0, 0, 0]
    result = scoring.score(sheet)
    assert [player["score"] for player in result["players"]] == [90, 60, 40, -20]


def test_veggies_goods_left_blank_are_not_in_the_stand_and_ticks_declare():
    values = {
        "stands[0].declared": ["grapes"],
        "stands[0].goods.grapes.largest": 5,
        "stands[0].goods.grapes.groups": 1,
        "stands[0].goods.carrots.largest": None,
        "stands[0].goods.carrots.groups": None,
        "stands[0].mice": None,
        "stands[1].declared": [],
        "stands[1].goods.grapes.largest": 3,
        "stands[1].goods.grapes.groups": 2,
        "stands[1].mice": 2,
    }
    sheet = get_game("veggies").sheet_from_paper(NAMES[:2], values)
    assert sheet["stands"][0] == {"declared": ["grapes"], "goods": {"grapes": {"largest": 5, "groups": 1}}, "mice": 0}
    assert "declared" not in sheet["stands"][1]


def test_snack_match_blank_group_boxes_are_no_group():
    values = {
        "zones[0].groups.snacks.sandwich[0]": 11,
        "zones[0].groups.snacks.sandwich[1]": None,
        "zones[0].groups.snacks.sandwich[2]": 3,
        "zones[0].groups.snacks.donut[0]": None,
        "zones[1].groups.snacks.donut[0]": 4,
    }
    sheet = get_game("snack-match").sheet_from_paper(NAMES[:2], values)
    assert sheet["zones"][0] == {"groups": {"snacks": {"sandwich": [11, 3]}}}
    assert sheet["zones"][1] == {"groups": {"snacks": {"donut": [4]}}}


def test_cheese_rescue_ticks_are_the_points_and_cards_left():
    values = {"tallies[0].cheeses": ["1", "1", "3"], "tallies[1].cheeses": []}
    sheet = get_game("cheese-rescue").sheet_from_paper(NAMES[:2], values)
    assert sheet["tallies"] == [{"cheese_points": 5, "cheese_cards": 3}, {"cheese_points": 0, "cheese_cards": 0}]
