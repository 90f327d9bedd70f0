from __future__ import annotations

import errno
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from migrator import discovery
from migrator.discovery import SKIPPED_DIR_NAMES, DiscoveryError, discover, parse_gitignore


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    """Every test runs in its own empty directory, so yielded paths are short and relative."""
    monkeypatch.chdir(tmp_path)


def touch(*relpaths: str) -> None:
    for relpath in relpaths:
        path = Path(relpath)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x = 1\n")


def write(relpath: str, text: str) -> None:
    path = Path(relpath)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def files(*args: str, exclude=()) -> list:
    """The yielded files as strings; fails the test if any error is yielded."""
    results = list(discover([Path(arg) for arg in args], exclude))
    assert [r for r in results if isinstance(r, DiscoveryError)] == []
    return [str(r) for r in results]


def errors(*args: str) -> list:
    return [(str(r.path), r.reason) for r in discover([Path(arg) for arg in args]) if isinstance(r, DiscoveryError)]


# --- walking -------------------------------------------------------------------------


def test_walks_sorted_yielding_python_and_notebooks_only():
    touch("b.py", "a.py", "c.txt", "pkg/z.py", "pkg/d.ipynb", "pkg/sub/e.py", "pyproject.toml", "aa/x.pyi")
    assert files(".") == ["a.py", "b.py", "pkg/d.ipynb", "pkg/sub/e.py", "pkg/z.py"]


def test_paths_are_spelled_from_their_argument(tmp_path):
    touch("src/pkg/a.py")
    assert files("src") == ["src/pkg/a.py"]
    assert files(str(tmp_path / "src")) == [str(tmp_path / "src/pkg/a.py")]


@pytest.mark.parametrize("name", sorted(SKIPPED_DIR_NAMES) + ["foo.egg-info"])
def test_skips_tool_and_vcs_directories(name):
    touch(f"{name}/x.py", f"pkg/{name}/y.py", "keep.py")
    assert files(".") == ["keep.py"]


def test_skips_any_virtualenv_by_its_pyvenv_cfg():
    touch("my-env/lib/site.py", "keep.py")
    write("my-env/pyvenv.cfg", "home = /usr/bin\n")
    assert files(".") == ["keep.py"]


def test_directories_named_like_tools_but_different_are_walked():
    touch("venvs_docs/a.py", "builder/b.py", "distance/c.py")
    assert files(".") == ["builder/b.py", "distance/c.py", "venvs_docs/a.py"]


def test_explicit_files_are_always_processed():
    write(".gitignore", "ignored.py\n")
    touch("ignored.py", "script", "venv/inside.py", "gen_pb2.py")
    assert files("ignored.py", "script", "venv/inside.py", "gen_pb2.py", exclude=["*_pb2.py"]) == [
        "ignored.py",
        "script",
        "venv/inside.py",
        "gen_pb2.py",
    ]


def test_an_explicit_directory_is_walked_even_if_it_would_be_skipped():
    touch("build/a.py", "build/venv/b.py")
    assert files("build") == ["build/a.py"]


def test_arguments_keep_their_order_and_each_file_comes_once():
    touch("a.py", "b/c.py", "b/d.py")
    assert files("b/d.py", "a.py", "b", "./a.py", ".") == ["b/d.py", "a.py", "b/c.py"]


def test_missing_path_is_an_error_and_the_run_goes_on():
    touch("a.py")
    results = list(discover([Path("nope.py"), Path("a.py")]))
    assert results == [DiscoveryError(Path("nope.py"), "no such file or directory"), Path("a.py")]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_an_explicit_special_file_is_an_error():
    os.mkfifo("pipe.py")
    assert errors("pipe.py") == [("pipe.py", "not a regular file or directory")]


def test_unreadable_directory_is_an_error_and_the_rest_is_walked(monkeypatch):
    touch("a/x.py", "b/locked/y.py", "c/z.py")
    real_scandir = os.scandir

    def scandir(path):
        if Path(path) == Path("b/locked"):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(discovery.os, "scandir", scandir)
    results = list(discover([Path(".")]))
    assert results == [
        Path("a/x.py"),
        DiscoveryError(Path("b/locked"), "cannot read directory: permission denied"),
        Path("c/z.py"),
    ]


def test_unreadable_gitignore_is_an_error_and_the_rest_is_walked():
    Path(".gitignore").mkdir()  # cannot be read as a file
    touch("a.py")
    assert list(discover([Path(".")])) == [
        DiscoveryError(Path(".gitignore"), "cannot read ignore file: is a directory"),
        Path("a.py"),
    ]


