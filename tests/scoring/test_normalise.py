"""The document cut down to the keys the rules read: what is stored is exactly what was scored.

``scoring.check(document)`` returns the normalised document and its result. Normalising keeps every key
each game's rules read (``GameRules.document``) and drops every other key, at any depth; it changes no
score and no error, and normalising twice changes nothing more.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoring
from scoring.registry import GameOutcome, GameRules, PlayerScore, TallyField, Variant
from scoring.shape import ANY, Each, cut

FAST = settings(max_examples=150, deadline=None)
PLAYERS = ["Ada", "Bea", "Cyd", "Dan"]

#: Valid sheets of every game, in each form a sheet can take (from the spec's and rulebooks' examples).
VALID: list[dict[str, Any]] = [
    {
        "game": "vegetables",
        "players": PLAYERS,
        "manches": [
            {"pozzo": [30, 0, 20, 10], "sequences": [6, 2, 5, 3], "family_bonuses": [1, 0, 0, 0], "penalties": [0] * 4},
            {"pozzo": [0, 30, 0, 0], "sequences": [4] * 4, "family_bonuses": [0, 1, 1, 0], "penalties": [0, 0, 2, 0]},
        ],
    },
    {
        "game": "veggies",
        "players": PLAYERS,
        "stands": [
            {"goods": {"grapes": {"largest": 5, "groups": 1}, "bananas": {"largest": 3, "groups": 2}}, "mice": 3},
            {"grid": ["SSGG  ", "SXEGGB", "MMCCBB"], "declared": ["grapes"]},
            {"goods": {"carrots": {"largest": 4, "groups": 2}}, "mice": 0, "declared": ["carrots"]},
            {"goods": {"strawberries": {"largest": 2, "groups": 1}}, "mice": 1},
        ],
    },
    {
        "game": "veggies",
        "variant": "teams",
        "players": PLAYERS,
        "teams": [["Ada", "Bea"], ["Cyd", "Dan"]],
        "stands": [{"goods": {"grapes": {"largest": n, "groups": 1}}, "mice": n % 2} for n in (1, 2, 3, 4)],
    },
    {
        "game": "snack-match",
        "players": ["Ada", "Bea"],
        "zones": [
            {"groups": {"snacks": {"sandwich": [5, 2]}, "cloths": {"green": [7], "orange": [3, 1]}}},
            {"grid": [["sandwich/green", "donut/green", None, None], ["soda/orange", "soda/orange"]]},
        ],
    },
    {
        "game": "snack-match",
        "variant": "special-diet",
        "players": ["Ada", "Bea"],
        "diet": [
            {"component": "donut", "modifier": "corners"},
            {"component": "green", "modifier": "most", "kind": "cloth"},
        ],
        "zones": [
            {"grid": [["donut/green", "soda/orange", None, None], ["donut/green"] * 4, [None] * 4, [None] * 4]},
            {"grid": [["soda/green"] * 4, ["donut/orange", None, None, "donut/orange"], [None] * 4, [None] * 4]},
        ],
    },
    {
        "game": "cheese-rescue",
        "players": ["Ada", "Bea", "Cyd"],
        "tallies": [
            {"cheese_points": 6, "cheese_cards": 4},
            {"cheese_points": 0, "cheese_cards": 0},
            {"cheese_points": 3, "cheese_cards": 1},
        ],
    },
    {
        "game": "cheese-rescue",
        "players": ["Ada", "Bea"],
        "board": [
            ["D", "C", "M", "Q1:3", "S"],
            ["Q2:1", "M", "C", "D", "Q1:1"],
            ["Q2:2", "Q1:2", "M", "C", "Q2:1"],
            ["C", "D", "Q1:1", "Q2:3", "M"],
            ["M", "Q2:1", "C", "D", "Q1:1"],
        ],
    },
]

#: Objects whose keys are data (goods, snack and tablecloth names) rather than field names.
DATA_KEYED = {"goods", "snacks", "cloths"}
#: Keys no document has anywhere: a note, other spellings of real keys, any text after a "~".
EXTRA_KEYS = st.sampled_from(["note", "comment", "Manches", "players ", "_id", ""]) | st.text(max_size=12).map(
    "~{}".format
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-100, 100) | st.integers() | st.floats() | st.text(max_size=16),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=30,
)


def outcome(document: Any) -> tuple[str, Any]:
    """The result, or the errors, of scoring ``document``: what must not change."""
    try:
        return "result", scoring.score(document)
    except scoring.ScoreSheetError as error:
        return "errors", error.errors


def containers(value: Any, key: Any = None) -> list[tuple[Any, bool]]:
    """Every object and list in ``value``, each with whether its keys are field names."""
    found: list[tuple[Any, bool]] = []
    if isinstance(value, dict):
        found.append((value, key not in DATA_KEYED))
        for inner_key, item in value.items():
            found += containers(item, inner_key)
    elif isinstance(value, list):
        found.append((value, False))
        for item in value:
            found += containers(item, key)
    return found


@st.composite
def with_extra_keys(draw: st.DrawFn) -> tuple[dict, dict]:
    """A valid sheet, and the same sheet with keys no rule reads added to objects at any depth."""
    valid = draw(st.sampled_from(VALID))
    extended = copy.deepcopy(valid)
    objects = [value for value, named in containers(extended) if named and isinstance(value, dict)]
    for _ in range(draw(st.integers(1, 6))):
        target = draw(st.sampled_from(objects))
        target[draw(EXTRA_KEYS)] = draw(json_values)
    return valid, extended


@st.composite
def changed_sheets(draw: st.DrawFn) -> Any:
    """A valid sheet with a few values replaced or added anywhere (data keys too), so most are refused."""
    document = copy.deepcopy(draw(st.sampled_from(VALID)))
    for _ in range(draw(st.integers(0, 4))):
        target, _named = draw(st.sampled_from(containers(document)))
        value = draw(json_values | st.sampled_from([None, 0, 1, 30, "grapes", "sandwich/green", "Q1:3"]))
        if isinstance(target, dict):
            keys = sorted(target) + ["grid", "goods", "mice", "tallies", "board", "teams", "diet", "kind", "x"]
            target[draw(st.sampled_from(keys))] = value
        elif target:
            target[draw(st.integers(0, len(target) - 1))] = value
        else:
            target.append(value)
    return document


any_document = json_values | changed_sheets() | with_extra_keys().map(lambda pair: pair[1])


@pytest.mark.parametrize("document", VALID, ids=lambda document: document["game"])
def test_every_valid_example_is_valid_and_already_normal(document):
    normalised, result = scoring.check(document)
    assert normalised == document
    assert result == scoring.score(document)


@FAST
@given(any_document)
def test_normalising_is_idempotent(document):
    once = scoring.normalise(document)
    assert scoring.normalise(once) == once
    assert json.dumps(once, sort_keys=True) == json.dumps(scoring.normalise(once), sort_keys=True)


@FAST
@given(any_document)
def test_the_normalised_document_scores_the_same(document):
    assert outcome(scoring.normalise(document)) == outcome(document)


@FAST
@given(with_extra_keys())
def test_extra_keys_at_any_depth_are_dropped(pair):
    valid, extended = pair
    normalised, result = scoring.check(extended)
    assert normalised == valid
    assert result == scoring.score(valid)


@FAST
@given(any_document)
def test_check_is_the_normalised_document_and_its_outcome(document):
    before = copy.deepcopy(document)
    try:
        normalised, result = scoring.check(document)
    except scoring.ScoreSheetError as error:
        assert outcome(document) == ("errors", error.errors)
    else:
        assert normalised == scoring.normalise(document)
        assert ("result", result) == outcome(document)
    assert json.dumps(document, sort_keys=True) == json.dumps(before, sort_keys=True), "the input is not changed"


def test_a_note_beside_a_sheet_is_not_kept():
    sheet = VALID[0]
    normalised, _result = scoring.check({**sheet, "note": "x" * 250_000})
    assert normalised == sheet


def test_data_keys_are_kept_so_the_rules_still_refuse_an_unknown_good():
    stands = copy.deepcopy(VALID[1]["stands"])
    stands[0]["goods"]["apples"] = {"largest": 1, "groups": 1, "colour": "red"}
    document = {**VALID[1], "stands": stands}
    normalised = scoring.normalise(document)
    assert normalised["stands"][0]["goods"]["apples"] == {"largest": 1, "groups": 1}
    assert outcome(normalised) == outcome(document)
    assert outcome(document)[1][0]["path"] == "stands[0].goods.apples"


@pytest.mark.parametrize("value", [None, 3, "veggies", [], [{"note": 1}], True, 2.5])
def test_a_value_that_is_not_an_object_is_returned_as_it_is(value):
    assert scoring.normalise(value) is value


@pytest.mark.parametrize("game", [None, "chess", ["vegetables"], {"a": 1}])
def test_without_a_known_game_only_the_common_fields_are_kept(game):
    document = {"game": game, "players": ["Ada"], "variant": "x", "manches": [], "note": 1}
    assert scoring.normalise(document) == {"game": game, "players": ["Ada"], "variant": "x"}


def test_values_of_another_type_than_the_shape_expects_are_kept_for_the_rules_to_refuse():
    shape = {"rows": [{"a": ANY}], "named": Each({"b": ANY}), "inner": {"c": ANY}}
    document = {"rows": "x", "named": [1], "inner": 3, "other": 4}
    assert cut(document, shape) == {"rows": "x", "named": [1], "inner": 3}
    assert cut({"rows": [{"a": 1, "z": 2}, 5]}, shape) == {"rows": [{"a": 1}, 5]}


def test_a_game_that_declares_no_document_keeps_its_tally_fields():
    def scorer(document, sheet, problems):
        return GameOutcome([PlayerScore(value) for value in document["scores"]])

    rules = GameRules(
        key="plain",
        name="Plain",
        variants=(Variant("standard", "Standard", (2,)),),
        tally_fields=(TallyField("scores", "Score"),),
        scorer=scorer,
        default_variant=lambda count: "standard",
        table_sizes=(2,),
    )
    document = {"game": "plain", "players": ["Ada", "Bea"], "scores": [3, 5], "note": "kept out"}
    normalised, result = scoring.check(document, games={"plain": rules})
    assert normalised == {"game": "plain", "players": ["Ada", "Bea"], "scores": [3, 5]}
    assert [player["rank"] for player in result["players"]] == [2, 1]


def test_every_game_keeps_the_common_fields_and_the_keys_its_rules_read(crown_tricks):
    """A game declares its document's keys (``GameRules.document``) or, by default, reads its tally fields."""
    assert crown_tricks.document is None
    for rules in scoring.GAMES.values():
        own = rules.document if rules.document is not None else {tally.key: ANY for tally in rules.tally_fields}
        assert set(rules.document_shape) >= {"game", "variant", "players", *own}, rules.key
