"""VEGEtables (expert): the rules of the Modulo Segnapunti and every check of a manche."""

from __future__ import annotations

from collections import OrderedDict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoring
from scoring.vegetables import MAX_MANCHES, MAX_PENALTIES, RULES, manche_total, pozzo_values

NAMES = ["Ada", "Bea", "Cyd", "Dan"]
ROW_KEYS = ["pozzo", "sequences", "family_bonuses", "penalties"]

# The spec's example manche: 30+60+30, 0+20-50, 20+50, 10+30.
SPEC_MANCHE = {
    "pozzo": [30, 0, 20, 10],
    "sequences": [6, 2, 5, 3],
    "family_bonuses": [1, 0, 0, 0],
    "penalties": [0, 1, 0, 0],
}


def manche(pozzo=(30, 20, 10, 0), sequences=(4, 4, 4, 4), family_bonuses=None, penalties=None) -> dict:
    count = len(pozzo)
    return {
        "pozzo": list(pozzo),
        "sequences": list(sequences),
        "family_bonuses": list(family_bonuses or [0] * count),
        "penalties": list(penalties or [0] * count),
    }


def sheet(*manches: dict, players: list[str] | None = None, **extra) -> dict:
    return {"game": "vegetables", "players": players or NAMES, "manches": list(manches), **extra}


def errors_of(document) -> list[dict[str, str]]:
    with pytest.raises(scoring.ScoreSheetError) as caught:
        scoring.score(document)
    return caught.value.errors


def only_error(document) -> dict[str, str]:
    errors = errors_of(document)
    assert len(errors) == 1, errors
    return errors[0]


def scores(result: dict) -> list[int]:
    return [p["score"] for p in result["players"]]


def ranks(result: dict) -> list[int]:
    return [p["rank"] for p in result["players"]]


# --- What the app knows of the game ---------------------------------------------------------------


def test_rules_describe_the_game():
    assert scoring.GAMES["vegetables"] is RULES
    assert RULES.name == "VEGEtables"
    assert [v.key for v in RULES.variants] == ["expert"]
    assert RULES.player_counts == (2, 3, 4)
    assert all(RULES.default_variant(n) == "expert" for n in (2, 3, 4))
    assert RULES.table_sizes == (2, 3, 4)
    assert RULES.has_manches is True
    assert RULES.tiebreak_label == ""


def test_tally_fields_are_the_four_manche_rows():
    fields = {f.key: f for f in RULES.tally_fields}
    assert list(fields) == ["pozzo", "sequences", "family_bonuses", "penalties"]
    assert fields["pozzo"].label == "Pozzo points"
    assert fields["sequences"].label == "Sequences (crosses)"
    assert fields["family_bonuses"].label == "Family bonuses (+30)"
    assert fields["penalties"].label == "Paid penalties (-50)"
    assert all(f.help for f in RULES.tally_fields)


def test_pozzo_values_are_ten_per_opponent_still_to_collect():
    assert pozzo_values(4) == (30, 20, 10, 0)
    assert pozzo_values(3) == (20, 10, 0)
    assert pozzo_values(2) == (10, 0)


# --- Scoring ---------------------------------------------------------------------------------------


def test_manche_total_is_pozzo_plus_crosses_plus_bonuses_minus_penalties():
    assert manche_total(0, 0, 0, 0) == 0
    assert manche_total(30, 0, 0, 0) == 30
    assert manche_total(0, 1, 0, 0) == 10
    assert manche_total(0, 0, 1, 0) == 30
    assert manche_total(0, 0, 0, 1) == -50
    assert manche_total(30, 6, 1, 0) == 120
    assert manche_total(0, 2, 0, 1) == -30


def test_spec_example_manche():
    result = scoring.score(sheet(SPEC_MANCHE))
    assert result["game"] == "vegetables"
    assert result["variant"] == "expert"
    assert scores(result) == [120, -30, 70, 40]
    assert ranks(result) == [1, 4, 2, 3]
    assert all(p["tiebreak"] == [] for p in result["players"])