# --- --exclude -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "glob, expected",
    [
        ("tests", ["src/app.py", "src/gen/api_pb2.py", "src/gen/models.py"]),  # a directory by name
        ("*_pb2.py", ["src/app.py", "src/gen/models.py", "tests/test_app.py"]),  # a basename
        ("src/gen/*", ["src/app.py", "tests/test_app.py"]),  # a path relative to the cwd
        ("src/gen/", ["src/app.py", "tests/test_app.py"]),  # a trailing slash is allowed
        ("./src/gen", ["src/app.py", "tests/test_app.py"]),
        ("gen", ["src/app.py", "tests/test_app.py"]),  # a directory basename at any depth
        ("app.py", ["src/gen/api_pb2.py", "src/gen/models.py", "tests/test_app.py"]),  # not test_app.py
    ],
)
def test_exclude_globs(glob, expected):
    touch("src/app.py", "src/gen/api_pb2.py", "src/gen/models.py", "tests/test_app.py")
    assert files(".", exclude=[glob]) == expected


def test_exclude_glob_is_relative_to_the_cwd_not_the_argument(monkeypatch):
    touch("proj/src/gen/a.py", "proj/src/b.py")
    assert files("proj", exclude=["proj/src/gen"]) == ["proj/src/b.py"]
    monkeypatch.chdir("proj")
    assert files("src", exclude=["src/gen"]) == ["src/b.py"]


# --- gitignore -------------------------------------------------------------------------


PATTERN_CASES = [
    ("*.py", "a.py", False, True),
    ("*.py", "deep/dir/a.py", False, True),  # no slash: a name at any depth
    ("*.py", "a.pyc", False, False),
    ("a.py", "sub/a.py", False, True),
    ("/a.py", "a.py", False, True),  # leading slash anchors
    ("/a.py", "sub/a.py", False, False),
    ("sub/a.py", "sub/a.py", False, True),  # a middle slash anchors too
    ("sub/a.py", "x/sub/a.py", False, False),
    ("gen/", "gen", True, True),  # trailing slash: directories only
    ("gen/", "gen", False, False),
    ("gen", "gen", False, True),
    ("sub/*.py", "sub/a.py", False, True),
    ("sub/*.py", "sub/deeper/a.py", False, False),  # `*` stops at `/`
    ("a?.py", "ab.py", False, True),
    ("a?.py", "a.py", False, False),
    ("x/a?b.py", "x/a/b.py", False, False),  # `?` does not match `/`
    ("a[0-9].py", "a5.py", False, True),
    ("a[0-9].py", "ax.py", False, False),
    ("a[!0-9].py", "ax.py", False, True),
    ("a[!0-9].py", "a5.py", False, False),
    ("a[^0-9].py", "a5.py", False, False),
    ("a[]].py", "a].py", False, True),  # `]` first in a bracket is literal
    ("a[-x].py", "a-.py", False, True),
    ("a[.py", "a[.py", False, True),  # an unclosed `[` is literal
    ("**/gen", "gen", True, True),  # leading `**/`: in all directories
    ("**/gen", "a/b/gen", True, True),
    ("**/gen/a.py", "x/gen/a.py", False, True),
    ("logs/**", "logs/a/b.py", False, True),  # trailing `/**`: everything inside
    ("logs/**", "logs", True, False),
    ("a/**/b.py", "a/b.py", False, True),  # `/**/`: zero or more directories
    ("a/**/b.py", "a/x/y/b.py", False, True),
    ("a/**/b.py", "ab.py", False, False),
    ("a**b.py", "axyb.py", False, True),  # other `**` is a plain `*`
    ("a**b.py", "ax/yb.py", False, False),
    ("*", ".hidden.py", False, True),  # `*` matches a leading dot in gitignore
    ("\\#a.py", "#a.py", False, True),  # escaped comment character
    ("\\!a.py", "!a.py", False, True),  # escaped negation character
    ("a\\*.py", "a*.py", False, True),
    ("a\\*.py", "ab.py", False, False),
    ("a.py   ", "a.py", False, True),  # trailing spaces are dropped
    ("a.py\\ ", "a.py ", False, True),  # unless escaped
    ("a.py\\ ", "a.py", False, False),
    ("a.py\r", "a.py", False, True),  # a CRLF file
    ("a+(b).py", "a+(b).py", False, True),  # regex characters are literal
]


@pytest.mark.parametrize("pattern, path, is_dir, ignored", PATTERN_CASES)
def test_gitignore_pattern(pattern, path, is_dir, ignored):
    patterns = parse_gitignore(pattern)
    assert len(patterns) == 1
    assert patterns[0].matches(path, is_dir) is ignored


@pytest.mark.parametrize("pattern, path, is_dir, ignored", PATTERN_CASES)
def test_an_ignore_file_screens_in_every_entry_its_patterns_match(pattern, path, is_dir, ignored):
    """The walk matches an entry against an ignore file's patterns only if its screens let it through."""
    write("ignore", f"*.log\n{pattern}\nunrelated/\n")
    ignore_file = discovery._read_ignore_file("ignore", os.getcwd())
    prefix, _, name = path.rpartition("/")
    screen = ignore_file.directories if is_dir else ignore_file.files
    assert screen.may_match(name, prefix + "/" if prefix else "") or not ignored


