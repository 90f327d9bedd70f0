"""Every program fixture behaves the same before and after migration, against the fake server.

For each folder in ``tests/equivalence/programs/`` two migrations are checked against the original
Chat Completions program: the hand-written ``expected_responses.py`` (proves the bench and the
fixture) and the engine's output (proves the engine). Select them with ``pytest -k equivalence``.
"""

from __future__ import annotations

import difflib

import pytest

from migrator.engine import transform_source
from migrator.model import Options
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
    result = transform_source(fixture.original.read_bytes(), Options())
    migrated_program = tmp_path / "program.py"
    migrated_program.write_bytes(result.output)
    migrated = bench.run(migrated_program, fixture.turns())
    problems = original_problems(original) + equivalence_problems(original, migrated)
    if problems:  # help whoever debugs the engine: what it said, and how its output differs from the reference
        findings = "\n".join(f"  {f.line}:{f.column} {f.rule} {f.message}" for f in result.findings) or "  (none)"
        source_diff = difflib.unified_diff(
            fixture.expected.read_text(encoding="utf-8").splitlines(keepends=True),
            result.output.decode("utf-8").splitlines(keepends=True),
            fromfile="expected_responses.py",
            tofile="engine output",
        )
        problems += [f"engine findings:\n{findings}", "engine output vs expected_responses.py:\n" + "".join(source_diff)]
    assert not problems, "\n\n".join(problems)