def test_rulebook_sheet_example_crosses_are_worth_ten_each():
    # "il Segnapunti completa le 16 crocette e scrive i totali parziali (... 30, 70, 40, 20)"
    result = scoring.score(sheet(manche(pozzo=(0, 0, 0, 30), sequences=(3, 7, 4, 2))))
    assert [p["breakdown"]["sequences"] * 10 for p in result["players"]] == [30, 70, 40, 20]
    assert scores(result) == [30, 70, 40, 50]


def test_breakdown_lists_each_manche_and_the_sums():
    second = manche(pozzo=(0, 30, 20, 10), sequences=(1, 9, 3, 3), family_bonuses=(0, 2, 0, 0), penalties=(2, 0, 0, 0))
    result = scoring.score(sheet(SPEC_MANCHE, second))
    ada = result["players"][0]["breakdown"]
    assert ada == {
        "manches": [
            {"pozzo": 30, "sequences": 6, "family_bonuses": 1, "penalties": 0, "total": 120},
            {"pozzo": 0, "sequences": 1, "family_bonuses": 0, "penalties": 2, "total": -90},
        ],
        "pozzo": 30,
        "sequences": 7,
        "family_bonuses": 1,
        "penalties": 2,
        "total": 30,
    }
    assert scores(result) == [30, -30 + 30 + 90 + 60, 70 + 50, 40 + 40]


def test_score_is_the_sum_over_manches():
    one = manche(pozzo=(30, 20, 10, 0), sequences=(4, 4, 4, 4))
    result = scoring.score(sheet(one, one, one))
    assert scores(result) == [3 * 70, 3 * 60, 3 * 50, 3 * 40]


def test_tied_players_share_the_rank():
    result = scoring.score(sheet(manche(pozzo=(30, 20, 10, 0), sequences=(3, 4, 5, 4))))
    assert scores(result) == [60, 60, 60, 40]
    assert ranks(result) == [1, 1, 1, 4]


def test_variant_may_be_named():
    assert scoring.score(sheet(SPEC_MANCHE, variant="expert"))["variant"] == "expert"


def test_other_variants_are_unknown():
    error = only_error(sheet(SPEC_MANCHE, variant="standard"))
    assert error["path"] == "variant"
    assert "expert" in error["message"]


def test_three_players_use_the_same_sheet_with_pozzo_20_10_0():
    doc = sheet(manche(pozzo=(0, 20, 10), sequences=(6, 6, 4)), players=NAMES[:3])
    assert scores(scoring.score(doc)) == [60, 80, 50]


def test_two_players_pozzo_is_10_or_0():
    doc = sheet(manche(pozzo=(10, 0), sequences=(9, 7), family_bonuses=(2, 2), penalties=(0, 1)), players=NAMES[:2])
    assert scores(scoring.score(doc)) == [10 + 90 + 60, 70 + 60 - 50]


@pytest.mark.parametrize("players", [NAMES[:1], [*NAMES, "Eve"]])
def test_one_or_five_players_are_refused(players):
    count = len(players)
    doc = sheet(manche(pozzo=[0] * count, sequences=[0] * count), players=players)
    error = only_error(doc)
    assert error["path"] == "players"
    assert "2, 3, 4" in error["message"]


def test_a_manche_from_python_may_be_any_mapping():
    assert scores(scoring.score(sheet(OrderedDict(SPEC_MANCHE)))) == [120, -30, 70, 40]


def test_unknown_keys_are_ignored():
    doc = sheet({**SPEC_MANCHE, "notes": "great game"}, table=7)
    assert scores(scoring.score(doc)) == [120, -30, 70, 40]


# --- The crosses --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("crosses", "total"), [((4, 4, 4, 3), 15), ((4, 4, 4, 5), 17), ((0, 0, 0, 0), 0)])
def test_crosses_must_add_up_to_16(crosses, total):
    error = only_error(sheet(manche(sequences=crosses)))
    assert error == {"path": "manches[0].sequences", "message": f"A manche has 16 sequences; these add up to {total}."}


def test_all_16_crosses_may_go_to_one_player():
    assert scores(scoring.score(sheet(manche(sequences=(0, 16, 0, 0))))) == [30, 180, 10, 0]


def test_crosses_cannot_be_negative():
    error = only_error(sheet(manche(sequences=(20, -4, 0, 0))))
    assert error == {"path": "manches[0].sequences[1]", "message": "A player has 0 or more crosses; this says -4."}