def test_a_file_is_matched_only_against_patterns_for_files():
    write("ignore", "build/\n__pycache__/\n")
    assert discovery._read_ignore_file("ignore", os.getcwd()).files.is_empty


@pytest.mark.parametrize("line", ["", "   ", "# comment", "#a.py", "/", "[z-a]"])
def test_gitignore_lines_that_are_not_patterns(line):
    assert parse_gitignore(line) == []


def test_gitignore_negation_reincludes_and_the_last_match_wins():
    write(".gitignore", "*.py\n!keep*.py\nkeep_not.py\n")
    touch("a.py", "keep.py", "keep_not.py", "sub/keep2.py", "sub/b.py")
    assert files(".") == ["keep.py", "sub/keep2.py"]


def test_gitignore_cannot_reinclude_a_file_in_an_ignored_directory():
    write(".gitignore", "data/\n!data/keep.py\n")
    touch("data/keep.py", "a.py")
    assert files(".") == ["a.py"]


def test_gitignore_anchoring():
    write(".gitignore", "/top.py\nsub/mid.py\n")
    touch("top.py", "sub/top.py", "sub/mid.py", "other/sub/mid.py")
    assert files(".") == ["other/sub/mid.py", "sub/top.py"]


def test_gitignore_directory_only_pattern():
    write(".gitignore", "gen/\nmodels.py/\n")
    touch("gen/a.py", "pkg/gen/b.py", "models.py", "c.py")
    assert files(".") == ["c.py", "models.py"]


def test_nested_gitignore_is_relative_to_its_directory_and_overrides_its_parents():
    write(".gitignore", "skip_*.py\n")
    write("sub/.gitignore", "/local.py\n!skip_me.py\n")
    touch("local.py", "skip_me.py", "sub/local.py", "sub/skip_me.py", "sub/skip_other.py", "sub/deeper/local.py")
    assert files(".") == ["local.py", "sub/deeper/local.py", "sub/skip_me.py"]


def test_nested_gitignore_does_not_leak_into_sibling_directories():
    write("a/.gitignore", "*.py\n")
    touch("a/x.py", "b/x.py")
    assert files(".") == ["b/x.py"]


def test_git_info_exclude_and_parent_gitignores_apply_when_walking_a_subdirectory():
    write(".git/info/exclude", "*_local.py\n")
    write(".gitignore", "*_gen.py\n")
    write("pkg/.gitignore", "/sub/skip.py\n!keep_gen.py\n")  # overrides the root's
    touch("pkg/sub/a_gen.py", "pkg/sub/b_local.py", "pkg/sub/skip.py", "pkg/sub/c.py", "pkg/sub/keep_gen.py")
    assert files("pkg/sub") == ["pkg/sub/c.py", "pkg/sub/keep_gen.py"]


def test_a_gitignore_that_is_a_broken_symlink_is_no_error():
    touch("a.py")
    os.symlink("missing", ".gitignore")
    assert list(discover([Path(".")])) == [Path("a.py")]


def test_gitignore_overrides_git_info_exclude():
    write(".git/info/exclude", "*.py\n")
    write(".gitignore", "!keep.py\n")
    touch("keep.py", "other.py")
    assert files(".") == ["keep.py"]


def test_gitignore_above_the_walked_directory_outside_a_repository_does_not_apply():
    write(".gitignore", "*.py\n")
    touch("proj/a.py")
    assert files("proj") == ["proj/a.py"]


GITIGNORE_SAMPLE = "\n".join(
    [
        "# generated code",
        "*_pb2.py",
        "/scripts/*.py",
        "!/scripts/keep.py",
        "docs/",
        "**/fixtures/**",
        "tmp?.py   ",  # trailing spaces are not part of the pattern
        "build[0-9]/",
        "nested/**/deep.py",
        "\\#literal.py",
        "\\!bang.py",
    ]
)

