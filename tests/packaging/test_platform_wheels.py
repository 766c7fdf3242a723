"""Every pinned dependency has a published wheel for the organisers' machines (Windows, macOS on Apple and Intel
processors, Linux) and Pythons (3.11 to 3.13), so installing never needs a compiler: pip's resolver is asked, for
each, what it would install from binaries alone."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from packaging.utils import canonicalize_name

from tests.packaging.test_distribution import pinned
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
#: What the requirements' environment markers see on each machine.
SYSTEMS = {
    "Windows": {"sys_platform": "win32", "platform_system": "Windows", "os_name": "nt", "platform_machine": "AMD64"},
    "macOS, Apple processor": {"sys_platform": "darwin", "platform_system": "Darwin", "platform_machine": "arm64"},
    "macOS, Intel processor": {"sys_platform": "darwin", "platform_system": "Darwin", "platform_machine": "x86_64"},
    "Linux, x86-64": {"sys_platform": "linux", "platform_system": "Linux", "platform_machine": "x86_64"},
    "Linux, ARM": {"sys_platform": "linux", "platform_system": "Linux", "platform_machine": "aarch64"},
}


def pinned_for(machine: str, python: str) -> dict[str, str]:
    """The pins of requirements.txt that apply on ``machine`` with ``python``."""
    environment = {"os_name": "posix", **SYSTEMS[machine], "python_version": python, "python_full_version": python}
    return {
        canonicalize_name(r.name): str(r.specifier).removeprefix("==")
        for r in pinned(ROOT / "requirements.txt")
        if r.marker is None or r.marker.evaluate(environment)
    }


@pytest.mark.parametrize("python", PYTHONS)
@pytest.mark.parametrize("machine", PLATFORMS)
def test_every_pinned_dependency_installs_from_a_wheel(machine, python, tmp_path):
    report, wanted = tmp_path / "report.json", tmp_path / "requirements.txt"
    # pip evaluates markers for the machine it runs on, whatever --platform says: the pins are chosen here.
    expected = pinned_for(machine, python)
    wanted.write_text("".join(f"{name}=={version}\n" for name, version in expected.items()))
    platforms = [option for tag in PLATFORMS[machine] for option in ("--platform", tag)]
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet", "--no-cache-dir"]
        + ["--only-binary=:all:", "--implementation", "cp", "--python-version", python, *platforms]
        + ["--report", str(report), "-r", str(wanted)],
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
    assert {name: version for name, (version, _url) in chosen.items()} == expected