# --- The pozzo ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("row", [(30, 20, 10, 0), (0, 10, 30, 20), (30, 0, 0, 0), (0, 20, 30, 0), (0, 0, 20, 30)])
def test_pozzo_rows_that_can_happen(row):
    assert scoring.score(sheet(manche(pozzo=row)))["players"][0]["breakdown"]["pozzo"] == row[0]


@pytest.mark.parametrize(
    ("row", "index", "value"), [((30, 20, 40, 0), 2, 40), ((30, 5, 10, 0), 1, 5), ((-10, 30, 20, 10), 0, -10)]
)
def test_pozzo_values_must_be_allowed(row, index, value):
    error = only_error(sheet(manche(pozzo=row)))
    assert error == {
        "path": f"manches[0].pozzo[{index}]",
        "message": f"With 4 players the pozzo is worth 30, 20, 10, 0 points; this says {value}.",
    }


def test_thirty_is_not_a_pozzo_value_with_three_players():
    error = only_error(sheet(manche(pozzo=(30, 20, 0), sequences=(6, 6, 4)), players=NAMES[:3]))
    assert error == {
        "path": "manches[0].pozzo[0]",
        "message": "With 3 players the pozzo is worth 20, 10, 0 points; this says 30.",
    }


def test_two_players_cannot_both_be_first_to_the_pozzo():
    error = only_error(sheet(manche(pozzo=(30, 30, 20, 10))))
    assert error == {
        "path": "manches[0].pozzo",
        "message": "Only one player gets 30 for the pozzo, so the row adds up to at most 60; 2 do.",
    }


def test_each_non_zero_pozzo_value_goes_to_one_player():
    errors = errors_of(sheet(manche(pozzo=(30, 10, 10, 10))))
    assert errors[0] == {
        "path": "manches[0].pozzo",
        "message": "Only one player gets 10 for the pozzo, so the row adds up to at most 60; 3 do.",
    }
    assert errors[1]["path"] == "manches[0].pozzo"
    assert "a 10 needs a 20" in errors[1]["message"]
    assert len(errors) == 2


def test_duplicate_pozzo_message_gives_the_maximum_for_the_table():
    error = only_error(sheet(manche(pozzo=(20, 20, 10), sequences=(6, 6, 4)), players=NAMES[:3]))
    assert error["message"] == "Only one player gets 20 for the pozzo, so the row adds up to at most 30; 2 do."


def test_several_players_may_have_zero_pozzo_points():
    assert scores(scoring.score(sheet(manche(pozzo=(0, 30, 0, 0))))) == [40, 70, 40, 40]


@pytest.mark.parametrize("row", [(0, 0, 0, 0), (20, 10, 0, 0), (10, 0, 0, 0), (0, 20, 0, 0)])
def test_someone_always_collects_the_pozzo_first(row):
    error = only_error(sheet(manche(pozzo=row)))
    assert error == {
        "path": "manches[0].pozzo",
        "message": "Someone collects the pozzo first in every manche and scores 30; no one has 30 here.",
    }


def test_no_pozzo_at_all_is_refused_with_two_players():
    error = only_error(sheet(manche(pozzo=(0, 0), sequences=(8, 8)), players=NAMES[:2]))
    assert error["message"] == "Someone collects the pozzo first in every manche and scores 10; no one has 10 here."


def test_pozzo_values_are_taken_from_the_top():
    error = only_error(sheet(manche(pozzo=(30, 10, 0, 0))))
    assert error == {
        "path": "manches[0].pozzo",
        "message": "Pozzo points go 30, 20, 10, 0 in the order players collect it; a 10 needs a 20.",
    }


def test_three_player_pozzo_rows():
    players = NAMES[:3]
    assert scores(scoring.score(sheet(manche(pozzo=(0, 20, 0), sequences=(6, 6, 4)), players=players))) == [60, 80, 40]
    error = only_error(sheet(manche(pozzo=(0, 10, 0), sequences=(6, 6, 4)), players=players))
    assert error["message"] == "Someone collects the pozzo first in every manche and scores 20; no one has 20 here."


def test_duplicate_top_and_missing_top_are_both_reported():
    errors = errors_of(sheet(manche(pozzo=(20, 20, 0, 0))))
    assert [e["message"] for e in errors] == [
        "Only one player gets 20 for the pozzo, so the row adds up to at most 60; 2 do.",
        "Someone collects the pozzo first in every manche and scores 30; no one has 30 here.",
    ]