TREE_SAMPLE = [
    "app.py",
    "api_pb2.py",
    "pkg/api_pb2.py",
    "scripts/run.py",
    "scripts/keep.py",
    "scripts/sub/run.py",
    "docs/conf.py",
    "pkg/docs/conf.py",
    "tests/fixtures/data.py",
    "tests/fixtures/more/data.py",
    "tests/fixture/data.py",
    "tmp1.py",
    "tmp12.py",
    "build3/a.py",
    "buildx/a.py",
    "nested/deep.py",
    "nested/a/b/deep.py",
    "other/nested/deep.py",
    "#literal.py",
    "!bang.py",
    "sub/ignore_here.py",
    "sub/keep_here.py",
]


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_gitignore_matches_what_git_ignores():
    """Git itself is the oracle: its untracked, non-ignored files are what must be yielded."""
    subprocess.run(["git", "init", "-q", "."], check=True)
    write(".gitignore", GITIGNORE_SAMPLE)
    write("sub/.gitignore", "ignore_here.py\n")
    touch(*TREE_SAMPLE)
    listed = subprocess.run(
        ["git", "-c", "core.quotepath=off", "ls-files", "-z", "--others", "--exclude-standard"],
        check=True,
        capture_output=True,
        env={**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull},
    ).stdout.decode()
    expected = sorted(name for name in listed.split("\0") if name.endswith(".py"))
    assert len(expected) < len(TREE_SAMPLE) - 10  # the sample really exercises the patterns
    assert sorted(files(".")) == expected


# --- symlinks --------------------------------------------------------------------------


def test_symlinked_file_outside_the_tree_is_an_error(tmp_path):
    touch("outside/secret.py", "proj/a.py")
    os.symlink(tmp_path / "outside/secret.py", "proj/link.py")
    results = list(discover([Path("proj")]))
    assert results == [
        Path("proj/a.py"),
        DiscoveryError(Path("proj/link.py"), f"symlink points outside the tree: {tmp_path / 'outside/secret.py'}"),
    ]


def test_symlinked_directory_outside_the_tree_is_an_error_and_not_followed(tmp_path):
    touch("outside/secret.py", "proj/a.py")
    os.symlink(tmp_path / "outside", "proj/linked")
    assert errors("proj") == [("proj/linked", f"symlink points outside the tree: {tmp_path / 'outside'}")]


def test_symlinks_inside_the_tree_are_followed_and_each_file_comes_once_under_its_first_path():
    touch("proj/real/a.py", "proj/b.py")
    os.symlink("b.py", "proj/alias.py")
    os.symlink("real", "proj/z_linkdir")
    assert files("proj") == ["proj/alias.py", "proj/real/a.py"]


def test_symlink_to_a_directory_walked_later_is_followed_once():
    touch("proj/z_real/a.py")
    os.symlink("z_real", "proj/a_link")
    assert files("proj") == ["proj/a_link/a.py"]


def test_directory_symlink_loop_is_an_error_and_does_not_hang():
    touch("proj/sub/a.py")
    os.symlink("..", "proj/sub/up")
    os.symlink(".", "proj/sub/here")
    results = list(discover([Path("proj")]))
    assert results == [
        Path("proj/sub/a.py"),
        DiscoveryError(Path("proj/sub/here"), "symlink loop: points to a directory that contains it"),
        DiscoveryError(Path("proj/sub/up"), "symlink loop: points to a directory that contains it"),
    ]


def test_mutual_directory_symlinks_are_walked_once_with_one_loop_error():
    touch("proj/a/x.py", "proj/b/y.py")
    os.symlink("../b", "proj/a/to_b")
    os.symlink("../a", "proj/b/to_a")
    assert list(discover([Path("proj")])) == [
        DiscoveryError(Path("proj/a/to_b/to_a"), "symlink loop: points to a directory that contains it"),
        Path("proj/a/to_b/y.py"),
        Path("proj/a/x.py"),
    ]


def test_a_loop_is_found_through_a_plain_directory_below_a_symlink():
    """The real path of a directory reached without a symlink is derived, and still checked for loops."""
    touch("proj/p/q/a.py", "proj/p/b.py")
    os.symlink("p/q", "proj/l")  # walked first: proj/l is proj/p/q
    os.symlink("..", "proj/p/q/s")  # so proj/l/s is proj/p, whose plain subdirectory q is being walked
    assert list(discover([Path("proj")])) == [
        Path("proj/l/a.py"),
        Path("proj/l/s/b.py"),
        DiscoveryError(Path("proj/l/s/q"), "symlink loop: points to a directory that contains it"),
    ]


def test_broken_symlinks_to_sources_are_errors_and_others_are_ignored():
    touch("proj/a.py")
    os.symlink("missing.py", "proj/broken.py")
    os.symlink("missing.txt", "proj/broken.txt")
    os.symlink("missing.py", "explicit.py")
    assert errors("proj", "explicit.py") == [("proj/broken.py", "broken symlink"), ("explicit.py", "broken symlink")]


def test_an_explicit_symlink_argument_is_processed_wherever_it_points(tmp_path):
    touch("outside/a.py")
    os.symlink(tmp_path / "outside/a.py", "link.py")
    assert files("link.py") == ["link.py"]


def test_excluded_symlinks_are_not_reported():
    touch("proj/a.py")
    os.symlink("/", "proj/.venv")
    os.symlink("/etc", "proj/gen")
    assert files("proj", exclude=["gen"]) == ["proj/a.py"]
