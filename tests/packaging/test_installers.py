"""The two ways an organiser installs an application, ``uv tool install`` and ``pipx install``, take the built wheel
and put ``tablescore`` on the PATH (folders of the test's own here, not the machine's)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.packaging.organiser_laptop import organiser_environment

pytestmark = pytest.mark.packaging

#: The installers, from the development requirements: beside this run's Python.
SCRIPTS = Path(sys.executable).parent
#: The Python the tools' environments are made from (this run's own, without its packages).
BASE_PYTHON = getattr(sys, "_base_executable", sys.executable)


def install(command: list[str], environment: dict[str, str]) -> None:
    done = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def assert_on_the_path(bin_folder: Path, environment: dict[str, str]) -> None:
    path = os.pathsep.join([str(bin_folder), environment["PATH"]])
    found = shutil.which("tablescore", path=path)
    assert found and Path(found).parent == bin_folder
    done = subprocess.run(
        ["tablescore", "--version"], env={**environment, "PATH": path}, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and done.stdout.startswith("Tablescore "), done.stdout + done.stderr


def test_uv_tool_install_puts_tablescore_on_the_path(distribution, tmp_path):
    environment = organiser_environment(
        UV_TOOL_DIR=str(tmp_path / "tools"), UV_TOOL_BIN_DIR=str(tmp_path / "bin"), UV_PYTHON_DOWNLOADS="never"
    )
    install([str(SCRIPTS / "uv"), "tool", "install", "--python", BASE_PYTHON, str(distribution["wheel"])], environment)
    assert_on_the_path(tmp_path / "bin", environment)


def test_pipx_install_puts_tablescore_on_the_path(distribution, tmp_path):
    environment = organiser_environment(
        PIPX_HOME=str(tmp_path / "pipx"), PIPX_BIN_DIR=str(tmp_path / "bin"), PIPX_MAN_DIR=str(tmp_path / "man")
    )
    install([str(SCRIPTS / "pipx"), "install", "--python", BASE_PYTHON, str(distribution["wheel"])], environment)
    assert_on_the_path(tmp_path / "bin", environment)
