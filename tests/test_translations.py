"""Spanish and Italian are complete: no untranslated or fuzzy entry, placeholders kept, errors translated."""

import re
import shutil
from pathlib import Path

import polib
import pytest
from django.core.management import call_command
from django.utils import translation

import scoring
from tournaments.games.problems import translated

LOCALE = Path(__file__).resolve().parent.parent / "locale"
PLACEHOLDER = re.compile(r"\{[a-z_]+\}|%\([a-z_]+\)[sd]|%[sd]")


@pytest.fixture(params=["es", "it"])
def catalogue(request) -> polib.POFile:
    return polib.pofile(str(LOCALE / request.param / "LC_MESSAGES" / "django.po"))


def test_every_entry_is_translated_and_none_is_fuzzy(catalogue):
    untranslated = [e.msgid for e in catalogue.untranslated_entries()]
    fuzzy = [e.msgid for e in catalogue.fuzzy_entries()]
    assert not untranslated, f"{len(untranslated)} untranslated, e.g. {untranslated[:5]}"
    assert not fuzzy, f"{len(fuzzy)} fuzzy, e.g. {fuzzy[:5]}"


def test_every_plural_entry_fills_every_form_the_language_has(catalogue):
    forms = int(re.search(r"nplurals=(\d+)", catalogue.metadata["Plural-Forms"]).group(1))
    short = [e.msgid for e in catalogue if e.msgid_plural and sum(1 for v in e.msgstr_plural.values() if v) < forms]
    assert not short, f"{len(short)} plural entries miss a form, e.g. {short[:3]}"


def test_translations_keep_their_placeholders(catalogue):
    for entry in catalogue.translated_entries():
        expected = sorted(PLACEHOLDER.findall(entry.msgid))
        forms = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        for form in forms:
            assert sorted(PLACEHOLDER.findall(form)) == expected or entry.msgid_plural, entry.msgid


@pytest.mark.parametrize("language", ["es", "it"])
def test_scoring_errors_are_shown_translated(language):
    document = {
        "game": "vegetables",
        "players": ["Ada", "Bea", "Cyd", "Dan"],
        "manches": [
            {
                "pozzo": [30, 0, 20, 10],
                "sequences": [6, 2, 5, 2],
                "family_bonuses": [0, 0, 0, 0],
                "penalties": [0, 0, 0, 0],
            }
        ],
    }
    with pytest.raises(scoring.ScoreSheetError) as error:
        scoring.score(document)
    english = error.value.errors[0]["message"]
    with translation.override(language):
        shown = translated(error.value.problems[0])
    assert shown != english and "16" in shown and "15" in shown


#: What makemessages reads: the code and templates that show text, with the catalogues beside them.
SOURCES = ["config", "scoring", "templates", "tournaments", "locale"]


def test_every_string_the_code_marks_is_in_both_catalogues_translated(settings, tmp_path, monkeypatch):
    """The catalogues made afresh from a copy of the code have nothing left to do: a string marked for translation
    but missing from a catalogue is found here, not by a Spanish player."""
    root = LOCALE.parent
    for folder in SOURCES:
        shutil.copytree(root / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    monkeypatch.chdir(tmp_path)
    call_command("makemessages", locale=["es", "it"], verbosity=0)
    for language in ("es", "it"):
        fresh = polib.pofile(str(tmp_path / "locale" / language / "LC_MESSAGES" / "django.po"))
        untranslated = [e.msgid for e in fresh.untranslated_entries() + fresh.fuzzy_entries()]
        assert not untranslated, f"{language}: {len(untranslated)} strings to translate, e.g. {untranslated[:5]}"
