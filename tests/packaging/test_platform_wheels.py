"""Every pinned dependency has a published wheel for the organisers' machines (Windows, macOS on Apple and Intel
processors, Linux) and Pythons (3.11 to 3.13), so installing never needs a compiler: pip's resolver is asked, for
each, what it would install from binaries alone."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from packaging.utils import canonicalize_name

from tests.packaging.test_distribution import pins
from tests.subprocesses import ROOT

pytestmark = pytest.mark.packaging

PYTHONS = ["3.11", "3.12", "3.13"]
#: A Linux of glibc 2.28 or newer takes every manylinux wheel up to 2.28.
MANYLINUX = [f"manylinux_2_{minor}" for minor in range(28, 4, -1)] + ["manylinux2014", "manylinux1"]
PLATFORMS = {
    "Windows": ["win_amd64"],
    "macOS, Apple processor": ["macosx_13_0_arm64"],
    "macOS, Intel processor": ["macosx_13_0_x86_64"],
    "Linux, x86-64": [f"{tag}_x86_64" for tag in MANYLINUX],
    "Linux, ARM": [f"{tag}_aarch64" for tag in MANYLINUX if tag != "manylinux1"],
}


@pytest.mark.parametrize("python", PYTHONS)
@pytest.mark.parametrize("machine", PLATFORMS)
def test_every_pinned_dependency_installs_from_a_wheel(machine, python, tmp_path):
    report = tmp_path / "report.json"
    platforms = [option for tag in PLATFORMS[machine] for option in ("--platform", tag)]
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet", "--no-cache-dir"]
        + ["--only-binary=:all:", "--implementation", "cp", "--python-version", python, *platforms]
        + ["--report", str(report), "-r", str(ROOT / "requirements.txt")],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, f"{machine}, Python {python}:\n{done.stderr[-3000:]}"
    chosen = {
        canonicalize_name(item["metadata"]["name"]): (item["metadata"]["version"], item["download_info"]["url"])
        for item in json.loads(report.read_text())["install"]
    }
    assert all(url.endswith(".whl") for _version, url in chosen.values())
    pinned = {canonicalize_name(name): version for name, version in pins(ROOT / "requirements.txt").items()}
    assert {name: version for name, (version, _url) in chosen.items()} == pinned
