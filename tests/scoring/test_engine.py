"""The engine's common checks, the error document for any JSON value, and the game registry."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoring
from scoring.grid import find_groups
from scoring.ranking import competition_ranks

GOOD_VEGETABLES = {
    "game": "vegetables",
    "players": ["Ada", "Bea", "Cyd", "Dan"],
    "manches": [
        {"pozzo": [30, 0, 20, 10], "sequences": [6, 2, 5, 3], "family_bonuses": [1, 0, 0, 0], "penalties": [0, 1, 0, 0]}
    ],
}


def errors_of(document) -> list[dict]:
    with pytest.raises(scoring.ScoreSheetError) as caught:
        scoring.score(document)
    return caught.value.errors


def paths(document) -> list[str]:
    return [e["path"] for e in errors_of(document)]


@pytest.mark.parametrize("value", [None, 3, "veggies", [], [1, 2], True, 2.5])
def test_a_document_must_be_an_object(value):
    assert paths(value) == [""]


def test_game_is_required_and_known():
    assert "game" in paths({"players": ["A", "B"]})
    errors = errors_of({"game": "chess", "players": ["A", "B"]})
    assert errors[0]["path"] == "game"
    assert "vegetables" in errors[0]["message"]


@pytest.mark.parametrize(
    ("players", "path"),
    [
        (None, "players"),
        ([], "players"),
        ("Ada", "players"),
        (["A"] * 10, "players"),
        (["Ada", ""], "players[1]"),
        (["Ada", 3], "players[1]"),
        (["Ada", "Ada"], "players[1]"),
        (["x" * 101, "Bea"], "players[0]"),
    ],
)
def test_players_are_one_to_nine_distinct_names(players, path):
    assert path in paths({"game": "veggies", "players": players})


def test_unknown_variant_names_the_variants():
    errors = errors_of({**GOOD_VEGETABLES, "variant": "beginner"})
    assert errors[0]["path"] == "variant"
    assert "expert" in errors[0]["message"]


def test_player_count_must_suit_the_variant():
    errors = errors_of({**GOOD_VEGETABLES, "players": ["A"]})
    assert errors[0]["path"] == "players"


def test_every_problem_is_reported_at_once():
    document = {"game": "chess", "players": ["Ada", "Ada"]}
    assert sorted(paths(document)) == ["game", "players[1]"]


def test_result_document_shape():
    result = scoring.score(GOOD_VEGETABLES)
    assert result["game"] == "vegetables" and result["variant"] == "expert"
    assert [p["name"] for p in result["players"]] == ["Ada", "Bea", "Cyd", "Dan"]
    assert all({"score", "rank", "tiebreak", "breakdown"} <= set(p) for p in result["players"])
    json.dumps(result)


def test_error_messages_are_translatable_message_ids():
    with pytest.raises(scoring.ScoreSheetError) as caught:
        scoring.score({"game": "veggies", "players": ["Ada", "Ada"]})
    problem = caught.value.problems[0]
    assert problem.msgid == "{name} is listed twice; each player sits once."
    shouted = problem.render(lambda msgid: msgid.upper().replace("{NAME}", "{name}"))
    assert shouted == "Ada IS LISTED TWICE; EACH PLAYER SITS ONCE."
    assert caught.value.document()["errors"][0]["message"] == "Ada is listed twice; each player sits once."


def test_competition_ranking_shares_places():
    assert competition_ranks([(10,), (12,), (10,), (3,)]) == [2, 1, 2, 4]
    assert competition_ranks([(10, -1), (10, -3), (10, -1)]) == [1, 3, 1]
    assert competition_ranks([]) == []


def test_groups_are_found_orthogonally():
    grid = ["AAB", "BAB", "B B"]
    groups = {(g.kind, g.size) for g in find_groups(grid, lambda c: None if c == " " else c)}
    assert groups == {("A", 3), ("B", 3), ("B", 2)}


def test_groups_on_ragged_rows():
    groups = find_groups([["A"], ["A", "A"]])
    assert [g.size for g in groups] == [3]


def test_registry_describes_every_game(crown_tricks):
    """Every game's rules, those of this package's modules and those registered from elsewhere (a bundle's)."""
    folder = Path(scoring.__file__).parent
    modules = [path for path in folder.glob("*.py") if "\nRULES = " in path.read_text(encoding="utf-8")]
    assert len(scoring.GAMES) > len(modules) >= 4 and crown_tricks.key in scoring.GAMES
    for key, rules in scoring.GAMES.items():
        assert rules.key == key and rules.name
        assert rules.variants and rules.tally_fields
        assert rules.min_players >= 1 and rules.max_players <= 9
        assert set(rules.table_sizes) <= set(rules.player_counts)
        for variant in rules.variants:
            assert rules.variant(variant.key) is variant
        assert rules.variant(rules.default_variant(max(rules.table_sizes))) is not None
    assert scoring.GAMES["vegetables"].has_manches
    assert scoring.default_placement_points(4) == (4, 2, 1, 0)
    assert scoring.default_placement_points(3) == (4, 2, 1)
    assert scoring.default_placement_points(6) == (4, 2, 1, 0, 0, 0)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda children: st.lists(children, max_size=6) | st.dictionaries(st.text(max_size=10), children, max_size=6),
    max_leaves=30,
)
game_names = st.sampled_from(["vegetables", "veggies", "snack-match", "cheese-rescue"])
names = st.lists(st.text(min_size=1, max_size=8), min_size=1, max_size=5, unique=True)
shaped = st.fixed_dictionaries(
    {"game": game_names, "players": names},
    optional={
        "variant": st.sampled_from(["expert", "standard", "two-player", "teams", "special-diet", "x"]),
        "manches": json_values,
        "stands": json_values,
        "zones": json_values,
        "tallies": json_values,
        "board": json_values,
        "diet": json_values,
        "teams": json_values,
    },
)


def assert_result_or_error_document(document) -> None:
    try:
        result = scoring.score(document)
    except scoring.ScoreSheetError as error:
        assert error.errors, "an error document lists at least one problem"
        for item in error.errors:
            assert set(item) == {"path", "message"}
            assert isinstance(item["path"], str) and item["message"]
        json.dumps(error.document())
    else:
        json.dumps(result)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_any_json_value_gives_a_result_or_an_error_document(value):
    assert_result_or_error_document(value)


@settings(max_examples=400, deadline=None)
@given(shaped)
def test_documents_with_junk_in_every_field_give_error_documents(document):
    assert_result_or_error_document(document)


def test_deep_nesting_and_huge_numbers_do_not_crash():
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    assert_result_or_error_document({"game": "veggies", "players": ["A", "B"], "stands": deep})
    assert_result_or_error_document({**GOOD_VEGETABLES, "manches": [{"pozzo": [10**400] * 4}]})