# --- Family bonuses -------------------------------------------------------------------------------------


def test_family_bonus_is_worth_thirty():
    result = scoring.score(sheet(manche(family_bonuses=(1, 0, 2, 0))))
    assert scores(result) == [100, 60, 110, 40]


def test_family_bonuses_need_as_many_crosses():
    error = only_error(sheet(manche(sequences=(1, 5, 5, 5), family_bonuses=(2, 0, 0, 0))))
    assert error == {
        "path": "manches[0].family_bonuses[0]",
        "message": "A family bonus comes with a closed sequence; this player has 2 but 1 crosses.",
    }


def test_a_player_may_have_as_many_bonuses_as_crosses():
    result = scoring.score(sheet(manche(sequences=(2, 2, 6, 6), family_bonuses=(2, 2, 0, 0))))
    assert scores(result) == [110, 100, 70, 60]


def test_at_most_four_family_bonuses_in_a_manche():
    error = only_error(sheet(manche(family_bonuses=(2, 1, 1, 1))))
    assert error == {
        "path": "manches[0].family_bonuses",
        "message": "A manche has at most 4 family bonuses, one per colour family; these add up to 5.",
    }


def test_all_four_families_may_be_completed():
    assert scoring.score(sheet(manche(family_bonuses=(1, 1, 1, 1))))["players"][3]["score"] == 70


def test_family_bonuses_cannot_be_negative():
    error = only_error(sheet(manche(family_bonuses=(0, -1, 0, 0))))
    assert error == {
        "path": "manches[0].family_bonuses[1]",
        "message": "A player has 0 or more family bonuses; this says -1.",
    }


def test_bonus_checks_wait_for_valid_crosses_but_still_count_the_families():
    errors = errors_of(sheet(manche(sequences=(0, 0, 0, 1), family_bonuses=(5, 0, 0, 0))))
    assert [e["path"] for e in errors] == ["manches[0].sequences", "manches[0].family_bonuses"]


# --- Penalties --------------------------------------------------------------------------------------------


def test_each_paid_penalty_costs_fifty():
    result = scoring.score(sheet(manche(penalties=(0, 0, 1, 3))))
    assert scores(result) == [70, 60, 0, -110]


def test_penalties_cannot_be_negative():
    error = only_error(sheet(manche(penalties=(0, 0, -2, 0))))
    assert error == {
        "path": "manches[0].penalties[2]",
        "message": "Write how many penalties the player paid, 0 or more; this says -2.",
    }


def test_penalties_have_a_sane_upper_bound():
    assert scoring.score(sheet(manche(penalties=(MAX_PENALTIES, 0, 0, 0))))["players"][0]["score"] == 70 - 50 * 40
    error = only_error(sheet(manche(penalties=(0, MAX_PENALTIES + 1, 0, 0))))
    assert error == {
        "path": "manches[0].penalties[1]",
        "message": "A player pays at most 40 penalties in a manche; this says 41.",
    }


def test_negative_and_too_many_penalties_are_both_reported():
    errors = errors_of(sheet(manche(penalties=(-1, 99, 0, 0))))
    assert [e["path"] for e in errors] == ["manches[0].penalties[0]", "manches[0].penalties[1]"]


# --- The shape of the document ----------------------------------------------------------------------------


def test_manches_are_required():
    doc = {"game": "vegetables", "players": NAMES}
    error = only_error(doc)
    assert error == {
        "path": "manches",
        "message": "Write the manches of this round: a list with one entry per deal.",
    }


@pytest.mark.parametrize("value", [{"pozzo": [30, 20, 10, 0]}, "many", 3, True])
def test_manches_must_be_a_list(value):
    assert only_error({"game": "vegetables", "players": NAMES, "manches": value}) == {
        "path": "manches",
        "message": "A list is expected here.",
    }


def test_at_least_one_manche():
    assert only_error(sheet()) == {"path": "manches", "message": "A round has at least one manche; this list is empty."}


