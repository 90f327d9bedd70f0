"""Which files a run processes.

`discover` turns the command-line paths into the files to migrate:

* An explicit file argument is always processed, whatever its name, wherever it
  points if it is a symlink, and even if `.gitignore` or `--exclude` would have
  skipped it while walking: naming a file is the strongest way to ask for it
  (ruff does the same unless --force-exclude).
  The same holds for an explicit directory argument itself; the filters apply to
  what is found inside it.
* Directories are walked in sorted order, yielding `*.py` and `*.ipynb` files and
  skipping version-control and tool directories, virtualenvs, `--exclude` globs
  and whatever gitignore files ignore, with git's syntax and precedence: the
  walked directories' own `.gitignore` files and, inside a repository, those of
  the directories from the repository root down to the argument and
  `.git/info/exclude`.
* A symlink found while walking is followed only if its target is inside the
  argument's tree; otherwise it is reported. A directory symlink to a directory
  that contains it is reported as a loop.
* Problems with one path are yielded as `DiscoveryError`s; the generator never
  raises for a bad path, so one broken symlink does not stop a run.
* Each file is yielded at most once (by real path), under the first path that
  reaches it, in a stable order: arguments in order, each walked sorted.
"""

from __future__ import annotations

import fnmatch
import os
import posixpath
import re
from collections import namedtuple
from operator import attrgetter
from pathlib import Path

from migrator.source import describe_os_error

SOURCE_SUFFIXES = (".py", ".ipynb")

# Directories never worth walking: version control, virtualenvs, caches, build output.
SKIPPED_DIR_NAMES = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        "node_modules",
        "__pycache__",
        "build",
        "dist",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".migrator_cache",
        ".ipynb_checkpoints",  # Jupyter's backup copies of the notebooks next to it
    }
)
SKIPPED_DIR_SUFFIXES = (".egg-info",)
VENV_MARKER = "pyvenv.cfg"  # every virtualenv has one, whatever it is called


TYPE_CHECKING = False  # see migrator/quick.py: a check without candidates does not import typing
if TYPE_CHECKING:
    from typing import Generator, Iterator, List, Optional, Sequence, Set, Tuple, Union


# Records are named tuples, neither dataclasses nor typing's NamedTuple: `migrator check` on a
# few files loads this module, and the dataclasses module (with inspect) would add half of
# Python's own start-up to it; typing's, a sixth.
class DiscoveryError(namedtuple("DiscoveryError", ["path", "reason"])):
    """A path (a `Path`) that could not be walked or processed, and why (a `str`)."""

    __slots__ = ()

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


def discover(
    paths: Sequence[Path], exclude: Sequence[str] = (), inputs: Optional[Inputs] = None
) -> Iterator[Union[Path, DiscoveryError]]:
    """Yield the files to process under `paths`, and a `DiscoveryError` for each bad path.

    `exclude` holds fnmatch-style globs matched against a walked path relative to
    the current directory and against its basename (like ruff's `--exclude`).
    Yielded paths are spelled from their argument (`src` gives `src/pkg/a.py`).
    `inputs`, when given, collects what the answer depends on.
    """
    walker = _Walker(exclude, inputs)
    for path in paths:
        yield from walker.argument(Path(path))


class Inputs:
    """What a discovery's answer depends on, for a cache to tell whether it still holds: the
    paths whose status decides it (a folder's changes when an entry is added, removed or
    renamed; a gitignore file's, when it is written; a missing one's, when it is made) and the
    paths whose existence does (`.git`, found by name: its status changes with every git
    command). `known` is false when a status cannot tell: a symlink was followed, and what it
    points to can change while nothing the walk saw does."""

    __slots__ = ("statuses", "existences", "known")

    def __init__(self) -> None:
        self.statuses: Set[str] = set()
        self.existences: Set[str] = set()
        self.known = True


# --- gitignore ---------------------------------------------------------------


class IgnorePattern(
    namedtuple(
        "IgnorePattern",
        [
            "regex",  # the pattern, compiled
            "negated",  # `!pattern`: re-include what an earlier pattern ignored
            "dir_only",  # `pattern/`: matches directories only
            "anchored",  # contains a `/`: matched against the path from the gitignore's directory
        ],
    )
):
    """One line of a gitignore file."""

    __slots__ = ()

    def matches(self, relpath: str, is_dir: bool) -> bool:
        """Whether the pattern matches `relpath` (relative to its gitignore's directory, `/`-separated)."""
        if self.dir_only and not is_dir:
            return False
        subject = relpath if self.anchored else relpath.rsplit("/", 1)[-1]
        return self.regex.fullmatch(subject) is not None


