"""A person with only the built wheel and a Python installs Tablescore and runs an evening: the installed
``tablescore`` keeps everything in a data folder of its own (a path with a space and accented letters here), serves
the phones with its own server, and keeps the club's tournaments from one start to the next."""

from __future__ import annotations

import socket

import pytest

from tests.packaging.organiser_laptop import Laptop

pytestmark = pytest.mark.packaging

#: Modules that exist only on Unix: Windows has none of them.
UNIX_ONLY = ("fcntl", "grp", "pwd", "resource", "termios")
#: Put first on the path, it makes the Unix-only modules unimportable in every process of the command, as on Windows.
AS_ON_WINDOWS = f"""
import sys

UNIX_ONLY = {UNIX_ONLY!r}


class NotOnWindows:
    def find_spec(self, name, path=None, target=None):
        if name in UNIX_ONLY:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None


for name in UNIX_ONLY:
    sys.modules.pop(name, None)
sys.meta_path.insert(0, NotOnWindows())
"""


def test_the_command_says_what_it_is_and_how_to_use_it(installed, tmp_path):
    laptop = Laptop(installed, tmp_path / "data", tmp_path)
    version = laptop.command("--version")
    assert version.returncode == 0 and version.stdout.startswith("Tablescore ")
    helped = laptop.command("--help")
    assert helped.returncode == 0
    for words in ("serve", "manage", "Ctrl+C", "data folder", "--data"):
        assert words in helped.stdout
    assert not (tmp_path / "data").exists(), "asking for help made the data folder"


def test_an_evening_served_from_a_folder_with_a_space_and_accents_survives_a_restart(installed, tmp_path):
    data = tmp_path / "Núria Pérez" / "Mis torneos"
    with Laptop(installed, data, tmp_path) as laptop:
        assert any(line.startswith("Demo loaded: ") for line in laptop.lines)
        login = laptop.wait_for_line("Log in at ", 1)
        assert f"http://127.0.0.1:{laptop.port}/accounts/login/ as 'organiser' with password '" in login
        assert laptop.wait_for_line("Phones: ", 1).startswith(("Phones: http://", "Phones: no network address"))
        assert str(data) in laptop.lines[0]
        assert laptop.request("GET", "/static/css/tablescore.css")[0] == 200
        slug, scores = laptop.play_open_table()
        laptop.wait_for_standings(slug, scores)
        snapshot = laptop.command("manage", "snapshot_database")
        assert snapshot.returncode == 0, snapshot.stdout + snapshot.stderr
        assert laptop.stop() == 0
    assert {"db.sqlite3", ".secret_key", ".organiser_password"} <= {path.name for path in data.iterdir()}
    assert [path.suffix for path in (data / "snapshots").iterdir()] == [".sqlite3"]

    with Laptop(installed, data, tmp_path) as again:
        assert not any(line.startswith("Demo loaded: ") for line in again.lines)
        assert again.wait_for_line("Log in at ", 1).endswith(login.rsplit(" ", 1)[1])
        again.wait_for_standings(slug, scores)
        assert again.stop() == 0


def test_a_port_in_use_is_said_before_anything_is_done(installed, tmp_path):
    laptop = Laptop(installed, tmp_path / "data", tmp_path)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", laptop.port))
        taken.listen()
        done = laptop.command("serve", "--host", "127.0.0.1", "--port", str(laptop.port), "--no-browser")
    assert done.returncode == 1
    assert f"Port {laptop.port} is in use already" in done.stdout
    assert f"--port {laptop.port + 1}" in done.stdout
    assert "Getting the database ready" not in done.stdout


def test_a_setting_at_fault_is_named_and_nothing_is_served(installed, tmp_path):
    laptop = Laptop(installed, tmp_path / "data", tmp_path, PUBLIC_URL="phones.example/path")
    done = laptop.command("serve", "--host", "127.0.0.1", "--port", str(laptop.port), "--no-browser")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Tablescore cannot start:" in done.stdout and "PUBLIC_URL must be an address" in done.stdout
    assert "Getting the database ready" not in done.stdout


def test_the_evening_runs_without_the_modules_windows_lacks(installed, tmp_path):
    hook = tmp_path / "as-on-windows"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(AS_ON_WINDOWS, encoding="utf-8")
    data = tmp_path / "Club Ñandú" / "données"
    with Laptop(installed, data, tmp_path, PYTHONPATH=str(hook)) as laptop:
        missing = laptop.manage_json(
            "import importlib, json, config.wsgi\n"
            f"names = {UNIX_ONLY!r}\n"
            "def importable(name):\n"
            "    try:\n"
            "        importlib.import_module(name)\n"
            "    except ImportError:\n"
            "        return False\n"
            "    return True\n"
            "print(json.dumps([name for name in names if not importable(name)]))"
        )
        assert missing == list(UNIX_ONLY)
        slug, scores = laptop.play_open_table()
        laptop.wait_for_standings(slug, scores)
        assert laptop.stop() == 0


def test_the_hook_really_hides_the_modules(installed, tmp_path):
    """The check above proves something only if the hook works: on this Unix machine they exist without it."""
    laptop = Laptop(installed, tmp_path / "data", tmp_path)
    present = laptop.manage_json(
        f"import importlib, json\nprint(json.dumps([importlib.import_module(n).__name__ for n in {UNIX_ONLY!r}]))"
    )
    assert present == list(UNIX_ONLY)
