from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from migrator.diffing import DiffError, diff_path, unified_diff, unified_diff_bytes

GIT = shutil.which("git")
PATCH = shutil.which("patch")
needs_git = pytest.mark.skipif(GIT is None, reason="needs git")

# Git must judge the patch alone, not through someone's global configuration.
GIT_ENV = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}

CASES = {
    "lf": (b"a\nb\nc\n", b"a\nB\nc\n"),
    "crlf": (b"a\r\nb\r\nc\r\n", b"a\r\nB\r\nc\r\n"),
    "crlf changed to lf": (b"a\r\nb\r\nc\r\n", b"a\r\nb\nc\r\n"),
    "mixed endings and a lone cr": (b"a\r\nb\nc\rd\r\ne\n", b"a\nb\r\nc\rD\r\ne\n"),
    "no final newline before": (b"a\nb\nc", b"a\nb\nc\n"),
    "no final newline after": (b"a\nb\nc\n", b"a\nb\nc"),
    "no final newline on either side": (b"a\nb\nc", b"a\nB\nc"),
    "last line changed without final newline": (b"a\nb\nc", b"a\nb\nC"),
    "no final newline with crlf": (b"a\r\nb\r\nc", b"a\r\nB\r\nc"),
    "latin-1": (b"# coding: latin-1\nx = '\xe9'\ny = 1\n", b"# coding: latin-1\nx = '\xe8\xff'\ny = 1\n"),
    "utf-8 with bom": (b"\xef\xbb\xbfx = '\xc3\xa9'\n", b"\xef\xbb\xbfx = '\xc3\xa8'\n"),
    "far apart changes": (
        b"".join(b"%d\n" % i for i in range(40)),
        b"".join(b"%d\n" % (-i if i % 17 == 3 else i) for i in range(40)),
    ),
    "everything removed": (b"a\nb\n", b""),
    "first content": (b"", b"a\nb\n"),
}


def run(args, cwd, stdin=None):
    return subprocess.run(args, cwd=cwd, input=stdin, capture_output=True, env=GIT_ENV, check=False)


def git_apply(repo: Path, relpath: str, before: bytes, diff: bytes) -> bytes:
    """Apply `diff` to `before` with `git apply` (after `--check`); return the patched bytes."""
    (repo / relpath).parent.mkdir(parents=True, exist_ok=True)
    (repo / relpath).write_bytes(before)
    for args in (["git", "apply", "--check", "-"], ["git", "apply", "-"]):
        completed = run(args, repo, diff)
        assert completed.returncode == 0, completed.stderr.decode()
    return (repo / relpath).read_bytes()


def patch_apply(directory: Path, relpath: str, before: bytes, diff: bytes) -> bytes:
    """Apply `diff` to `before` with `patch -p1` (after `--dry-run`); return the patched bytes."""
    (directory / relpath).parent.mkdir(parents=True, exist_ok=True)
    (directory / relpath).write_bytes(before)
    for args in (["patch", "-p1", "--dry-run"], ["patch", "-p1"]):
        completed = run([*args, "--batch", "--silent", "--no-backup-if-mismatch"], directory, diff)
        assert completed.returncode == 0, (completed.stdout + completed.stderr).decode()
    return (directory / relpath).read_bytes()


@pytest.fixture
def repo(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path / "repo")], check=True, env=GIT_ENV)
    return tmp_path / "repo"


@needs_git
@pytest.mark.parametrize("relpath", ["pkg/mod.py", "dir with spaces/mødule ü.py"])
@pytest.mark.parametrize("case", list(CASES))
def test_git_apply_reproduces_after_byte_for_byte(repo, case, relpath):
    before, after = CASES[case]
    assert git_apply(repo, relpath, before, unified_diff_bytes(relpath, before, after)) == after


@pytest.mark.skipif(PATCH is None, reason="needs patch")
@pytest.mark.parametrize("relpath", ["pkg/mod.py", "dir with spaces/mødule ü.py"])
@pytest.mark.parametrize("case", list(CASES))
def test_patch_reproduces_after_byte_for_byte(tmp_path, case, relpath):
    before, after = CASES[case]
    assert patch_apply(tmp_path, relpath, before, unified_diff_bytes(relpath, before, after)) == after