def parse_gitignore(text: str) -> List[IgnorePattern]:
    """The patterns of a gitignore file, in order (later ones take precedence)."""
    patterns = []
    for line in text.split("\n"):
        pattern = _parse_gitignore_line(line)
        if pattern is not None:
            patterns.append(pattern)
    return patterns


def _parse_gitignore_line(line: str) -> Optional[IgnorePattern]:
    line = _strip_trailing_spaces(line.rstrip("\r"))
    if not line or line.startswith("#"):
        return None
    negated = line.startswith("!")
    if negated:
        line = line[1:]
    dir_only = line.endswith("/")
    line = line.rstrip("/")
    # A slash at the start or in the middle anchors the pattern to its gitignore's
    # directory; otherwise it matches a name at any depth.
    anchored = "/" in line
    line = line.lstrip("/")
    if not line:
        return None
    try:
        regex = re.compile(_glob_to_regex(line), re.DOTALL)
    except re.error:  # e.g. a reversed range `[z-a]`: git never matches it either
        return None
    return IgnorePattern(regex=regex, negated=negated, dir_only=dir_only, anchored=anchored)


def _strip_trailing_spaces(line: str) -> str:
    """Drop trailing spaces, except one escaped with a backslash (`foo\\ `)."""
    stripped = line.rstrip(" ")
    backslashes = len(stripped) - len(stripped.rstrip("\\"))
    if stripped != line and backslashes % 2 == 1:
        return stripped + " "
    return stripped


def _glob_to_regex(glob: str) -> str:
    """Translate gitignore glob syntax (`*`, `?`, `[...]`, `**`, `\\x`) to a regex."""
    out = []
    i = 0
    while i < len(glob):
        char = glob[i]
        if char == "*":
            end = i
            while end < len(glob) and glob[end] == "*":
                end += 1
            whole_component = (i == 0 or glob[i - 1] == "/") and (end == len(glob) or glob[end] == "/")
            if end - i >= 2 and whole_component:
                if end == len(glob):
                    out.append(".*")  # trailing `/**`: everything inside
                else:
                    out.append("(?:.*/)?")  # `**/`: zero or more directories
                    end += 1
            else:
                out.append("[^/]*")  # other runs of stars are a plain `*`
            i = end
        elif char == "?":
            out.append("[^/]")
            i += 1
        elif char == "[":
            translated, i = _bracket_to_regex(glob, i)
            out.append(translated)
        elif char == "\\" and i + 1 < len(glob):
            out.append(re.escape(glob[i + 1]))
            i += 2
        else:
            out.append(re.escape(char))
            i += 1
    return "".join(out)


def _bracket_to_regex(glob: str, start: int) -> Tuple[str, int]:
    """Translate the `[...]` at `glob[start]`; return the regex and the index after it.

    An unclosed `[` is a literal character.
    """
    i = start + 1
    negated = i < len(glob) and glob[i] in "!^"
    if negated:
        i += 1
    members = []
    first = True
    while i < len(glob) and (glob[i] != "]" or first):  # a `]` right after `[` is a member
        first = False
        if glob[i] == "\\" and i + 1 < len(glob):
            i += 1
        member = re.escape(glob[i])
        if i + 2 < len(glob) and glob[i + 1] == "-" and glob[i + 2] != "]":
            member += "-" + re.escape(glob[i + 2])
            i += 2
        members.append(member)
        i += 1
    if i >= len(glob):
        return re.escape("["), start + 1
    # A bracket never matches the path separator.
    prefix = "[^/" if negated else "(?!/)["
    return prefix + "".join(members) + "]", i + 1


class _Screen(
    namedtuple(
        "_Screen",
        [
            "names",  # the patterns without a slash, matched against an entry's name (or None)
            "paths",  # the others, against its path from the gitignore's directory (or None)
        ],
    )
):
    """Tells at least every entry of one kind (files, or directories) that one of a gitignore's
    patterns matches: most entries match none, which two regular expressions tell faster than
    each pattern in turn."""

    __slots__ = ()

    @classmethod
    def of(cls, patterns: Sequence[IgnorePattern]) -> "_Screen":
        def alternatives(anchored: bool) -> Optional[re.Pattern[str]]:
            chosen = [f"(?:{p.regex.pattern})" for p in patterns if p.anchored is anchored]
            return re.compile("|".join(chosen), re.DOTALL) if chosen else None

        return cls(names=alternatives(anchored=False), paths=alternatives(anchored=True))

    def may_match(self, name: str, prefix: str) -> bool:
        """Whether a pattern may match the entry `name` of the directory at `prefix` (its path
        from the gitignore's directory, with a trailing `/`, or empty)."""
        return (self.names is not None and self.names.fullmatch(name) is not None) or (
            self.paths is not None and self.paths.fullmatch(prefix + name) is not None
        )

    @property
    def is_empty(self) -> bool:
        return self.names is None and self.paths is None


