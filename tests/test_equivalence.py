"""Every program fixture behaves the same before and after migration, against the fake server.

For each folder in ``tests/equivalence/programs/`` two migrations are checked against the original
Chat Completions program: the hand-written ``expected_responses.py`` (proves the bench and the
fixture) and the engine's output (proves the engine). Select them with ``pytest -k equivalence``.
"""

from __future__ import annotations

import difflib
import shutil
from pathlib import Path
from typing import Dict

import pytest

from migrator import engine
from migrator.engine import transform_source
from migrator.model import SourceResult
from migrator.project import Project
from tests.equivalence.harness import (
    Bench,
    ProgramFixture,
    RunResult,
    assert_equivalent,
    discover_programs,
    equivalence_problems,
    original_problems,
)

PROGRAMS = discover_programs()


@pytest.fixture(scope="module")
def bench():
    with Bench() as bench:
        yield bench


@pytest.fixture(scope="module")
def run_original(bench):
    """Run each original program once per module: both migrations are compared with that run."""
    runs = {}

    def run(fixture: ProgramFixture) -> RunResult:
        if fixture.name not in runs:
            runs[fixture.name] = bench.run(fixture.original, fixture.turns())
        return runs[fixture.name]

    return run


@pytest.mark.parametrize("fixture", PROGRAMS, ids=[fixture.name for fixture in PROGRAMS])
def test_expected_migration_equivalence(bench, run_original, fixture):
    original = run_original(fixture)
    migrated = bench.run(fixture.expected, fixture.turns())
    assert_equivalent(original, migrated)


@pytest.mark.parametrize("fixture", PROGRAMS, ids=[fixture.name for fixture in PROGRAMS])
def test_engine_migration_equivalence(bench, run_original, fixture, tmp_path):
    original = run_original(fixture)
    results = _migrated_copy(fixture, tmp_path)
    migrated = bench.run(tmp_path / "program.py", fixture.turns())
    problems = original_problems(original) + equivalence_problems(original, migrated)
    if problems:  # help whoever debugs the engine: what it said, and how its output differs from the reference
        for relative, result in results.items():
            findings = "\n".join(f"  {f.line}:{f.column} {f.rule} {f.message}" for f in result.findings) or "  (none)"
            expected = fixture.expected.parent / relative
            source_diff = difflib.unified_diff(
                expected.read_text(encoding="utf-8").splitlines(keepends=True),
                result.output.decode("utf-8").splitlines(keepends=True),
                fromfile=str(expected.relative_to(fixture.folder)),
                tofile="engine output",
            )
            problems += [f"engine findings in {relative}:\n{findings}", f"engine output vs {expected.name}:\n" + "".join(source_diff)]
    assert not problems, "\n\n".join(problems)


def _migrated_copy(fixture: ProgramFixture, folder: Path) -> Dict[Path, SourceResult]:
    """The program (and the modules it imports) migrated by the engine into ``folder``; the
    results by path relative to it. A program of several modules is migrated as one project."""
    if not fixture.modules:
        result = transform_source(fixture.original.read_bytes(), fixture.options)
        (folder / "program.py").write_bytes(result.output)
        return {Path("program.py"): result}
    for relative in [Path("program.py"), *fixture.modules]:
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(fixture.folder / relative, folder / relative)
    results = {}
    for file_result in engine.run([folder], fixture.options, jobs=1, project=Project(root=folder)):
        assert file_result.error is None, file_result.error
        if file_result.result.source:
            file_result.path.write_bytes(file_result.result.output)
            results[file_result.path.relative_to(folder)] = file_result.result
    return results