LINES = st.sampled_from([b"a", b"b", b"c", b"x = 1", b"\xe9", b""])
ENDINGS = st.sampled_from([b"\n", b"\r\n", b"\r"])
SOURCES = st.builds(
    lambda lines, last: b"".join(lines) + last,
    st.lists(st.builds(lambda line, end: line + end, LINES, ENDINGS), max_size=12),
    LINES,  # the text after the last line ending, often none
)


@needs_git
@settings(
    max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(before=SOURCES, after=SOURCES)
def test_git_apply_reproduces_any_edit(repo, before, after):
    diff = unified_diff_bytes("mod.py", before, after)
    if before == after:
        assert diff == b""
    else:
        assert git_apply(repo, "mod.py", before, diff) == after


def test_headers_and_hunk():
    assert unified_diff_bytes("pkg/mod.py", b"a\nb\n", b"a\nc\n") == (
        b"--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
    )


def test_a_name_with_a_space_ends_with_a_tab_as_git_writes_it():
    assert unified_diff_bytes("my mod.py", b"a\n", b"b\n").startswith(b"--- a/my mod.py\t\n+++ b/my mod.py\t\n")


def test_a_path_object_gives_forward_slashes():
    assert unified_diff_bytes(Path("pkg") / "mod.py", b"a\n", b"b\n").startswith(b"--- a/pkg/mod.py\n")


def test_no_final_newline_marker_follows_the_line_of_the_side_lacking_it():
    assert unified_diff_bytes("m.py", b"a\nb", b"a\nc\n").endswith(
        b" a\n-b\n\\ No newline at end of file\n+c\n"
    )
    assert unified_diff_bytes("m.py", b"a\nb\n", b"a\nc").endswith(b" a\n-b\n+c\n\\ No newline at end of file\n")
    assert unified_diff_bytes("m.py", b"a\nb", b"A\nb").endswith(b"-a\n+A\n b\n\\ No newline at end of file\n")


def test_crlf_and_lone_cr_are_kept_inside_lines():
    diff = unified_diff_bytes("m.py", b"a\r\nb\rc\n", b"a\r\nb\rC\n")
    assert diff.endswith(b"@@ -1,2 +1,2 @@\n a\r\n-b\rc\n+b\rC\n")


def test_content_keeps_the_file_encoding():
    diff = unified_diff_bytes("m.py", b"x = '\xe9'\n", b"x = '\xe8'\n")
    assert diff.endswith(b"-x = '\xe9'\n+x = '\xe8'\n")


def test_unified_diff_text_is_decoded_with_the_file_encoding():
    text = unified_diff("m.py", b"x = '\xe9'\n", b"x = '\xe8'\n", encoding="latin-1")
    assert text.endswith("-x = '\u00e9'\n+x = '\u00e8'\n")


def test_no_change_is_no_diff():
    assert unified_diff_bytes("m.py", b"a\r\n", b"a\r\n") == b""
    assert unified_diff("m.py", b"a", b"a") == ""


def test_diff_path_is_relative_to_the_cwd_with_forward_slashes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert diff_path(tmp_path / "pkg" / "mod.py") == "pkg/mod.py"
    assert diff_path(Path("pkg") / "mod.py") == "pkg/mod.py"


def test_a_diff_that_does_not_parse_is_an_internal_error(monkeypatch):
    def truncated_hunk(*args, **kwargs):
        yield from ["--- a/m.py\n", "+++ b/m.py\n", "@@ -1,2 +1,2 @@\n", "-a\n"]

    monkeypatch.setattr("difflib.unified_diff", truncated_hunk)
    with pytest.raises(DiffError, match="does not parse"):
        unified_diff_bytes("m.py", b"a\n", b"b\n")


def test_a_diff_with_unexpected_counts_is_an_internal_error(monkeypatch):
    def two_files(*args, **kwargs):
        for name in ("m.py", "n.py"):
            yield from [f"--- a/{name}\n", f"+++ b/{name}\n", "@@ -1 +1 @@\n", "-a\n", "+b\n"]

    monkeypatch.setattr("difflib.unified_diff", two_files)
    with pytest.raises(DiffError, match=r"\(files, added, removed\) = \(2, 2, 2\)"):
        unified_diff_bytes("m.py", b"a\n", b"b\n")