class _IgnoreFile(
    namedtuple(
        "_IgnoreFile",
        [
            "base",  # absolute directory, without a trailing separator
            "patterns",  # the `IgnorePattern`s, in order
            # The `_Screen`s of each kind of entry. Most gitignore lines name directories
            # (`build/`): a file is screened by the others only.
            "files",
            "directories",
        ],
    )
):
    """The patterns of one gitignore file and the directory they are relative to."""

    __slots__ = ()

    def relative(self, abs_path: str) -> str:
        """`abs_path` (a descendant of `base`) relative to `base`, `/`-separated."""
        prefix = self.base if self.base.endswith(os.sep) else self.base + os.sep
        if abs_path.startswith(prefix):  # always, when walking: a slice costs far less than relpath
            relpath = abs_path[len(prefix) :]
        else:
            relpath = os.path.relpath(abs_path, self.base)
        return relpath.replace(os.sep, "/")


class _Applying(
    namedtuple(
        "_Applying",
        [
            "screen",  # the ignore file's `_Screen` for that kind
            "patterns",  # its `IgnorePattern`s
            # The directory relative to the ignore file's, `/`-separated, with a trailing `/`
            # (empty for that directory itself): an entry's path for the patterns is this and its name.
            "prefix",
        ],
    )
):
    """An ignore file as it applies to the entries of one kind in one directory."""

    __slots__ = ()


def _applying(ignore_files: Sequence[_IgnoreFile], abs_path: str, to_directories: bool) -> Tuple[_Applying, ...]:
    """How `ignore_files` apply to the entries of one kind in the directory `abs_path`: those
    with a pattern for that kind, in order."""
    applying = []
    for ignore_file in ignore_files:
        screen = ignore_file.directories if to_directories else ignore_file.files
        if not screen.is_empty:
            prefix = "" if abs_path == ignore_file.base else ignore_file.relative(abs_path) + "/"
            applying.append(_Applying(screen, ignore_file.patterns, prefix))
    return tuple(applying)


def _is_ignored(applying: Sequence[_Applying], name: str, is_dir: bool) -> bool:
    """Whether the last pattern matching the entry `name` ignores it.

    `applying` is ordered from lowest to highest precedence: `.git/info/exclude`, then
    `.gitignore` files from the repository root down to the entry's directory.
    """
    ignored = False
    for screen, patterns, prefix in applying:
        if not screen.may_match(name, prefix):
            continue
        relpath = prefix + name
        for pattern in patterns:
            if pattern.matches(relpath, is_dir):
                ignored = not pattern.negated
    return ignored


