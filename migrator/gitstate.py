"""Which files have uncommitted changes, so `apply` can refuse to overwrite them.

Like `cargo fix`, `apply` only rewrites files whose current content git could
give back: a file with uncommitted changes (modified, staged or untracked) is
"dirty". Files outside any git working tree, ignored files, and everything when
git is not installed are not dirty: there is nothing to protect them with.
"""

from __future__ import annotations

import os
import subprocess
from collections import defaultdict
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Set, Tuple

# Git finds each file's repository from the directory it runs in; these would
# point every run at one repository instead (they are set inside git hooks).
_REPOSITORY_OVERRIDES = ("GIT_DIR", "GIT_WORK_TREE")
# Only look: `git status` would otherwise refresh the index, taking its lock and
# possibly failing a git command the user runs at the same time.
_READ_ONLY = {"GIT_OPTIONAL_LOCKS": "0"}


def dirty_files(paths: Sequence[Path]) -> Set[Path]:
    """Those of `paths` that are in a git working tree and have uncommitted changes.

    Paths are compared by real path (a symlink stands for the file it points to)
    and returned as given. If `git status` fails in a repository, that
    repository's files are all reported dirty, to err on the side of not
    overwriting.
    """
    dirty: Set[Path] = set()
    for toplevel, files in _group_by_repository(paths).items():
        changed = _changed_paths(toplevel)
        for path, real in files:
            if changed is None or _is_changed(real, changed):
                dirty.add(path)
    return dirty


def _group_by_repository(paths: Sequence[Path]) -> Dict[Path, List[Tuple[Path, Path]]]:
    """(path, real path) pairs by the toplevel of their working tree; paths in none are left out."""
    groups: Dict[Path, List[Tuple[Path, Path]]] = defaultdict(list)
    toplevels: Dict[Path, Optional[Path]] = {}  # one `git rev-parse` per directory
    for path in paths:
        real = Path(os.path.realpath(path))
        if real.parent not in toplevels:
            toplevels[real.parent] = _toplevel(real.parent)
        toplevel = toplevels[real.parent]
        if toplevel is not None:
            groups[toplevel].append((path, real))
    return groups


def _git(args: Sequence[str], cwd: Path) -> Optional[bytes]:
    """The stdout of `git <args>` run in `cwd`, or None if git is missing or fails."""
    env = {name: value for name, value in os.environ.items() if name not in _REPOSITORY_OVERRIDES}
    env.update(_READ_ONLY)
    try:
        completed = subprocess.run(
            ["git", *args], cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, check=False
        )
    except OSError:  # git is not installed, or `cwd` vanished
        return None
    return completed.stdout if completed.returncode == 0 else None


def _toplevel(directory: Path) -> Optional[Path]:
    """The root of the git working tree containing `directory`, or None."""
    output = _git(["rev-parse", "--show-toplevel"], directory)
    if not output:
        return None
    return Path(os.fsdecode(output.rstrip(b"\n")))  # git gives it with symlinks resolved


def _changed_paths(toplevel: Path) -> Optional[Set[Path]]:
    """Real paths that `git status` lists in the working tree at `toplevel`; None if it fails.

    An untracked directory is listed once (ending in "/"), standing for all it holds.
    """
    output = _git(["status", "--porcelain", "-z"], toplevel)
    if output is None:
        return None
    names = []
    fields = iter(output.split(b"\0"))
    for field in fields:
        if len(field) > 3:  # "XY name"; the final field is empty
            status, name = field[:2], field[3:]
            names.append(name)
            if b"R" in status or b"C" in status:
                # A rename or copy is followed by its source path, changed as well.
                names.append(next(fields, b""))
    return {toplevel / os.fsdecode(name) for name in names if name}


def _is_changed(real_path: Path, changed: Set[Path]) -> bool:
    return real_path in changed or any(parent in changed for parent in real_path.parents)
