"""A plain `migrator check PATH...` run without typer: the same output as the full command line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

from migrator.render import TERMINAL_OVERRIDES

ROOT = Path(__file__).resolve().parent.parent
CALL = (ROOT / "fixtures/chat_completions_create/simple_call/before.py").read_bytes()
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}  # the tests run in other folders
FULL_CLI = "import sys; from migrator.cli import main; sys.argv[0] = 'migrator'; main()"


def run(command: List[str], cwd: Path) -> tuple:
    completed = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=ENV)
    return completed.returncode, completed.stdout, completed.stderr


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "plain.py").write_text("print('hello')\n")
    (tmp_path / "other.py").write_text("def function(messages, stream):\n    return stream\n")
    (tmp_path / "call.py").write_bytes(CALL)
    (tmp_path / "bad.py").write_bytes(b"x = '\xff'\n")
    (tmp_path / "notebook.ipynb").write_text("{}")
    (tmp_path / "configured").mkdir()
    (tmp_path / "configured" / "pyproject.toml").write_text("[tool.migrator]\nselect = ['nope']\n")
    (tmp_path / "configured" / "plain.py").write_text("print('hello')\n")
    (tmp_path / "depends").mkdir()
    (tmp_path / "depends" / "pyproject.toml").write_text("[project]\ndependencies = ['responses-migrator']\n")
    (tmp_path / "depends" / "plain.py").write_text("print('hello')\n")
    return tmp_path


@pytest.mark.parametrize(
    "args",
    [
        ["check", "plain.py"],
        ["check", "plain.py", "other.py", "./plain.py"],  # one file named twice is one file
        ["check", "plain.py", "call.py"],  # a candidate: the full command line answers
        ["check", "missing.py"],
        ["check", "bad.py"],
        ["check", "--no-color", "plain.py"],  # what the pre-commit hook runs
        ["check", "plain.py", "--quiet", "--no-cache"],
        ["check", "plain.py", "--verbose"],
        ["check", "configured/plain.py"],  # an unknown rule id in the configuration is an error
        ["check", "."],
        ["check"],
        ["check", "call.py", "-v", "--no-color"],
        ["check", "notebook.ipynb", "call.py", "call.py"],
        ["check", "configured"],
    ],
    ids=lambda args: " ".join(args),
)
def test_the_command_prints_what_the_full_command_line_prints(tree: Path, args: List[str]) -> None:
    quick = run([sys.executable, "-m", "migrator", *args], cwd=tree)
    full = run([sys.executable, "-c", FULL_CLI, *args], cwd=tree)
    assert quick == full


def test_files_without_candidates_are_answered_without_typer_rich_or_libcst(tree: Path) -> None:
    """Nor typing, nor tokenize (for sources declaring no encoding), nor dataclasses."""
    loaded = "('typer', 'rich', 'pydantic', 'libcst', 'typing', 'tokenize', 'dataclasses')"
    code = (
        "import sys; from migrator.quick import quick_check;"
        "code = quick_check(['check', 'plain.py', 'depends/plain.py']);"
        f"print(code, sorted(name for name in {loaded} if name in sys.modules))"
    )
    completed = subprocess.run([sys.executable, "-c", code], cwd=tree, env=ENV, capture_output=True, text=True)
    assert completed.stdout == "0 []\n"
    assert completed.stderr == "2 files scanned: no findings.\n"


@pytest.mark.parametrize(
    "args",
    [["check"], ["check", "call.py"], ["check", "notebook.ipynb", "bad.py"], ["check", "-v", "plain.py"],
     ["check", "--no-color", "--no-cache", "."]],
    ids=" ".join,
)
def test_other_plain_checks_are_run_by_the_session_without_typer_or_rich_when_piped(tree: Path, args: List[str]) -> None:
    code = (
        f"import sys; from migrator.quick import quick_check; code = quick_check({args!r});"
        "print(code is not None, [name for name in ('typer', 'pydantic', 'rich') if name in sys.modules])"
    )
    piped = {name: value for name, value in ENV.items() if name not in TERMINAL_OVERRIDES}
    completed = subprocess.run([sys.executable, "-c", code], cwd=tree, env=piped, capture_output=True, text=True)
    assert completed.stdout.splitlines()[-1] == "True []"


def test_a_check_without_the_cache_loads_none_of_it(tree: Path) -> None:
    code = (
        "import sys; from migrator.quick import quick_check; quick_check(['check', '--no-cache', 'call.py']);"
        "print('migrator.cache' in sys.modules)"
    )
    completed = subprocess.run([sys.executable, "-c", code], cwd=tree, env=ENV, capture_output=True, text=True)
    assert completed.stdout.splitlines()[-1] == "False"


@pytest.mark.parametrize(
    "args",
    [[], ["diff", "plain.py"], ["check", "-"], ["check", "--select", "tool_calls", "plain.py"],
     ["check", "--output-format", "json", "call.py"], ["check", "--", "plain.py"], ["check", "configured/plain.py"],
     ["check", "configured"]],
    ids=lambda args: " ".join(args) or "no arguments",
)
def test_anything_else_is_left_to_the_full_command_line(tree: Path, args: List[str], monkeypatch) -> None:
    from migrator.quick import quick_check

    monkeypatch.chdir(tree)
    assert quick_check(args) is None


def test_the_bench_tree_inside_this_repository_takes_the_quick_path():
    """bench/run.py measures start-up and warm checks on trees under bench/.cache: a mention of
    the configuration table in this repository's pyproject.toml would send them to the full
    command line, and the figures would measure that instead."""
    from migrator.quick import _may_be_configured

    assert not _may_be_configured(ROOT / "bench" / ".cache" / "tree")