def _read_ignore_file(file: str, base: str) -> Optional[_IgnoreFile]:
    """The patterns of `file`, or None if it does not exist. Raises OSError if unreadable."""
    try:
        with open(file, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        return None
    # Git treats patterns as bytes; surrogateescape keeps them comparable with
    # the str file names os.scandir gives for undecodable bytes.
    patterns = tuple(parse_gitignore(data.decode("utf-8", "surrogateescape")))
    if not patterns:
        return None
    return _IgnoreFile(
        base=base,
        patterns=patterns,
        files=_Screen.of([pattern for pattern in patterns if not pattern.dir_only]),
        directories=_Screen.of(patterns),
    )


def _repository_root(directory: str, looked_for: Set[str]) -> Optional[str]:
    """The nearest ancestor of `directory` (inclusive) holding a `.git`, if any; `looked_for`
    collects the paths looked for."""
    current = directory
    while True:
        marker = os.path.join(current, ".git")
        looked_for.add(marker)
        if os.path.lexists(marker):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def _inherited_ignore_files(root: str, looked_for: Set[str]) -> List[Tuple[str, str]]:
    """(file, base) of the ignore files that apply to `root` from above it, lowest precedence first.

    That is `.git/info/exclude` and the `.gitignore` files of the repository root
    down to `root`'s parent; `root`'s own `.gitignore` is read when it is walked.
    Outside a repository nothing above `root` applies. `looked_for` collects the paths whose
    existence decides where the repository starts.
    """
    repo = _repository_root(root, looked_for)
    if repo is None:
        return []
    files = []
    git_dir = os.path.join(repo, ".git")
    if os.path.isdir(git_dir):  # a worktree or submodule has a `.git` file instead
        files.append((os.path.join(git_dir, "info", "exclude"), repo))
    directories = []
    directory = root
    while directory != repo:
        directory = os.path.dirname(directory)
        directories.append(directory)
    files.extend((os.path.join(directory, ".gitignore"), directory) for directory in reversed(directories))
    return files


# --- walking -----------------------------------------------------------------


class _Directory(
    namedtuple(
        "_Directory",
        [
            "path",  # spelled from the argument
            "abs_prefix",  # its absolute path with a trailing separator, to append entry names to
            "real",  # its real path
            "real_prefix",  # the same with a trailing separator
            "ignore_files",  # the `_IgnoreFile`s that apply to its entries
            # Those of them with patterns for files, and for directories, as they apply here
            # (`_Applying`s): most directories have no ignore file applying to their files.
            "file_ignores",
            "directory_ignores",
            "entries",  # an iterator of its `os.DirEntry`s, sorted by name
        ],
    )
):
    """A directory being walked, with its entries still to visit."""

    __slots__ = ()


class _Walker:
    """The state of one `discover` run: what was seen, and the --exclude globs."""

    def __init__(self, exclude: Sequence[str], inputs: Optional[Inputs] = None) -> None:
        self.exclude = tuple(posixpath.normpath(glob) for glob in exclude)
        self.inputs = inputs
        self.cwd_prefix = os.path.join(os.getcwd(), "")
        self.seen_files: Set[str] = set()  # real paths already yielded
        self.walked_dirs: Set[str] = set()  # real paths of directories already walked

    def argument(self, path: Path) -> Iterator[Union[Path, DiscoveryError]]:
        """Everything one command-line path stands for."""
        if self.inputs is not None:
            self.inputs.statuses.add(os.path.abspath(path))
            self.inputs.known = self.inputs.known and not os.path.islink(path)
        if path.is_dir():
            yield from self._walk_root(path)
        elif path.is_file():
            if self._is_new_file(os.path.realpath(path)):
                yield path
        elif path.is_symlink():
            yield DiscoveryError(path, "broken symlink")
        elif os.path.lexists(path):
            yield DiscoveryError(path, "not a regular file or directory")
        else:
            yield DiscoveryError(path, "no such file or directory")

    def _is_new_file(self, real: str) -> bool:
        """Whether no file with the real path `real` was yielded before; records it as yielded."""
        if real in self.seen_files:
            return False
        self.seen_files.add(real)
        return True

    def _walk_root(self, path: Path) -> Iterator[Union[Path, DiscoveryError]]:
        """Walk the directory argument `path` depth first, each directory in sorted order.

        The directories being walked are kept on an explicit stack rather than in recursive
        generators, so that each file is yielded once instead of once per ancestor.
        """
        abs_root = os.path.abspath(path)
        looked_for = self.inputs.existences if self.inputs is not None else set()
        ignore_files = yield from self._with_ignore_files((), _inherited_ignore_files(abs_root, looked_for))
        tree = os.path.realpath(path)
        ancestors: Set[str] = set()  # real paths of the directories on the stack
        root = yield from self._enter(path, abs_root, tree, ignore_files, ancestors)
        stack = [] if root is None else [root]
        while stack:
            directory = stack[-1]
            for entry in directory.entries:
                name = entry.name
                try:
                    is_dir = entry.is_dir()  # follows symlinks
                except OSError:  # cannot be told: treated as not a directory
                    is_dir = False
                abs_path = directory.abs_prefix + name
                if is_dir:
                    if self._is_skipped_dir(entry, abs_path):
                        continue
                elif not name.endswith(SOURCE_SUFFIXES):
                    continue
                # Most runs have no --exclude, and most files no ignore pattern for files: no matching then.
                ignores = directory.directory_ignores if is_dir else directory.file_ignores
                if (self.exclude or ignores) and (self._is_excluded(abs_path) or _is_ignored(ignores, name, is_dir)):
                    continue
                if entry.is_symlink():
                    if self.inputs is not None:
                        self.inputs.known = False
                    real = os.path.realpath(entry.path)
                    problem = _symlink_problem(entry.path, real, tree)
                    if problem is not None:
                        yield DiscoveryError(directory.path / name, problem)
                        continue
                else:
                    # The real path of an entry that is not a symlink is its directory's plus its name.
                    real = directory.real_prefix + name
                if is_dir:
                    child = yield from self._enter(
                        directory.path / name, abs_path, real, directory.ignore_files, ancestors
                    )
                    if child is not None:
                        stack.append(child)
                        break  # walk the child now; this directory's entries resume after it
                elif entry.is_file() and self._is_new_file(real):
                    yield directory.path / name
            else:  # all its entries visited
                stack.pop()
                ancestors.remove(directory.real)

    def _enter(
        self,
        path: Path,
        abs_path: str,
        real: str,
        ignore_files: Tuple[_IgnoreFile, ...],
        ancestors: Set[str],
    ) -> Generator[DiscoveryError, None, Optional[_Directory]]:
        """Start walking the directory `path`: list its entries and read its `.gitignore`.

        `ignore_files` are those that apply to `path` from above it, and `ancestors` the real
        paths of the directories being walked above it; `path` joins them if it is walked.
        Yields the problems found; returns (as the generator's value) the directory to walk,
        or None if it is not walked.
        """
        if real in ancestors:
            yield DiscoveryError(path, "symlink loop: points to a directory that contains it")
            return None
        if real in self.walked_dirs:  # reached again through a symlink, or a repeated argument
            return None
        self.walked_dirs.add(real)
        try:
            with os.scandir(path) as scan:
                entries = sorted(scan, key=attrgetter("name"))
        except OSError as exc:
            yield DiscoveryError(path, f"cannot read directory: {describe_os_error(exc)}")
            return None
        # Only try to open a `.gitignore` that is listed: most directories have none.
        if any(entry.name == ".gitignore" for entry in entries):
            own_ignore = [(str(path / ".gitignore"), abs_path)]
            ignore_files = yield from self._with_ignore_files(ignore_files, own_ignore)
        ancestors.add(real)
        return _Directory(
            path=path,
            abs_prefix=os.path.join(abs_path, ""),
            real=real,
            real_prefix=os.path.join(real, ""),
            ignore_files=ignore_files,
            file_ignores=_applying(ignore_files, abs_path, to_directories=False),
            directory_ignores=_applying(ignore_files, abs_path, to_directories=True),
            entries=iter(entries),
        )

    def _is_skipped_dir(self, entry: os.DirEntry[str], abs_path: str) -> bool:
        """Whether a directory is never walked: tool directories and virtualenvs."""
        name = entry.name
        if name in SKIPPED_DIR_NAMES or name.endswith(SKIPPED_DIR_SUFFIXES):
            return True
        if self.inputs is not None:
            # Its entries decide what it yields when it is walked, and its marker whether it is.
            self.inputs.statuses.add(abs_path)
        return os.path.isfile(os.path.join(entry.path, VENV_MARKER))

    def _is_excluded(self, abs_path: str) -> bool:
        """Whether an --exclude glob matches the path (relative to the cwd) or its basename."""
        if not self.exclude:
            return False
        shown = abs_path[len(self.cwd_prefix) :] if abs_path.startswith(self.cwd_prefix) else abs_path
        shown = shown.replace(os.sep, "/")
        name = os.path.basename(abs_path)
        return any(fnmatch.fnmatchcase(shown, glob) or fnmatch.fnmatchcase(name, glob) for glob in self.exclude)

    def _with_ignore_files(
        self, ignore_files: Tuple[_IgnoreFile, ...], candidates: Sequence[Tuple[str, str]]
    ) -> Generator[DiscoveryError, None, Tuple[_IgnoreFile, ...]]:
        """Read the (file, base directory) `candidates`; yield an error for each unreadable one.

        Returns (as the generator's value) `ignore_files` extended with those that exist.
        """
        loaded = list(ignore_files)
        for file, base in candidates:
            if self.inputs is not None:
                self.inputs.statuses.add(os.path.abspath(file))
            try:
                ignore_file = _read_ignore_file(file, base)
            except OSError as exc:
                yield DiscoveryError(Path(file), f"cannot read ignore file: {describe_os_error(exc)}")
                continue
            if ignore_file is not None:
                loaded.append(ignore_file)
        return tuple(loaded)




def _symlink_problem(path: str, target: str, tree: str) -> Optional[str]:
    """Why the symlink `path`, whose real path is `target`, must not be followed; None if it is in `tree`."""
    if not os.path.exists(path):
        return "broken symlink"
    if not _is_within(target, tree):
        return f"symlink points outside the tree: {target}"
    return None


def _is_within(path: str, directory: str) -> bool:
    """Whether the real path `path` is `directory` or below it."""
    try:
        return os.path.commonpath([path, directory]) == directory
    except ValueError:  # on different Windows drives
        return False
