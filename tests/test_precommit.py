"""The pre-commit hooks, for real: `pre-commit try-repo` on a temporary git repository.

pre-commit clones the hook repository and installs it with pip into an environment of its own,
so this needs the package index (for the dependencies); it is skipped only when pip cannot
reach it. The hook repository is a committed snapshot of this checkout, so that what is tested
is the working tree, uncommitted changes included, and the checkout's git state is never touched.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict

import pytest
from pre_commit.clientlib import load_manifest

ROOT = Path(__file__).resolve().parent.parent
HOOKS_FILE = ROOT / ".pre-commit-hooks.yaml"
# What `pip install .` of the hook repository reads.
SNAPSHOT = ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml", "migrator", "rules")
UNREACHABLE_INDEX = (
    "Failed to establish a new connection",
    "Temporary failure in name resolution",
    "Network is unreachable",
    "Max retries exceeded",
    "ConnectTimeoutError",
    "Read timed out",
)
UNRESOLVED = "unresolved_client `client.chat.completions.create` looks like a Chat Completions call"


def test_hooks_file_is_a_valid_pre_commit_manifest():
    hooks = {hook["id"]: hook for hook in load_manifest(str(HOOKS_FILE))}
    assert set(hooks) == {"migrator-check", "migrator-apply"}
    assert hooks["migrator-check"]["entry"].startswith("migrator check")
    assert hooks["migrator-apply"]["entry"].startswith("migrator apply")
    for hook in hooks.values():
        assert hook["language"] == "python" and hook["types_or"] == ["python", "jupyter"]


def notebook(code: str) -> str:
    """A notebook with ``code`` as its one code cell, as Jupyter writes it."""
    cell = {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": code.splitlines(True)}
    document = {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(document, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def git(*args: str, cwd: Path) -> None:
    subprocess.run(
        ["git", "-c", "user.name=test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def git_env() -> Dict[str, str]:
    """The environment without what would point git at another repository (set inside git hooks)."""
    return {name: value for name, value in os.environ.items() if not name.startswith("GIT_")}


@pytest.fixture
def hook_repository(tmp_path: Path) -> Path:
    repository = tmp_path / "hooks"
    repository.mkdir()
    for name in SNAPSHOT:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, repository / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(source, repository / name)
    git("init", "-q", cwd=repository)
    git("add", "-A", cwd=repository)
    git("commit", "-q", "-m", "snapshot", cwd=repository)
    return repository


def test_pre_commit_try_repo_migrates_with_the_apply_hook_and_gates_with_the_check_hook(
    hook_repository: Path, tmp_path: Path
):
    project = tmp_path / "project"
    project.mkdir()
    before = (ROOT / "fixtures/chat_completions_create/simple_call/before.py").read_bytes()
    migrated = (ROOT / "fixtures/chat_completions_create/simple_call/after.py").read_bytes()
    (project / "legacy.py").write_bytes(before)
    manual = 'import openai\n\nclient = make_client()\nr = client.chat.completions.create(model="m", messages=[])\n'
    (project / "manual.py").write_text(manual)
    (project / "clean.py").write_text("print('nothing to migrate')\n")
    (project / "analysis.ipynb").write_text(notebook(before.decode()))
    git("init", "-q", cwd=project)
    git("add", "-A", cwd=project)

    env = {**git_env(), "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    completed = subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(hook_repository), "--all-files", "--color", "never"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    output = completed.stdout + completed.stderr
    if completed.returncode != 1 and any(marker in output for marker in UNREACHABLE_INDEX):
        pytest.skip("pip cannot reach the package index to install the hook's environment")

    # Hooks run in id order: apply first (it rewrites legacy.py), then check (manual.py is left).
    assert completed.returncode == 1, output
    apply_part, check_part = output.split("migrator check....", 1)
    assert re.search(r"migrator apply\.+Failed", apply_part), output
    assert "files were modified by this hook" in apply_part
    assert (project / "legacy.py").read_bytes() == migrated
    assert (project / "analysis.ipynb").read_text() == notebook(migrated.decode())
    assert check_part.lstrip(".").startswith("Failed"), output
    assert f"manual.py:4:5: {UNRESOLVED}" in check_part
    assert "legacy.py" not in check_part
