"""Crown Tricks, the test game whose rules live beside its bundle: scored by the rules core like any game."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoring
from tests.games.crown_tricks.rules import CROWN, LIMITS, RULES

NAMES = ["Ada", "Bea", "Cyd", "Dan", "Eve"]
FAST = settings(max_examples=200, deadline=None)
GAMES = {RULES.key: RULES}


@st.composite
def sheets(draw) -> dict:
    count = draw(st.sampled_from(RULES.table_sizes))
    column = {key: st.lists(st.integers(0, limit), min_size=count, max_size=count) for key, limit in LIMITS.items()}
    columns = {key: draw(values) for key, values in column.items()}
    return {"game": RULES.key, "players": NAMES[:count], **columns}


@FAST
@given(sheets())
def test_a_trick_is_a_point_a_crown_three_and_fewer_penalties_break_a_tie(sheet):
    players = scoring.score(sheet, GAMES)["players"]
    keys = []
    for index, player in enumerate(players):
        assert player["score"] == sheet["tricks"][index] + CROWN * sheet["crowns"][index]
        keys.append((player["score"], -sheet["penalties"][index]))
    for player, key in zip(players, keys, strict=True):
        assert player["rank"] == 1 + sum(other > key for other in keys)


@FAST
@given(sheets(), st.sampled_from(sorted(LIMITS)), st.integers(0, 4), st.sampled_from([-1, 14, 10**6, "x", None]))
def test_a_number_out_of_its_range_is_refused_where_it_was_written(sheet, key, index, bad):
    index %= len(sheet["players"])
    if isinstance(bad, int) and 0 <= bad <= LIMITS[key]:
        bad = LIMITS[key] + 1
    sheet[key][index] = bad
    with pytest.raises(scoring.ScoreSheetError) as caught:
        scoring.score(sheet, GAMES)
    assert [error["path"] for error in caught.value.document()["errors"]] == [f"{key}[{index}]"]
