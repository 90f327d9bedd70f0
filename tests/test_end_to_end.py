"""The real engine through the real command line, on a git working tree."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from migrator.engine import transform_source
from tests.fixture_cases import all_cases

ROOT = Path(__file__).resolve().parent.parent


def _migrated_sample(size: int = 8) -> list:
    """One case of each of ``size`` rules whose migration leaves nothing to report, so that
    `check` passes after `apply`: the first cases by name would all be one rule's."""
    sample, rules = [], set()
    for case in all_cases():
        if len(sample) == size:
            break
        if case.rule in rules or case.after is None or (case.folder / "options.txt").exists():
            continue
        if not transform_source(case.after).findings:
            sample.append(case)
            rules.add(case.rule)
    return sample


MIGRATED = _migrated_sample()

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def migrator(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "migrator", *args], cwd=cwd, capture_output=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    )


def git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    for index, case in enumerate(MIGRATED):
        target = tmp_path / "src" / f"m{index:02}.py"
        target.parent.mkdir(exist_ok=True)
        source = case.before
        target.write_bytes(source.replace(b"\n", b"\r\n") if index % 2 else source)  # CRLF files too
    git("init", "-q", cwd=tmp_path)
    git("-c", "user.name=t", "-c", "user.email=t@t", "add", ".", cwd=tmp_path)
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "before", cwd=tmp_path)
    return tmp_path


def test_diff_applies_with_git_and_equals_apply_then_diff_prints_nothing(repository: Path, tmp_path_factory):
    diff = migrator("diff", "src", cwd=repository)
    assert diff.returncode == 0, diff.stderr.decode()
    patch = repository.parent / "migration.patch"
    patch.write_bytes(diff.stdout)
    subprocess.run(["git", "apply", "--check", str(patch)], cwd=repository, check=True)

    copy = tmp_path_factory.mktemp("applied")
    shutil.copytree(repository, copy, dirs_exist_ok=True)
    subprocess.run(["git", "apply", str(patch)], cwd=repository, check=True)
    applied = migrator("apply", "src", cwd=copy)
    assert applied.returncode == 0, applied.stderr.decode()
    for path in sorted((repository / "src").glob("*.py")):
        assert path.read_bytes() == (copy / "src" / path.name).read_bytes(), path.name

    again = migrator("diff", "src", "--exit-code", cwd=copy)
    assert again.returncode == 0 and again.stdout == b"", again.stdout.decode()


def test_check_fails_before_and_passes_after_apply(repository: Path):
    before = migrator("check", "src", cwd=repository)
    assert before.returncode == 1 and b"[*]" in before.stdout
    assert migrator("apply", "src", cwd=repository).returncode == 0
    after = migrator("check", "src", cwd=repository)
    assert after.returncode == 0, after.stdout.decode()
