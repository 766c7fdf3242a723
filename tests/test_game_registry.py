"""A game is found, not listed: a rules module of ``scoring`` or a bundle's rules are scored by ``scoring.score``
and ``python -m scoring``; a bundle's ``locale`` folder translates its own words."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.template import Context, Template
from django.utils import translation
from django.utils.translation import gettext

import scoring
import scoring.games
from scoring.__main__ import main
from tests.games import TEST_GAMES
from tournaments import games
from tournaments.entry.layouts import FormState

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "tests" / "games" / "locale"
#: The games of the app's own bundles: each has its rules in ``scoring``, found there without a list.
OWN = {game.rules.key for game in games.all_games()}
HIGH_SCORE = {"game": "high-score", "players": ["Ada", "Bea", "Cyd"], "scores": [3, 9, 3]}
LONGEST_NAME = {"game": "longest-name", "players": ["Ada", "Beatrice"]}
#: A game's rules, as a module of ``scoring`` would hold them: the longest name wins.
RULES_MODULE = """
from scoring.registry import GameOutcome, GameRules, PlayerScore, TallyField, Variant


def score_sheet(document, sheet, problems):
    return GameOutcome([PlayerScore(len(name)) for name in sheet.players])


RULES = GameRules(
    key="longest-name",
    name="Longest Name",
    variants=(Variant("standard", "Standard", (2, 3)),),
    tally_fields=(TallyField("names", "Names"),),
    scorer=score_sheet,
    default_variant=lambda count: "standard",
    table_sizes=(2, 3),
)
"""


@pytest.fixture
def rules_module(tmp_path, monkeypatch):
    """``scoring.longest_name``: a rules module added to the package (in a folder of its path), no list edited."""
    (tmp_path / "longest_name.py").write_text(RULES_MODULE, encoding="utf-8")
    monkeypatch.setattr(scoring, "__path__", [*scoring.__path__, str(tmp_path)])
    scoring.games.found.cache_clear()
    yield tmp_path
    monkeypatch.undo()
    sys.modules.pop("scoring.longest_name", None)
    scoring.games.found.cache_clear()


@pytest.fixture
def registered():
    """Forgets the test game's rules once the test has registered them."""
    yield
    scoring.games.unregister("high-score")


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "scoring", *args], cwd=ROOT, capture_output=True, text=True, timeout=60, env=env
    )


def ranks(result: dict) -> list[int]:
    return [player["rank"] for player in result["players"]]


# The rules --------------------------------------------------------------------------------------------------------


def test_the_rules_of_every_bundle_are_games_of_the_rules_core(settings):
    """A bundle's rules are found in ``scoring/`` or beside the bundle (the test games'); either way they are scored."""
    assert set(scoring.games.found()) <= OWN and len(OWN) >= 4
    assert set(scoring.GAMES) == OWN
    settings.EXTRA_GAMES = TEST_GAMES
    every = {game.rules.key: game.rules for game in games.all_games()}
    assert set(every) > OWN and (set(every) - OWN).isdisjoint(scoring.games.found())
    assert all(scoring.GAMES[key] is rules for key, rules in every.items())


def test_a_rules_module_added_to_the_package_is_scored(rules_module):
    assert set(scoring.GAMES) == OWN | {"longest-name"}
    assert ranks(scoring.score(LONGEST_NAME)) == [2, 1]
    assert ranks(scoring.check({**LONGEST_NAME, "note": "kept out"})[1]) == [2, 1]


def test_registered_rules_are_scored(registered):
    from tests.games.high_score import RULES

    assert "high-score" not in scoring.GAMES
    scoring.register(RULES)
    assert scoring.register(RULES) is RULES
    assert ranks(scoring.score(HIGH_SCORE)) == [2, 1, 2]


def test_two_rules_cannot_share_a_key():
    with pytest.raises(ValueError, match="veggies"):
        scoring.register(dataclasses.replace(scoring.GAMES["veggies"], name="Other"))
    assert "veggies" in scoring.GAMES


def test_a_bundle_of_the_settings_is_a_game_of_the_rules(settings):
    settings.EXTRA_GAMES = ["tests.games.high_score"]
    assert scoring.GAMES["high-score"] is games.get_game("high-score").rules
    assert ranks(scoring.score(HIGH_SCORE)) == ranks(games.score(HIGH_SCORE)) == [2, 1, 2]


def test_the_command_line_scores_a_registered_game(registered, tmp_path, capsys):
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps(HIGH_SCORE), encoding="utf-8")
    assert main(["--rules", "tests.games.high_score", str(sheet)]) == 0
    assert ranks(json.loads(capsys.readouterr().out)) == [2, 1, 2]
    assert main(["--rules", "tests.games", str(sheet)]) == 2
    assert "defines no RULES" in capsys.readouterr().err
    assert main(["--rules", str(sheet)]) == 2


def test_python_m_scoring_finds_a_bundle_and_a_module(tmp_path):
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps(HIGH_SCORE), encoding="utf-8")
    result = run("--rules", "tests.games.high_score", str(sheet))
    assert result.returncode == 0, result.stderr
    assert ranks(json.loads(result.stdout)) == [2, 1, 2]

    (tmp_path / "longest_name.py").write_text(RULES_MODULE, encoding="utf-8")
    sheet.write_text(json.dumps(LONGEST_NAME), encoding="utf-8")
    result = run("--rules", "longest_name", str(sheet), env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    assert ranks(json.loads(result.stdout)) == [2, 1]


# A bundle's translations ------------------------------------------------------------------------------------------


@pytest.fixture
def catalogues():
    """The test game's compiled catalogues, as ``make messages`` leaves them (``.mo`` files are not kept in git)."""
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/django.po")):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            fresh = mo.with_name(f".{os.getpid()}.mo")
            polib.pofile(str(po)).save_as_mofile(str(fresh))
            fresh.replace(mo)


def help_under_the_score(game) -> str:
    """The help line of the table form's score row."""
    return game.entry.layout(FormState(["Ada", "Bea"], {}, {})).rows[0].help


def test_a_bundle_translates_its_own_words(catalogues, settings):
    settings.EXTRA_GAMES = ["tests.games.high_score"]
    assert LOCALE in settings.LOCALE_PATHS
    game = games.get_game("high-score")
    assert help_under_the_score(game) == "The number on your card."
    with translation.override("es"):
        assert help_under_the_score(game) == "El número de tu carta."
        assert gettext("Score") == "Puntuación"
    with translation.override("it"):
        rendered = Template('{% load i18n %}{% translate "The number on your card." %}').render(Context())
        assert rendered == "Il numero sulla tua carta."


def test_without_the_bundle_its_catalogue_is_not_read(catalogues, settings):
    assert LOCALE not in settings.LOCALE_PATHS
    with translation.override("es"):
        assert gettext("The number on your card.") == "The number on your card."
