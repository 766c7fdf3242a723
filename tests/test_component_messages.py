"""The rules' messages name a game's components by key; the app shows each in the reader's words.

Plain text (the command line, ``Problem.message``) keeps the keys, as before; a page or the API shows the label
the game's bundle gives in the active language, the same words its selects and headings use. The Spanish and
Italian words themselves come with the catalogues, so these tests compare with the bundle's labels as they are
in that language rather than with literal words.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

import scoring
from scoring.errors import AND, Component, Listing, Problem, components
from tests.factories import seat_by_hand
from tournaments.games import get_game
from tournaments.games.problems import translated
from tournaments.games.snack_match import labels as snack_labels
from tournaments.games.vegetables import labels as vegetables_labels
from tournaments.games.veggies import labels as veggies_labels
from tournaments.models.rounds import RoundStatus

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ["es", "it"]
VEGGIES_TIE = {
    "game": "veggies",
    "players": ["Ada", "Bea", "Cyd"],
    "stands": [
        {"goods": {"bananas": {"largest": 2, "groups": 1}, "strawberries": {"largest": 2, "groups": 1}}, "mice": 0},
        {"goods": {"grapes": {"largest": 3, "groups": 1}}, "mice": 0},
        {"goods": {"carrots": {"largest": 3, "groups": 1}}, "mice": 0, "declared": ["kiwis"]},
    ],
}


def problems_of(document: dict) -> list[Problem]:
    with pytest.raises(scoring.ScoreSheetError) as caught:
        scoring.score(document)
    return caught.value.problems


def problem_at(document: dict, path: str) -> Problem:
    return next(problem for problem in problems_of(document) if problem.path == path)


# The value types, without Django ------------------------------------------------------------------------------------


def test_plain_text_shows_keys_and_a_namer_shows_labels():
    goods = components("veggies", "good", ["bananas", "grapes"], last=AND)
    choices = Listing((goods, Component("veggies", "good", "carrots")), separator=" / ")
    problem = Problem("stands[0]", "Choose: {choices}; not {good}.", {"choices": choices, "good": goods.items[0]})
    assert problem.message == "Choose: bananas and grapes / carrots; not bananas."

    catalogue = {"Choose: {choices}; not {good}.": "Elige: {choices}; no {good}.", AND: "{items} y {last}"}

    def name(component: Component) -> str:
        return f"<{component.kind} {component.key}>"

    shown = problem.render(lambda msgid: catalogue.get(msgid, msgid), name)
    assert shown == "Elige: <good bananas> y <good grapes> / <good carrots>; no <good bananas>."
    assert problem.as_dict(lambda msgid: catalogue.get(msgid, msgid), name) == {"path": "stands[0]", "message": shown}
    error = scoring.ScoreSheetError([problem])
    assert error.document(lambda msgid: catalogue.get(msgid, msgid), name) == {
        "errors": [problem.as_dict(lambda msgid: catalogue.get(msgid, msgid), name)]
    }
    assert error.errors == [{"path": "stands[0]", "message": problem.message}]


def test_a_listing_of_three_closes_with_its_last_item():
    assert str(components("g", "k", ["a", "b", "c"], last=AND)) == "a, b and c"
    assert str(components("g", "k", ["a"], last=AND)) == "a"
    assert str(Listing((1, 2, 3))) == "1, 2, 3"


# Each game, in Spanish and Italian --------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_veggies_names_goods_as_its_selects_do(language):
    tie = problem_at(VEGGIES_TIE, "stands[0].declared")
    unknown = problem_at(VEGGIES_TIE, "stands[2].declared[0]")
    assert "strawberries / bananas" in tie.message
    assert "strawberries, bananas, grapes, carrots, mushrooms" in unknown.message
    with translation.override(language):
        goods = veggies_labels.goods()
        shown_tie = translated(tie)
        shown_unknown = translated(unknown)
    assert f"{goods['strawberries']} / {goods['bananas']}" in shown_tie
    assert ", ".join(goods.values()) in shown_unknown


@pytest.mark.parametrize("language", LANGUAGES)
def test_veggies_names_a_declared_good(language):
    document = {**VEGGIES_TIE, "stands": [*VEGGIES_TIE["stands"][:2], {**VEGGIES_TIE["stands"][2]}]}
    document["stands"][2] = {**document["stands"][2], "declared": ["bananas"]}
    problem = problem_at(document, "stands[2].declared[0]")
    assert problem.message == "There are no bananas in this stand to declare."
    with translation.override(language):
        assert veggies_labels.goods()["bananas"] in translated(problem)


@pytest.mark.parametrize("language", LANGUAGES)
def test_vegetables_names_a_row_by_its_heading(language):
    document = {
        "game": "vegetables",
        "players": ["Ada", "Bea"],
        "manches": [{"pozzo": [10, 0], "sequences": [8, 8], "family_bonuses": [0, 0]}],
    }
    problem = problem_at(document, "manches[0].penalties")
    assert problem.message == "This manche has no penalties row; write one number per player."
    with translation.override(language):
        assert vegetables_labels.rows()["penalties"].label in translated(problem)


def diet(*cards: dict) -> dict:
    return {
        "game": "snack-match",
        "variant": "special-diet",
        "players": ["Ada", "Bea"],
        "diet": list(cards),
        "zones": [
            {"grid": [["soda/green"] * 4] * 4},
            {"grid": [["donut/orange"] * 4] * 4},
        ],
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_snack_match_names_modifier_cards_and_kinds(language):
    twice = problem_at(
        diet({"component": "soda", "modifier": "most"}, {"component": "green", "modifier": "most"}), "diet[1].modifier"
    )
    kind = problem_at(
        diet({"component": "soda", "modifier": "most"}, {"component": "green", "modifier": "fewest", "kind": "x"}),
        "diet[1].kind",
    )
    assert "'most' is chosen twice" in twice.message
    assert kind.message == "'x' is not one of: snack, cloth."
    with translation.override(language):
        modifier = snack_labels.modifiers()["most"]
        kinds = snack_labels.kinds()
        assert f"'{modifier}'" in translated(twice)
        assert f"{kinds['snack']}, {kinds['cloth']}" in translated(kind)


@pytest.mark.parametrize("language", LANGUAGES)
def test_snack_match_names_a_component_that_is_both_kinds(language):
    document = diet({"component": "green", "modifier": "most"}, {"component": "soda", "modifier": "fewest"})
    document["zones"][1] = {"grid": [["green/green"] * 4] * 4}
    problem = problem_at(document, "diet[0].kind")
    assert problem.message.startswith("'green' is both a snack and a tablecloth")
    with translation.override(language):
        assert f"'{snack_labels.RULEBOOK['cloths']['green']}'" in translated(problem)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    ("game", "players", "variant"),
    [("vegetables", 5, "expert"), ("veggies", 5, "standard"), ("cheese-rescue", 5, "standard")],
)
def test_every_game_names_its_variants_by_their_labels(language, game, players, variant):
    document = {"game": game, "players": [f"P{n}" for n in range(players)], "variant": variant}
    problem = problem_at(document, "players")
    assert f"({variant})" in problem.message
    unknown = problem_at({**document, "variant": "nope"}, "variant")
    keys = [v.key for v in get_game(game).rules.variants]
    assert unknown.message.endswith(f"the variants are: {', '.join(keys)}.")
    with translation.override(language):
        bundle = get_game(game)
        assert f"({bundle.variant_label(variant)})" in translated(problem)
        assert ", ".join(bundle.variant_label(key) for key in keys) in translated(unknown)


def test_a_component_of_a_game_no_bundle_knows_shows_its_key():
    problem = Problem("", "Not {thing}.", {"thing": Component("no-such-game", "good", "kiwis")})
    with translation.override("es"):
        assert translated(problem) == "Not kiwis."


def test_a_kind_the_bundle_does_not_name_shows_its_key():
    assert get_game("veggies").component_label("cheese", "brie") == "brie"


# The command line keeps the keys ------------------------------------------------------------------------------------


def test_the_command_line_lists_goods_by_key():
    result = subprocess.run(
        [sys.executable, "-m", "scoring", "-"],
        cwd=ROOT,
        input=json.dumps(VEGGIES_TIE),
        capture_output=True,
        text=True,
        timeout=60,
        env={"LANGUAGE": "es", "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 2, result.stderr
    messages = {error["path"]: error["message"] for error in json.loads(result.stdout)["errors"]}
    assert messages["stands[0].declared"] == (
        "Goods tie for this stand's biggest groups, so the player declares which: strawberries / bananas."
    )
    assert (
        messages["stands[2].declared[0]"]
        == "Declare one of the goods: strawberries, bananas, grapes, carrots, mushrooms."
    )


# The JSON API follows the request's language ------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_api_names_components_in_the_requests_language(make_event, language):
    event = make_event("vegetables", players=2, table_size=2)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    table = seat_by_hand(event, 1, [ids], status=RoundStatus.IN_PLAY).tables.get()
    names = [seat.player.name for seat in table.seats.order_by("position")]
    body = {
        "manche": 1,
        "version": 0,
        "document": {
            "game": "vegetables",
            "players": names,
            "manches": [{"pozzo": [10, 0], "sequences": [8, 8], "family_bonuses": [0, 0]}],
        },
    }
    address = reverse("tournaments:api_table_sheet", args=[table.token])
    client = Client()
    english = client.put(address, json.dumps(body), content_type="application/json").json()
    shown = client.put(
        address, json.dumps(body), content_type="application/json", headers={"accept-language": language}
    ).json()
    assert english == {
        "errors": [
            {
                "path": "manches[0].penalties",
                "message": "This manche has no Paid penalties (−50) row; write one number per player.",
            }
        ]
    }
    with translation.override(language):
        label = vegetables_labels.rows()["penalties"].label
    assert [error["path"] for error in shown["errors"]] == ["manches[0].penalties"]
    assert label in shown["errors"][0]["message"]


def test_a_text_read_against_plain_keys_lists_them():
    from scoring.errors import Problems
    from scoring.values import read_str

    problems = Problems()
    assert read_str("red", "colour", problems, choices=("orange", "green")) is None
    assert read_str("green", "colour", problems, choices=("orange", "green")) == "green"
    assert read_str("any", "note", problems) == "any"
    assert [problem.message for problem in problems.items] == ["'red' is not one of: orange, green."]
