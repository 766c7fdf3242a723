"""The shape of the code: each game in its bundle, the rest naming none, imports running one way.

rules (``scoring``) <- game bundles (``tournaments.games.<game>``) <- services <- views. Printing never imports
forms, views or the entry pages; views never import other views; no module imports itself back in a cycle. The
settings load nothing of the app and make nothing.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.games import TEST_GAMES
from tournaments import games

ROOT = Path(__file__).resolve().parent.parent
BUNDLES = ROOT / "tournaments" / "games"


def python_files(*folders: str) -> list[Path]:
    return sorted(path for folder in folders for path in (ROOT / folder).rglob("*.py"))


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def in_a_bundle(path: Path) -> bool:
    return path.is_relative_to(BUNDLES) and path.parent != BUNDLES


def imports_of(path: Path, top_level_only: bool = True) -> set[str]:
    """The modules ``path`` imports (relative imports resolved), at module level only by default, else every import
    written, those inside functions and under ``if TYPE_CHECKING:`` included.

    ``from package import module`` counts as importing the module alone; ``from module import name`` the module.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    found = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")
                parent = parent[: len(parent) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            submodules = {f"{base}.{alias.name}" for alias in node.names} & MODULES
            found |= submodules or {base}
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def our_modules() -> dict[str, Path]:
    return {module_name(path): path for path in python_files("scoring", "tournaments", "config")}


MODULES = set(our_modules())


# No game named outside its bundle -------------------------------------------------------------------------------

#: The contract's own words: a game's key or name that is one of them (a game called "Score") tells no game apart,
#: so only its other words and its modules are looked for.
CONTRACT_SOURCES = (
    "scoring/registry.py",
    "scoring/engine.py",
    "tournaments/games/base.py",
    "tournaments/standings/metrics.py",
)
WORD = re.compile(r"[a-z]+(?:[-_ ][a-z]+)*")


def words_of(text: str) -> set[str]:
    """Every word of ``text`` in lower case, and every run of words joined by ``-``, ``_`` or a space."""
    lowered = text.lower()
    found = set()
    for run in WORD.findall(lowered):
        parts = re.split(r"[-_ ]", run)
        found |= {" ".join(parts[i:j]) for i in range(len(parts)) for j in range(i + 1, len(parts) + 1)}
    return found


def contract_words() -> set[str]:
    return set().union(*(words_of((ROOT / path).read_text(encoding="utf-8")) for path in CONTRACT_SOURCES))


def game_words(game) -> set[str]:
    """The words that tell ``game`` apart: its key, name and package as words (``snack match``), less the
    contract's own words."""
    forms = (game.key, game.name, type(game).__module__.rpartition(".")[2])
    return {" ".join(re.split(r"[-_ ]+", form.lower())) for form in forms} - contract_words()


def named_games(text: str, found: list) -> list[str]:
    """The games whose telling words ``text`` holds, as words (``score`` is not in ``scores``)."""
    present = words_of(text)
    return sorted(game.key for game in found if game_words(game) & present)


def generic_files() -> list[Path]:
    """Models, services, views, generic templates, common printing and the rest: everything but bundles."""
    code = [
        path
        for path in python_files("tournaments", "config")
        if not in_a_bundle(path) and "migrations" not in path.parts
    ]
    templates = sorted((ROOT / "templates").rglob("*.html"))
    styles = sorted((ROOT / "static").rglob("*.css"))
    return code + templates + styles


def test_every_game_comes_from_a_bundle_of_its_own():
    """Each package of ``tournaments/games/`` is one game of the registry, and the registry has no other; listed
    in their order."""
    packages = sorted(f"tournaments.games.{path.parent.name}" for path in BUNDLES.glob("*/__init__.py"))
    found = games.all_games()
    assert len(packages) >= 4
    assert sorted(type(game).__module__ for game in found) == packages
    assert len({game.key for game in found}) == len(found)
    assert found == sorted(found, key=lambda game: (game.order, game.key))
    assert all(in_a_bundle(Path(game.template_dir)) for game in found)


@pytest.mark.parametrize("path", generic_files(), ids=lambda path: str(path.relative_to(ROOT)))
def test_the_rest_of_the_app_names_no_game(path, settings):
    """Nor a game of the tests: they are registered here as any bundle would be."""
    settings.EXTRA_GAMES = [*settings.EXTRA_GAMES, *TEST_GAMES]
    named = named_games(path.read_text(encoding="utf-8"), games.all_games())
    assert named == [], f"{path.relative_to(ROOT)} names {named}: a game's own code belongs in its bundle"
    if path.suffix == ".py":
        bundles = {type(game).__module__ for game in games.all_games()}
        imported = imports_of(path, top_level_only=False)
        assert not {name for name in imported if name.startswith(tuple(bundles))}, f"{path.name} imports a bundle"


def a_game(key: str, name: str, package: str):
    """A stand-in for a bundle of ``tournaments/games/<package>/``, with its key and name."""
    return type("Bundle", (), {"__module__": f"tournaments.games.{package}", "key": key, "name": name})()


def test_a_game_named_by_a_word_of_the_contract_is_told_apart_by_its_other_words():
    """A game called "Score" or "Points Race" trips the check only where its own words are, not at every score."""
    score, race = a_game("score", "Score", "score"), a_game("points-race", "Points Race", "points_race")
    assert game_words(score) == set()
    assert game_words(race) == {"points race"}
    assert named_games("seat.score = points  # the score of each seat, and the race of points", [score, race]) == []
    assert named_games('choices = ["points-race"]', [score, race]) == ["points-race"]
    assert named_games("{% if game == 'snack_match' %}", games.all_games()) == ["snack-match"]
    assert named_games("snacks and matches", games.all_games()) == []


# Imports run one way ----------------------------------------------------------------------------------------------

#: Each part of ``tournaments/`` by layer, lowest first: a part imports only parts of lower layers (and itself), so no
#: two parts import each other and a command imports no view. The kits (``entry``: the form kit; ``printing``: the
#: drawing kit and the box layout; ``paper``: reading pictures) sit below the game registry; the pages the views share
#: (``pages``) sit above the services.
LAYERS: tuple[tuple[str, ...], ...] = (
    (
        "tournaments",
        "after_response",
        "collation",
        "csv_export",
        "devices",
        "errors",
        "formatting",
        "live_polls",
        "names",
        "numbers",
        "plots",
        "public_address",
        "ratelimit_files",
        "seating",
        "startup_checks",
    ),
    ("entry", "printing", "spreadsheets"),
    ("paper",),
    ("games",),
    ("models", "warm_up"),
    ("access", "sql", "checks"),
    ("ratings", "snapshots", "standings"),
    ("printouts",),
    ("services",),
    ("edge", "forms", "pages", "demo", "templatetags"),
    ("openapi",),
    ("views", "management", "admin"),
    ("apps", "urls"),
)
LAYER = {part: level for level, parts in enumerate(LAYERS) for part in parts}


def part_of(module: str) -> str | None:
    """The part of ``tournaments`` a module belongs to (its package or module right under ``tournaments``)."""
    steps = module.split(".")
    if steps[0] != "tournaments":
        return None
    return steps[1] if len(steps) > 1 else "tournaments"


def test_every_part_of_the_app_has_its_layer():
    parts = {path.stem for path in (ROOT / "tournaments").iterdir() if path.suffix == ".py"} - {"__init__"}
    parts |= {path.parent.name for path in (ROOT / "tournaments").glob("*/__init__.py")} - {"migrations"}
    assert parts | {"tournaments"} == set(LAYER)


def test_each_part_imports_only_the_layers_below_it():
    wrong = []
    for name, path in our_modules().items():
        here = part_of(name)
        if here is None or here == "migrations":
            continue
        for imported in imports_of(path, top_level_only=False):
            there = part_of(imported)
            if there not in (None, here, "migrations") and LAYER[there] >= LAYER[here]:
                wrong.append(f"{name} ({here}) imports {imported} ({there})")
    assert wrong == []


def test_the_rules_import_no_framework_and_nothing_of_the_app():
    for path in python_files("scoring"):
        for imported in imports_of(path, top_level_only=False):
            assert not imported.startswith(("django", "tournaments", "config")), f"{path.name} imports {imported}"


def test_bundles_import_the_rules_and_the_kits_alone():
    """A bundle builds on the rules, the kits and the base game; never on models, services, forms or views."""
    for name, path in our_modules().items():
        if name.startswith("tournaments.games.") and in_a_bundle(path):
            for imported in imports_of(path, top_level_only=False):
                part = part_of(imported)
                if part and part != "games":
                    assert LAYER[part] < LAYER["games"], f"{name} imports {imported}"


def test_views_do_not_import_other_views():
    for name, path in our_modules().items():
        if name.startswith("tournaments.views"):
            others = [i for i in imports_of(path, False) if i.startswith("tournaments.views") and i != name]
            assert others == [], f"{name} imports {others}"


def test_no_module_imports_itself_back():
    """No circle among the static imports, those under ``TYPE_CHECKING`` and inside functions included; a package
    counts as importing the modules it names."""
    modules = our_modules()
    graph = {
        name: {imported for imported in imports_of(path, False) if imported in modules and imported != name}
        for name, path in modules.items()
    }
    done: set[str] = set()

    def visit(name: str, trail: list[str]) -> None:
        if name in trail:
            pytest.fail("import cycle: " + " -> ".join(trail[trail.index(name) :] + [name]))
        if name in done:
            return
        for imported in graph[name]:
            visit(imported, [*trail, name])
        done.add(name)

    for name in graph:
        visit(name, [])


def test_urls_are_reversed_not_built_by_hand():
    for path in python_files("tournaments"):
        text = path.read_text(encoding="utf-8")
        assert "request.path.rsplit" not in text and "request.path[" not in text, path.name
        assert not re.search(r"f[\"']/t/\{", text), f"{path.name} writes a table link by hand"
        assert not re.search(r"reverse\([^)]*\)\[", text), f"{path.name} slices a reversed URL"


# Settings are a plain declaration -------------------------------------------------------------------------------


def test_the_settings_import_no_app_code_and_create_nothing(tmp_path):
    """Importing ``config.settings`` in a fresh process loads no module of the app or the rules and makes no file or
    folder, not even STATIC_ROOT or the caches' folder."""
    script = (
        "import json, sys\n"
        "import config.settings\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {'tournaments', 'scoring'})))\n"
    )
    environment = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    environment.update(
        PYTHONPATH=str(ROOT),
        PYTHONDONTWRITEBYTECODE="1",
        SECRET_KEY="a-secret-key-for-this-test-only",
        STATIC_ROOT=str(tmp_path / "static"),
        RATELIMIT_CACHE_DIR=str(tmp_path / "ratelimit"),
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        PUBLIC_URL="http://192.168.1.20:8000/not-checked-here",
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []
    assert list(tmp_path.iterdir()) == []


def test_the_settings_read_the_secret_key_and_the_entry_points_make_it(tmp_path, monkeypatch):
    """Settings only read the key (the environment's, else the file's); ``ensure_secret_key``, which the entry
    points call, makes the file once, readable by its owner alone, and never replaces it."""
    from config.env import ensure_secret_key, secret_key

    path = tmp_path / ".secret_key"
    monkeypatch.delenv("SECRET_KEY", raising=False)
    assert secret_key(path) == "" and not path.exists()
    ensure_secret_key(path)
    made = path.read_text().strip()
    assert len(made) >= 50 and (path.stat().st_mode & 0o777) == 0o600
    ensure_secret_key(path)
    assert secret_key(path) == made
    monkeypatch.setenv("SECRET_KEY", "from-the-environment")
    assert secret_key(path) == "from-the-environment"
    other = tmp_path / "other"
    ensure_secret_key(other)
    assert not other.exists(), "with SECRET_KEY set, no file is made"
