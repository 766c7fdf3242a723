"""The wheel is the app and nothing else: code, templates, static files, compiled translations, migrations, the
stored seating schedules and the fonts; no tests, benchmarks or development files. It needs any Python from 3.11."""

from __future__ import annotations

import re
import tarfile
import zipfile
from email.parser import Parser

import polib
import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.subprocesses import ROOT

pytestmark = pytest.mark.packaging


@pytest.fixture(scope="module")
def wheel_files(distribution) -> set[str]:
    with zipfile.ZipFile(distribution["wheel"]) as wheel:
        return set(wheel.namelist())


@pytest.fixture(scope="module")
def metadata(distribution):
    with zipfile.ZipFile(distribution["wheel"]) as wheel:
        (name,) = [n for n in wheel.namelist() if n.endswith(".dist-info/METADATA")]
        return Parser().parsestr(wheel.read(name).decode())


def in_checkout(pattern: str) -> set[str]:
    return {path.relative_to(ROOT).as_posix() for path in ROOT.glob(pattern) if "__pycache__" not in path.parts}


def test_the_wheel_carries_what_the_app_serves_inside_its_package(wheel_files):
    for template in in_checkout("templates/**/*.html"):
        assert f"tablescore/{template}" in wheel_files
    for static in in_checkout("static/**/*.*"):
        assert f"tablescore/{static}" in wheel_files
    for language in ("es", "it"):
        assert f"tablescore/locale/{language}/LC_MESSAGES/django.mo" in wheel_files
    assert "config/formats/locale/it/LC_MESSAGES/django.mo" in wheel_files


def test_the_wheel_carries_the_code_migrations_schedules_and_fonts(wheel_files):
    assert len(in_checkout("tournaments/printing/fonts/*.ttf")) == 2
    for package in ("config", "scoring", "tablescore", "tournaments"):
        for module in in_checkout(f"{package}/**/*.py"):
            assert module in wheel_files
    assert in_checkout("tournaments/migrations/0*.py") <= wheel_files
    assert "tournaments/seating/known_schedules.txt" in wheel_files
    assert {
        "tournaments/printing/fonts/DejaVuSans.ttf",
        "tournaments/printing/fonts/DejaVuSans-Bold.ttf",
    } <= wheel_files
    assert in_checkout("tournaments/games/*/templates/**/*.html") <= wheel_files


def test_the_wheel_has_no_tests_benchmarks_or_development_files(wheel_files):
    tops = {name.split("/", 1)[0] for name in wheel_files}
    assert tops == {"config", "scoring", "tablescore", "tournaments", *{t for t in tops if t.endswith(".dist-info")}}
    unwanted = re.compile(r"(^|/)(tests?|benchmarks|scripts|docs|__pycache__)/|\.pyc$|db\.sqlite3|secret_key|\.venv")
    assert not [name for name in wheel_files if unwanted.search(name)]


def test_the_sdist_builds_the_same_app_and_keeps_the_layout(distribution):
    with tarfile.open(distribution["sdist"]) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    assert {"pyproject.toml", "manage.py", "templates/base.html", "locale/es/LC_MESSAGES/django.mo"} <= names
    assert not [name for name in names if name.startswith(("tests/", "benchmarks/", "docs/", ".venv/"))]


def test_the_command_and_the_pythons_it_runs_on(metadata, distribution):
    with zipfile.ZipFile(distribution["wheel"]) as wheel:
        (entry_points,) = [n for n in wheel.namelist() if n.endswith(".dist-info/entry_points.txt")]
        assert "tablescore = tablescore.cli:main" in wheel.read(entry_points).decode()
    assert metadata["Requires-Python"] == ">=3.11"


def pinned(path) -> list[Requirement]:
    """Every ``name==version`` line of a requirements file (with its environment marker, if any)."""
    lines = (line.split(" #", 1)[0].strip() for line in path.read_text().splitlines())
    return [Requirement(line) for line in lines if line and not line.startswith(("#", "-"))]


def pins(path) -> dict[str, str]:
    """``name: version`` of every ``name==version`` line of a requirements file, names in their canonical form."""
    return {canonicalize_name(r.name): str(r.specifier).removeprefix("==") for r in pinned(path)}


def test_the_wheel_asks_for_the_versions_the_checkout_pins(metadata):
    pinned = pins(ROOT / "requirements.txt")
    wanted = [Requirement(line) for line in metadata.get_all("Requires-Dist")]
    assert wanted
    for requirement in wanted:
        assert str(requirement.specifier) == f"=={pinned[canonicalize_name(requirement.name)]}", requirement


def test_the_kept_catalogues_are_those_of_their_po_files():
    """The ``.mo`` files the package ships are what ``make messages`` compiles from the ``.po`` files now."""
    folders = ("locale", "config/formats/locale", "tournaments/games/*/locale")
    catalogues = {po for folder in folders for po in in_checkout(f"{folder}/*/LC_MESSAGES/django.po")}
    assert {"locale/es/LC_MESSAGES/django.po", "locale/it/LC_MESSAGES/django.po"} <= catalogues
    for po in catalogues:
        mo = (ROOT / po).with_suffix(".mo")
        assert mo.is_file(), f"{mo} is missing: run make messages"
        assert mo.read_bytes() == polib.pofile(str(ROOT / po)).to_binary(), f"{mo} is stale: run make messages"
