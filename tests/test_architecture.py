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


def walk_running_code(node: ast.AST):
    """Every node of ``node`` but those under ``if TYPE_CHECKING:``, which never run."""
    yield node
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and getattr(child.test, "id", "") == "TYPE_CHECKING":
            continue
        yield from walk_running_code(child)


def imports_of(path: Path, top_level_only: bool = True) -> set[str]:
    """The modules ``path`` imports (relative imports resolved), at module level only by default.

    ``from package import module`` counts as importing the module alone; ``from module import name`` the module.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    nodes = tree.body if top_level_only else list(walk_running_code(tree))
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


def game_words() -> set[str]:
    """Every way a game's key or name is written: snack-match, snack_match, Snack Match..."""
    words = set()
    for game in games.all_games():
        for word in (game.key, game.name, type(game).__module__.rpartition(".")[2]):
            words |= {word.lower(), word.lower().replace("-", "_"), word.lower().replace("_", " ")}
            words.add(word.lower().replace("-", " "))
    return words


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
def test_the_rest_of_the_app_names_no_game(path):
    text = path.read_text(encoding="utf-8").lower()
    named = sorted(word for word in game_words() if re.search(rf"(?<![a-z]){re.escape(word)}(?![a-z])", text))
    assert named == [], f"{path.relative_to(ROOT)} names {named}: a game's own code belongs in its bundle"


# Imports run one way ----------------------------------------------------------------------------------------------


def test_the_rules_import_no_framework_and_nothing_of_the_app():
    for path in python_files("scoring"):
        for imported in imports_of(path, top_level_only=False):
            assert not imported.startswith(("django", "tournaments", "config")), f"{path.name} imports {imported}"


LAYERS = {
    "bundle": lambda name: name.startswith("tournaments.games.") and name.count(".") >= 2,
    "services": lambda name: name.startswith("tournaments.services"),
    "views": lambda name: name.startswith("tournaments.views"),
    "printing": lambda name: name.startswith("tournaments.printing"),
}
#: What each part of the app may never import.
FORBIDDEN = {
    "bundle": ("tournaments.services", "tournaments.views", "tournaments.forms", "tournaments.models"),
    "services": ("tournaments.views", "tournaments.forms", "tournaments.pages.manche_page"),
    "printing": ("tournaments.views", "tournaments.forms", "tournaments.entry", "tournaments.services"),
}


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_imports_run_one_way(layer):
    for name, path in our_modules().items():
        if not LAYERS[layer](name):
            continue
        for imported in imports_of(path, top_level_only=False):
            assert not imported.startswith(FORBIDDEN[layer]), f"{name} ({layer}) imports {imported}"


def test_views_do_not_import_other_views():
    for name, path in our_modules().items():
        if LAYERS["views"](name):
            others = [i for i in imports_of(path, False) if i.startswith("tournaments.views") and i != name]
            assert others == [], f"{name} imports {others}"


def test_no_module_imports_itself_back():
    modules = our_modules()
    graph = {
        name: {imported for imported in imports_of(path, False) if imported in modules and imported != name}
        for name, path in modules.items()
    }
    done: set[str] = set()

    def visit(name: str, trail: list[str]) -> None:
        if name in trail:
            cycle = trail[trail.index(name) :] + [name]
            if not all(step == cycle[0] or cycle[0].startswith(step + ".") for step in cycle):
                pytest.fail("import cycle: " + " -> ".join(cycle))
            return
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
