from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from migrator.gitstate import dirty_files

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

# Tests must not depend on, or be broken by, the global git configuration.
GIT_ENV = {
    **os.environ,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.com",
}


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, env=GIT_ENV, check=True, capture_output=True)


def write(path: Path, text: str = "x = 1\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def repo(tmp_path):
    """A repository with committed files, all clean."""
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    for name in ("clean.py", "modified.py", "staged.py", "old.py", "dir with spaces/módulo ü.py", "uni/clean é.py"):
        write(root / name)
    write(root / ".gitignore", "ignored.py\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "initial")
    return root


def test_clean_files_are_not_dirty(repo):
    assert dirty_files([repo / "clean.py", repo / "uni/clean é.py"]) == set()


def test_modified_staged_and_untracked_files_are_dirty(repo):
    write(repo / "modified.py", "x = 2\n")
    write(repo / "staged.py", "x = 2\n")
    git(repo, "add", "staged.py")
    write(repo / "untracked.py")
    paths = [repo / name for name in ("clean.py", "modified.py", "staged.py", "untracked.py")]
    assert dirty_files(paths) == {repo / "modified.py", repo / "staged.py", repo / "untracked.py"}


def test_a_file_in_an_untracked_directory_is_dirty(repo):
    write(repo / "new" / "pkg" / "a.py")
    assert dirty_files([repo / "new/pkg/a.py", repo / "clean.py"]) == {repo / "new/pkg/a.py"}


def test_a_renamed_file_is_dirty_and_its_old_name_is_not_read_as_an_entry(repo):
    # In `-z` output the old name follows as a bare field; read as "XY name" it would
    # mark `clean.py` dirty.
    write(repo / "zz clean.py")
    git(repo, "add", "zz clean.py")
    git(repo, "commit", "-q", "-m", "more")
    git(repo, "mv", "zz clean.py", "new.py")
    assert dirty_files([repo / "new.py", repo / "clean.py"]) == {repo / "new.py"}


def test_paths_with_spaces_and_unicode(repo):
    write(repo / "dir with spaces/módulo ü.py", "x = 2\n")
    write(repo / "uni/néw file.py")
    paths = [repo / "dir with spaces/módulo ü.py", repo / "uni/néw file.py", repo / "uni/clean é.py"]
    assert dirty_files(paths) == {repo / "dir with spaces/módulo ü.py", repo / "uni/néw file.py"}


def test_ignored_files_are_not_dirty(repo):
    write(repo / "ignored.py")
    assert dirty_files([repo / "ignored.py"]) == set()


def test_paths_are_returned_as_given(repo, monkeypatch):
    write(repo / "modified.py", "x = 2\n")
    monkeypatch.chdir(repo / "uni")
    assert dirty_files([Path("../modified.py"), Path("clean é.py")]) == {Path("../modified.py")}


def test_a_symlink_stands_for_its_target(repo, tmp_path):
    write(repo / "modified.py", "x = 2\n")
    link = tmp_path / "link.py"
    link.symlink_to(repo / "modified.py")
    assert dirty_files([link]) == {link}


def test_files_outside_any_repository_are_not_dirty(tmp_path):
    outside = write(tmp_path / "outside" / "a.py")
    assert dirty_files([outside]) == set()


def test_files_in_several_repositories(repo, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q")
    write(other / "b.py")
    write(repo / "modified.py", "x = 2\n")
    paths = [repo / "modified.py", repo / "clean.py", other / "b.py", tmp_path / "outside.py"]
    write(tmp_path / "outside.py")
    assert dirty_files(paths) == {repo / "modified.py", other / "b.py"}


def test_without_git_nothing_is_dirty(repo, tmp_path, monkeypatch):
    write(repo / "modified.py", "x = 2\n")
    empty = tmp_path / "no-git-here"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    assert dirty_files([repo / "modified.py"]) == set()


def test_when_git_status_fails_the_repository_counts_as_dirty(repo):
    (repo / ".git" / "index").write_bytes(b"not an index")
    assert dirty_files([repo / "clean.py"]) == {repo / "clean.py"}


def test_git_dir_in_the_environment_does_not_redirect_the_lookup(repo, tmp_path, monkeypatch):
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q")
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    write(repo / "modified.py", "x = 2\n")
    assert dirty_files([repo / "modified.py", repo / "clean.py"]) == {repo / "modified.py"}