def test_at_most_fifty_manches():
    assert len(scoring.score(sheet(*[SPEC_MANCHE] * MAX_MANCHES))["players"][0]["breakdown"]["manches"]) == 50
    error = only_error(sheet(*[SPEC_MANCHE] * (MAX_MANCHES + 1)))
    assert error == {"path": "manches", "message": "A round has at most 50 manches; this sheet has 51."}


def test_a_huge_manche_list_is_refused_without_reading_it():
    error = only_error({"game": "vegetables", "players": NAMES, "manches": [None] * 1_000_000})
    assert error["path"] == "manches"


@pytest.mark.parametrize("value", [[30, 20, 10, 0], "manche", None, 7])
def test_a_manche_is_an_object(value):
    error = only_error(sheet(SPEC_MANCHE, value))
    assert error == {"path": "manches[1]", "message": "An object with named fields is expected here."}


@pytest.mark.parametrize("row", ROW_KEYS)
def test_every_row_is_required(row):
    incomplete = {key: value for key, value in SPEC_MANCHE.items() if key != row}
    error = only_error(sheet(incomplete))
    assert error == {
        "path": f"manches[0].{row}",
        "message": f"This manche has no {row} row; write one number per player.",
    }


@pytest.mark.parametrize("row", ROW_KEYS)
def test_every_row_has_one_entry_per_player(row):
    error = only_error(sheet({**SPEC_MANCHE, row: SPEC_MANCHE[row][:3]}))
    assert error == {
        "path": f"manches[0].{row}",
        "message": "There must be one entry per player (4); there are 3.",
    }


@pytest.mark.parametrize("row", ROW_KEYS)
def test_a_row_is_a_list(row):
    error = only_error(sheet({**SPEC_MANCHE, row: {"Ada": 1}}))
    assert error == {"path": f"manches[0].{row}", "message": "A list is expected here."}


@pytest.mark.parametrize("junk", [True, 3.0, "3", None, [3], {"n": 3}])
@pytest.mark.parametrize("row", ROW_KEYS)
def test_entries_are_whole_numbers(row, junk):
    values = list(SPEC_MANCHE[row])
    values[2] = junk
    error = only_error(sheet({**SPEC_MANCHE, row: values}))
    assert error == {"path": f"manches[0].{row}[2]", "message": "Write a whole number here."}


def test_huge_numbers_are_refused():
    error = only_error(sheet({**SPEC_MANCHE, "sequences": [10**30, 0, 0, 0]}))
    assert error == {"path": "manches[0].sequences[0]", "message": "This number is far too large for a score sheet."}


def test_every_problem_of_every_manche_is_reported_at_once():
    bad = {
        "pozzo": [30, 30, 10, 0],
        "sequences": [5, 5, 5, 0],
        "family_bonuses": [0, 0, 0, 5],
        "penalties": [0, 0, -1, 0],
    }
    errors = errors_of(sheet(SPEC_MANCHE, bad, 42, {"pozzo": "x"}))
    assert [e["path"] for e in errors] == [
        "manches[1].pozzo",
        "manches[1].pozzo",
        "manches[1].sequences",
        "manches[1].family_bonuses",
        "manches[1].penalties[2]",
        "manches[2]",
        "manches[3].pozzo",
        "manches[3].sequences",
        "manches[3].family_bonuses",
        "manches[3].penalties",
    ]


# --- Properties ----------------------------------------------------------------------------------------------


@st.composite
def valid_manches(draw, count: int) -> dict:
    """A manche a real table could write: pozzo from the top, 16 crosses, at most 4 bonuses within crosses."""
    collectors = draw(st.integers(1, count))
    order = draw(st.permutations(range(count)))
    allowed = pozzo_values(count)
    pozzo = [0] * count
    for place, seat in enumerate(order[:collectors]):
        pozzo[seat] = allowed[place]
    cuts = sorted(draw(st.lists(st.integers(0, 16), min_size=count - 1, max_size=count - 1)))
    bounds = [0, *cuts, 16]
    sequences = [bounds[i + 1] - bounds[i] for i in range(count)]
    bonuses = []
    families_left = 4
    for crosses in sequences:
        bonus = draw(st.integers(0, min(crosses, families_left)))
        families_left -= bonus
        bonuses.append(bonus)
    penalties = draw(st.lists(st.integers(0, MAX_PENALTIES), min_size=count, max_size=count))
    return {"pozzo": pozzo, "sequences": sequences, "family_bonuses": bonuses, "penalties": penalties}


