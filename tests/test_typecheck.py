"""Every migrated fixture type-checks against the installed openai SDK (mypy)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.equivalence.harness import discover_programs
from tests.fixture_cases import all_cases, project_cases

pytest.importorskip("openai")
pytest.importorskip("mypy")

# A Response read the Chat way: proves in the same (slow) mypy run that the check can fail.
SENTINEL = (
    "from openai import OpenAI\n"
    "resp = OpenAI().responses.create(model='gpt-4o-mini', input='Hi')\n"
    "print(resp.choices[0].message.content)\n"
)


def test_migrated_fixtures_type_check_against_the_sdk(tmp_path):
    checked = tmp_path / "checked"
    checked.mkdir()
    for case in all_cases():
        if case.after is not None:
            shutil.copyfile(case.folder / "after.py", checked / f"{case.id.replace('/', '__')}.py")
    (checked / "sentinel_chat_read_on_response.py").write_text(SENTINEL)
    result = subprocess.run(
        # Checked against the SDK: a library a fixture also uses and that is not installed here
        # (Streamlit) counts as untyped.
        [sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", str(tmp_path / "cache"), "--ignore-missing-imports",
         "--check-untyped-defs", "--no-error-summary", "--hide-error-context", str(checked)],
        capture_output=True,
        text=True,
    )
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert any(line.startswith(str(checked / "sentinel")) and "choices" in line for line in errors), result.stdout
    fixture_errors = [line for line in errors if "sentinel_chat_read_on_response" not in line]
    assert not fixture_errors, "\n".join(fixture_errors) + result.stderr


def _mypy(target, cache_dir):
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(cache_dir), "--check-untyped-defs", "--ignore-missing-imports",
         "--no-error-summary", "--hide-error-context", "."],
        capture_output=True,
        text=True,
        cwd=target,
    )


def test_migrated_projects_type_check_against_the_sdk(tmp_path):
    """Each migrated tree of several modules, as one package, has no mypy error its original did
    not have (same file, same error code): the cases of fixtures/ whose files change, and the
    hand migrations of the equivalence programs of several modules. One mypy cache serves them
    all, so that the SDK is read once."""
    pairs = {f"fixture {case.id}": (case.before_files, case.after_files) for case in project_cases() if (case.folder / "after").is_dir()}
    for program in discover_programs():
        if program.modules:
            original = {p.as_posix(): (program.folder / p).read_bytes() for p in [Path("program.py"), *program.modules]}
            expected = program.expected.parent
            pairs[f"program {program.name}"] = (original, {p.relative_to(expected).as_posix(): p.read_bytes() for p in expected.rglob("*.py")})
    assert pairs
    failures = []
    for number, (name, trees) in enumerate(sorted(pairs.items())):
        before, after = (_error_codes(_mypy(_written(tmp_path / f"tree{number}" / side, files), tmp_path / "cache")) for side, files in zip(("before", "after"), trees))
        new = after - before
        if new:
            failures.append(f"{name}: {sorted(new.elements())}")
    sentinel = _written(tmp_path / "sentinel", {"chat_read_on_response.py": SENTINEL.encode()})
    assert _error_codes(_mypy(sentinel, tmp_path / "cache"))  # the same check can fail
    assert not failures, "\n".join(failures)


def _written(root: Path, files) -> Path:
    for relative, data in files.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_bytes(data)
    return root


def _error_codes(result) -> Counter:
    """(file, error code) of each error mypy reports: what a migration must not add."""
    return Counter(
        (line.split(":")[0], line.rsplit("[", 1)[-1].rstrip("]")) for line in result.stdout.splitlines() if ": error:" in line
    )
