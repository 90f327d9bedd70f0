"""The wheel, installed alone in a fresh virtualenv, is the whole tool.

It proves the packaging: the top-level `rules/` folder ships as `migrator.rules` (no top-level
`rules` package), the console script works, and no file of the checkout is needed. The
virtualenv is not given the system's packages, so the dependencies come from the package
index (pip's cache makes that quick); the tests skip only when pip cannot reach the index.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Sequence

import pytest

from migrator import render
from migrator.registry import all_rules

ROOT = Path(__file__).resolve().parent.parent
# What the build reads: copied elsewhere so that building leaves no build/ or *.egg-info here.
BUILD_INPUTS = ("pyproject.toml", "README.md", "migrator", "rules")
# pip's words for "the package index could not be reached", as opposed to a real failure.
# "(from versions: none)" is what is left of that with retries off: every package we
# install has versions on the index.
OFFLINE = re.compile(
    r"NewConnectionError|Failed to establish a new connection|Temporary failure in name resolution"
    r"|Network is unreachable|ConnectTimeoutError|ProxyError|Max retries exceeded|\(from versions: none\)"
)


class Venv:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.bin = path / ("Scripts" if os.name == "nt" else "bin")
        self.python = str(self.bin / "python")

    def run(self, args: Sequence[str], cwd: Path, stdin: str = "") -> subprocess.CompletedProcess:
        """Run with the checkout out of sight: another directory, and no PYTHONPATH."""
        env = {name: value for name, value in os.environ.items() if name not in ("PYTHONPATH", "PYTHONHOME")}
        return subprocess.run(args, cwd=cwd, env=env, input=stdin, capture_output=True, text=True)


def pip(python: str, *args: str) -> None:
    completed = subprocess.run([python, "-m", "pip", *args], capture_output=True, text=True)
    if completed.returncode != 0:
        output = completed.stdout + completed.stderr
        if OFFLINE.search(output):
            pytest.skip(f"pip could not reach the package index:\n{output[-1000:]}")
        pytest.fail(f"pip {' '.join(args)} failed:\n{output}")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tmp_path_factory.mktemp("source")
    for name in BUILD_INPUTS:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(ROOT / name, source / name)
    out = tmp_path_factory.mktemp("wheel")
    pip(sys.executable, "wheel", "--no-deps", "--wheel-dir", str(out), str(source))
    [built] = out.glob("*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Venv:
    env = Venv(tmp_path_factory.mktemp("venv") / "venv")
    subprocess.run([sys.executable, "-m", "venv", str(env.path)], check=True)
    pip(env.python, "install", "--no-compile", str(wheel))  # compiling the dependencies is most of the time
    return env


def test_wheel_ships_the_rules_inside_migrator(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert not [name for name in names if name.startswith("rules/")]
    shipped = {Path(name).stem for name in names if name.startswith("migrator/rules/")}
    assert set(all_rules()) <= shipped


def test_installed_package_has_no_top_level_rules(venv: Venv, tmp_path: Path) -> None:
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    site_packages = Path(venv.run([venv.python, "-c", code], cwd=tmp_path).stdout.strip())
    assert (site_packages / "migrator" / "rules").is_dir()
    assert not (site_packages / "rules").exists()


def test_installed_migrator_lists_the_checkouts_rules(venv: Venv, tmp_path: Path) -> None:
    listed = venv.run([str(venv.bin / "migrator"), "rules", "--format", "markdown"], cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout == render.rules_markdown(all_rules())


def test_installed_migrator_runs_the_engine(venv: Venv, tmp_path: Path) -> None:
    where = venv.run([venv.python, "-c", "import migrator; print(migrator.__file__)"], cwd=tmp_path)
    assert Path(where.stdout.strip()).is_relative_to(venv.path)
    checked = venv.run([venv.python, "-m", "migrator", "check", "-"], cwd=tmp_path, stdin="print('hi')\n")
    assert (checked.returncode, checked.stdout) == (0, ""), checked.stderr
