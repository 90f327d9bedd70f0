"""The `migrator` command: runs a plain `migrator check PATH...` itself, without typer.

pre-commit runs `migrator check` on the files of every commit, and CI on whole trees, most of
whose files are known to the cache. The full command line costs many times what such a run
does (typer imports pydantic and builds a validator per option on every start), so a `check`
given only paths and options whose meaning is plain (`FLAGS`; the pre-commit hook passes
`--no-color`) is run here, in two steps:

1. When every path is a `.py` file and none is a candidate, the answer needs nothing but
   discovery and the prefilter: not even the renderer is loaded.
2. Otherwise the run goes through `migrator.session`, the same functions the full command
   line calls once it has read its options.

Anything else (another command, another option, standard input, a project that may configure
the migrator, a path that cannot be read in step 1) goes to `migrator.cli`, which starts over:
what it prints is then all there is.

What this prints must stay what `migrator.cli` prints for the same run: tests/test_quick.py
compares the two. A new option or configuration that changes what `check` does must make
`plain_check` decline.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

# `typing.TYPE_CHECKING` without importing typing, here and in every module a check without
# candidates loads (discovery, the prefilter, sources, the registry): importing it, and building
# its NamedTuples from their annotations, would be a sixth of such a run.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import List, Optional, Sequence, Tuple

QUIET = ("-q", "--quiet")
VERBOSE = ("-v", "--verbose")
FLAGS = ("--no-color", "--no-cache", *QUIET, *VERBOSE)
CONFIGURATION = re.compile(rb"tool\s*\.\s*migrator")


def main() -> None:
    try:
        code = quick_check(sys.argv[1:])
    except Exception:  # a bug in the migrator: exit 2, as the full command line does
        import traceback

        traceback.print_exc()
        sys.exit(2)
    if code is not None:
        sys.exit(code)
    from migrator.cli import main as full_main

    full_main()


def quick_check(arguments: Sequence[str]) -> Optional[int]:
    """`check`'s exit code, having printed its output, when the run can be made here; else None."""
    plain = plain_check(arguments)
    if plain is None:
        return None
    paths, flags = plain
    quiet, verbose = any(flag in flags for flag in QUIET), any(flag in flags for flag in VERBOSE)
    code = _without_candidates(paths, quiet) if not verbose else None
    return code if code is not None else _run(paths, flags, quiet, verbose)


def plain_check(arguments: Sequence[str]) -> Optional[Tuple[List[Path], List[str]]]:
    """The paths and `FLAGS` of a `check` that only has those, in an unconfigured project; else None."""
    command, *rest = arguments or [""]
    flags = [argument for argument in rest if argument in FLAGS]
    paths = [Path(argument) for argument in rest if argument not in FLAGS] or [Path(".")]
    if command != "check" or any(str(path).startswith("-") for path in paths) or _may_be_configured(paths[0]):
        return None
    return paths, flags


def _without_candidates(paths: Sequence[Path], quiet: bool) -> Optional[int]:
    """Step 1: the exit code when the paths are `.py` files none of which is a candidate."""
    if not all(path.suffix == ".py" for path in paths):
        return None
    from migrator.discovery import discover
    from migrator.prefilter import is_candidate, needed_texts
    from migrator.source import SourceError, read_source

    needs = needed_texts()
    files = 0
    for item in discover(paths):
        if not isinstance(item, Path):
            return None  # a path that cannot be processed: the session reports it
        try:
            if is_candidate(read_source(item), needs):
                return None
        except SourceError:
            return None
        files += 1
    if not quiet:
        sys.stderr.write(f"{files} {'file' if files == 1 else 'files'} scanned: no findings.\n")
    return 0


def _run(paths: List[Path], flags: Sequence[str], quiet: bool, verbose: bool) -> int:
    """Step 2: the run, made and reported as the full command line makes and reports it."""
    from migrator.model import Options
    from migrator.render import Output
    from migrator.session import Run, collect, conclude_check

    output = Output(quiet=quiet, verbose=verbose, no_color="--no-color" in flags)
    run = Run(paths, Options(), exclude=[], jobs=None, output=output, use_cache="--no-cache" not in flags)
    results = collect(run)
    output.findings(results, output.stdout)
    return conclude_check(run, results)


def _may_be_configured(path: Path) -> bool:
    """Could a pyproject.toml where `migrator.config` looks for one hold a `[tool.migrator]` table?

    Broader than the config's own test (any `tool.migrator`, dotted keys too), so that every
    configuration, or broken one (an error), is read by the full command line.
    """
    start = path.resolve()
    for folder in (start, *start.parents) if start.is_dir() else start.parents:
        pyproject = folder / "pyproject.toml"
        try:
            if CONFIGURATION.search(pyproject.read_bytes()):
                return True
        except OSError:
            continue  # none here (or unreadable: the full command line would say so)
    return False
