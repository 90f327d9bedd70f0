"""`migrator apply` end to end, with the real engine, on real files: what it writes and what not.

Unit tests of the pieces are elsewhere: atomic writes, permissions and symlinks in
tests/test_source.py, which files are dirty in tests/test_gitstate.py, the CLI's rendering
against a fake engine in tests/test_cli.py.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path
from typing import Dict, Tuple

import pytest
from typer.testing import CliRunner

from migrator import cli

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
MIGRATABLE = (FIXTURES / "chat_completions_create/simple_call/before.py").read_bytes()
MIGRATED = (FIXTURES / "chat_completions_create/simple_call/after.py").read_bytes()
PLAIN_ENV = {"FORCE_COLOR": None, "TTY_COMPATIBLE": None, "NO_COLOR": None, "COLUMNS": "200"}
LONG_AGO = 1_000_000_000  # 2001: any write since would show in the mtime


@pytest.fixture(autouse=True)
def cache_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs use the result cache, as the command does by default, but never the repository's."""
    monkeypatch.setenv("MIGRATOR_CACHE_DIR", str(tmp_path / "cache"))


def apply(*args: str):
    return CliRunner().invoke(cli.app, ["apply", *args], env=PLAIN_ENV)


def said(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


def snapshot(tree: Path) -> Dict[str, Tuple[bytes, int, int, int]]:
    """Content, mtime, inode and permission bits of every file under `tree`."""
    return {
        str(path.relative_to(tree)): (path.read_bytes(), path.stat().st_mtime_ns, path.stat().st_ino, path.stat().st_mode)
        for path in sorted(tree.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }


def aged(*paths: Path) -> None:
    for path in paths:
        os.utime(path, (LONG_AGO, LONG_AGO))


def make_tree(tmp_path: Path, files: Dict[str, bytes]) -> Path:
    tree = tmp_path / "tree"
    for name, data in files.items():
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        (tree / name).write_bytes(data)
    aged(*tree.rglob("*.py"))
    return tree


def test_apply_leaves_files_it_does_not_change_untouched(tmp_path):
    tree = make_tree(
        tmp_path,
        {
            "migrate.py": MIGRATABLE,
            "plain.py": b"print('nothing to do')\n",
            "mentions.py": b"# client.chat.completions.create is legacy\nDOC = 'chat.completions'\n",
            "blocked.py": MIGRATABLE.replace(b"temperature=0.2", b"n=3"),
            "broken.py": b"def f(:\n    client.chat.completions.create()\n",
            "pkg/deeper.py": MIGRATABLE.replace(b"resp.choices[0].message.content", b"resp.choices[1].message.content"),
        },
    )
    before = snapshot(tree)
    result = apply(str(tree))
    assert result.exit_code == 2, result.output  # broken.py could not be processed
    after = snapshot(tree)
    assert after["migrate.py"][0] == MIGRATED
    for name in ("plain.py", "mentions.py", "blocked.py", "broken.py", "pkg/deeper.py"):
        assert after[name] == before[name], name  # same bytes, mtime, inode and mode: never rewritten


def test_apply_keeps_permission_bits_and_leaves_no_temporary_file(tmp_path):
    tree = make_tree(tmp_path, {"script.py": MIGRATABLE, "private.py": MIGRATABLE})
    (tree / "script.py").chmod(0o755)
    (tree / "private.py").chmod(0o600)
    result = apply(str(tree))
    assert result.exit_code == 0, result.output
    assert stat.S_IMODE((tree / "script.py").stat().st_mode) == 0o755
    assert stat.S_IMODE((tree / "private.py").stat().st_mode) == 0o600
    assert sorted(path.name for path in tree.iterdir()) == ["private.py", "script.py"]


# Rules whose first migrated fixture goes into the tree `apply` runs on twice (every fixture is
# checked to be a fixed point by tests/test_fixtures.py; this is about the files on disk).
TWICE_RULES = ("chat_completions_create", "messages_to_input", "request_parameters", "response_fields",
               "response_format", "stream_loops", "tool_calls", "chat_completions_parse")


def fixture_files() -> Dict[str, bytes]:
    """The first fixture input of each of TWICE_RULES that the default options migrate."""
    files = {}
    for rule in TWICE_RULES:
        for case in sorted((FIXTURES / rule).iterdir()):
            if (case / "after.py").exists() and not (case / "options.txt").exists():
                files[f"{rule}.py"] = (case / "before.py").read_bytes()
                break
    return files


def test_apply_twice_is_apply_once_on_a_tree(tmp_path):
    tree = make_tree(tmp_path, fixture_files())
    first = apply("--jobs", "1", str(tree))
    assert first.exit_code == 0, first.output
    once = snapshot(tree)
    assert any(data != source for (data, *_), source in zip(once.values(), fixture_files().values()))
    aged(*tree.rglob("*.py"))
    once = snapshot(tree)
    second = apply("--jobs", "1", str(tree))
    assert second.exit_code == 0, second.output
    assert snapshot(tree) == once  # nothing written the second time, not even the same bytes
    assert " 0 changed" in said(second.output)


def test_a_read_only_file_is_reported_with_exit_2_and_the_others_are_written(tmp_path):
    tree = make_tree(tmp_path, {"a_read_only.py": MIGRATABLE, "b_writable.py": MIGRATABLE, "c_writable.py": MIGRATABLE})
    (tree / "a_read_only.py").chmod(0o444)
    result = apply(str(tree))
    assert result.exit_code == 2
    assert "a_read_only.py: error: not written: file is read-only" in said(result.output)
    assert (tree / "a_read_only.py").read_bytes() == MIGRATABLE
    assert (tree / "b_writable.py").read_bytes() == MIGRATED
    assert (tree / "c_writable.py").read_bytes() == MIGRATED


def test_a_symlink_out_of_the_tree_is_not_followed(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "theirs.py").write_bytes(MIGRATABLE)
    (outside / "dir_file.py").write_bytes(MIGRATABLE)
    tree = make_tree(tmp_path, {"ours.py": MIGRATABLE})
    (tree / "link_to_file.py").symlink_to(outside / "theirs.py")
    (tree / "link_to_dir").symlink_to(outside, target_is_directory=True)
    (tree / "link_inside.py").symlink_to(tree / "ours.py")
    result = apply(str(tree))
    assert result.exit_code == 2
    output = said(result.output)
    assert "link_to_file.py: error: symlink points outside the tree" in output
    assert "link_to_dir: error: symlink points outside the tree" in output
    assert (outside / "theirs.py").read_bytes() == MIGRATABLE
    assert (outside / "dir_file.py").read_bytes() == MIGRATABLE
    assert (tree / "ours.py").read_bytes() == MIGRATED
    assert (tree / "link_inside.py").is_symlink()


def git(tree: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    env.pop("GIT_DIR", None)
    env.pop("GIT_WORK_TREE", None)
    subprocess.run(["git", *args], cwd=tree, env=env, check=True, capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_a_dirty_git_tree_is_refused_without_allow_dirty(tmp_path):
    tree = make_tree(tmp_path, {"clean.py": MIGRATABLE, "edited.py": MIGRATABLE, "plain.py": b"x = 1\n"})
    git(tree, "init", "-q")
    git(tree, "add", ".")
    git(tree, "commit", "-q", "-m", "start")
    (tree / "edited.py").write_bytes(MIGRATABLE + b"# an uncommitted edit\n")
    (tree / "new.py").write_bytes(MIGRATABLE)  # untracked
    (tree / "plain.py").write_bytes(b"x = 2\n")  # dirty, but nothing to migrate in it
    before = snapshot(tree)

    refused = apply(str(tree))
    assert refused.exit_code == 2
    output = said(refused.output)
    assert "not writing anything: 2 files to change with uncommitted changes" in output
    assert "edited.py" in output and "new.py" in output and "plain.py" not in output
    assert snapshot(tree) == before  # not even the clean file was written

    allowed = apply("--allow-dirty", str(tree))
    assert allowed.exit_code == 0, allowed.output
    for name in ("clean.py", "edited.py", "new.py"):
        assert (tree / name).read_bytes().startswith(MIGRATED), name


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_a_clean_git_tree_is_written_without_allow_dirty(tmp_path):
    tree = make_tree(tmp_path, {"app.py": MIGRATABLE})
    git(tree, "init", "-q")
    git(tree, "add", ".")
    git(tree, "commit", "-q", "-m", "start")
    result = apply(str(tree))
    assert result.exit_code == 0, result.output
    assert (tree / "app.py").read_bytes() == MIGRATED
