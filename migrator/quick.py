"""The `migrator` command: answers `migrator check FILE.py...` itself when no file can have a finding.

pre-commit runs `migrator check` on the files of every commit, and almost none of them mention
the OpenAI SDK. The full command line costs many times Python's own start-up (typer imports
pydantic and builds a validator per option, rich loads its styles), while deciding that no file
is a candidate costs a read of each. So a `check` given only `.py` files and options that do not
matter when nothing is found (`FLAGS`: the pre-commit hook passes `--no-color`) is tried here first, with nothing but discovery and the prefilter loaded. Anything else (another
command, an option, a notebook, a project that may configure the migrator, a file that is a
candidate or cannot be read) goes to `migrator.cli`, which starts over: what it prints is then
all there is.

What this prints must stay what `migrator.cli` prints for the same run: tests/test_quick.py
compares the two. A new option or configuration that changes `check`'s output for files with
nothing to report must make `quick_check` decline.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Optional, Sequence

# Options of `check` whose effect on a run that finds nothing is known: none, or no summary.
QUIET = ("-q", "--quiet")
FLAGS = ("--no-color", "--no-cache", *QUIET)
CONFIGURATION = re.compile(rb"tool\s*\.\s*migrator")


def main() -> None:
    code = quick_check(sys.argv[1:])
    if code is not None:
        sys.exit(code)
    from migrator.cli import main as full_main

    full_main()


def quick_check(arguments: Sequence[str]) -> Optional[int]:
    """`check`'s exit code, having printed its output, when the run can be decided here; else None."""
    command, *rest = arguments or [""]
    paths = [argument for argument in rest if argument not in FLAGS]
    if command != "check" or not paths or any(path.startswith("-") or not path.endswith(".py") for path in paths):
        return None
    if _may_be_configured(Path(paths[0])):
        return None
    from migrator.discovery import discover
    from migrator.prefilter import is_candidate, needed_texts
    from migrator.source import SourceError, read_source

    needs = needed_texts()
    files = 0
    for item in discover([Path(path) for path in paths]):
        if not isinstance(item, Path):
            return None  # a path that cannot be processed: the full command reports it
        try:
            if is_candidate(read_source(item), needs):
                return None
        except SourceError:
            return None
        files += 1
    if not any(flag in rest for flag in QUIET):
        sys.stderr.write(f"{files} {'file' if files == 1 else 'files'} scanned: no findings.\n")
    return 0


def _may_be_configured(path: Path) -> bool:
    """Could a pyproject.toml where `migrator.config` looks for one hold a `[tool.migrator]` table?

    Broader than the config's own test (any `tool.migrator`, dotted keys too), so that every
    configuration, or broken one (an error), is read by the full command line.
    """
    for folder in path.resolve().parents:
        pyproject = folder / "pyproject.toml"
        try:
            if CONFIGURATION.search(pyproject.read_bytes()):
                return True
        except OSError:
            continue  # none here (or unreadable: the full command line would say so)
    return False
