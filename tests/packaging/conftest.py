"""The built distribution, and a virtual environment outside the checkout with only the wheel installed in it."""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.subprocesses import ROOT


@pytest.fixture(scope="session")
def distribution(tmp_path_factory) -> dict[str, Path]:
    """The wheel and sdist ``python -m build`` makes of this checkout (its build backend pinned in the development
    requirements, so no download is needed)."""
    folder = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(folder), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = folder.glob("tablescore-*-py3-none-any.whl")
    (sdist,) = folder.glob("tablescore-*.tar.gz")
    return {"wheel": wheel, "sdist": sdist}


@pytest.fixture(scope="session")
def installed(distribution, tmp_path_factory) -> Path:
    """The folder of the scripts of a new virtual environment that has the wheel and its dependencies alone."""
    environment = tmp_path_factory.mktemp("organiser laptop") / "venv"
    venv.EnvBuilder(with_pip=True).create(environment)
    scripts = environment / ("Scripts" if sys.platform == "win32" else "bin")
    done = subprocess.run(
        [str(scripts / "python"), "-m", "pip", "install", "--quiet", str(distribution["wheel"])],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return scripts
