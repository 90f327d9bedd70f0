"""A project's tests mock Chat Completions; once the code under test is migrated, its mocks and
fakes must move with it. Its test suite is run (with the SDK, and no server to reach): it passes
before the migration and after it, and fails with the code migrated and the mocks left as they were,
which shows that the mocks moved are what keeps it passing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixture_cases import FIXTURES, ProjectCase

CASE = ProjectCase(FIXTURES / "mocked_chat_completions" / "simple_mocks_move_with_the_code")


def _tree(tmp_path: Path, files: dict) -> Path:
    root = tmp_path / "project"
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return root


def _pytest(root: Path) -> subprocess.CompletedProcess:
    # A request a mock misses fails at once: nothing listens there, and the clients do not retry.
    env = {**os.environ, "OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"]
    return subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=300)


def _tests_of(files: dict) -> int:
    return sum(data.count(b"\ndef test_") for name, data in files.items() if name.startswith("tests/"))


@pytest.mark.parametrize("state", ["before", "after"])
def test_the_suite_passes_before_and_after_the_migration(tmp_path, state):
    files = CASE.before_files if state == "before" else CASE.after_files
    run = _pytest(_tree(tmp_path, files))
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"{_tests_of(files)} passed" in run.stdout


def test_the_mocks_left_as_they_were_miss_the_migrated_calls(tmp_path):
    files = {**CASE.after_files, **{name: data for name, data in CASE.before_files.items() if name.startswith("tests/")}}
    run = _pytest(_tree(tmp_path, files))
    assert f"{_tests_of(files)} failed" in run.stdout, run.stdout + run.stderr


def test_the_case_moves_every_mock_of_its_tests():
    """What the runs above rest on: the tests and the code are both migrated."""
    changed = [name for name in CASE.after_files if CASE.after_files[name] != CASE.before_files.get(name)]
    assert {"app/llm.py", "tests/test_llm.py", "tests/test_through_a_fixture.py", "tests/test_classes.py"} <= set(changed)
    assert not any(b"chat.completions" in CASE.after_files[name] or b"choices" in CASE.after_files[name] for name in changed)