@st.composite
def valid_sheets(draw) -> dict:
    count = draw(st.integers(2, 4))
    manches = draw(st.lists(valid_manches(count), min_size=1, max_size=6))
    return sheet(*manches, players=NAMES[:count])


@settings(max_examples=200, deadline=None)
@given(valid_sheets())
def test_valid_sheets_always_score_by_the_formula(doc):
    result = scoring.score(doc)
    for seat, player in enumerate(result["players"]):
        expected = sum(
            m["pozzo"][seat] + 10 * m["sequences"][seat] + 30 * m["family_bonuses"][seat] - 50 * m["penalties"][seat]
            for m in doc["manches"]
        )
        breakdown = player["breakdown"]
        assert player["score"] == expected == breakdown["total"]
        assert (
            breakdown["total"]
            == breakdown["pozzo"]
            + 10 * breakdown["sequences"]
            + 30 * breakdown["family_bonuses"]
            - 50 * breakdown["penalties"]
        )
        assert breakdown["total"] == sum(m["total"] for m in breakdown["manches"])
    assert sum(p["breakdown"]["sequences"] for p in result["players"]) == 16 * len(doc["manches"])


def rotate(items: list, shift: int) -> list:
    return items[shift:] + items[:shift]


@settings(max_examples=200, deadline=None)
@given(valid_sheets(), st.integers(0, 3))
def test_result_follows_the_players_when_seats_rotate(doc, shift):
    count = len(doc["players"])
    shift %= count
    rotated = sheet(
        *[{row: rotate(values, shift) for row, values in m.items()} for m in doc["manches"]],
        players=rotate(doc["players"], shift),
    )
    by_name = {p["name"]: p for p in scoring.score(doc)["players"]}
    for player in scoring.score(rotated)["players"]:
        assert player == by_name[player["name"]]


@settings(max_examples=200, deadline=None)
@given(valid_sheets(), st.data())
def test_crosses_not_adding_to_16_are_refused(doc, data):
    index = data.draw(st.integers(0, len(doc["manches"]) - 1))
    count = len(doc["players"])
    crosses = data.draw(st.lists(st.integers(0, 40), min_size=count, max_size=count).filter(lambda c: sum(c) != 16))
    doc["manches"][index] = {**doc["manches"][index], "sequences": crosses, "family_bonuses": [0] * count}
    error = only_error(doc)
    assert error == {
        "path": f"manches[{index}].sequences",
        "message": f"A manche has 16 sequences; these add up to {sum(crosses)}.",
    }


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=15), inner, max_size=5),
    max_leaves=10,
)
ROW_JUNK = st.lists(st.integers(-60, 60) | JSON, max_size=5) | JSON


@settings(max_examples=150, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(ROW_KEYS), ROW_JUNK) | JSON, max_size=4))
def test_any_json_gives_a_result_or_an_error_document(manches):
    try:
        result = scoring.score(sheet(*manches))
    except scoring.ScoreSheetError as error:
        assert error.errors
        assert all(isinstance(e["message"], str) and e["message"] for e in error.errors)
    else:
        assert len(result["players"]) == 4


@st.composite
def nearly_valid_sheets(draw) -> dict:
    """Valid sheets with a few entries changed at random: some still valid, most not."""
    doc = draw(valid_sheets())
    count = len(doc["players"])
    for m in doc["manches"]:
        for _ in range(draw(st.integers(0, 2))):
            row = m[draw(st.sampled_from(ROW_KEYS))]
            row[draw(st.integers(0, count - 1))] = draw(st.integers(-5, 45))
    return doc


def outcome(document) -> dict:
    try:
        return scoring.score(document)
    except scoring.ScoreSheetError as error:
        return {"errors": error.errors}


@settings(max_examples=200, deadline=None)
@given(nearly_valid_sheets())
def test_quick_acceptance_agrees_with_the_full_check(doc):
    # A dict subclass skips the quick acceptance of well-written manches, so every check runs one by one.
    slow = {**doc, "manches": [OrderedDict(m) for m in doc["manches"]]}
    result = outcome(doc)
    assert result == outcome(slow)
    if "errors" in result:
        assert all(e["path"].startswith("manches[") for e in result["errors"])
