"""A run of `diff`, `apply` or `check` once its options are read: its results, and how it ends.

Nothing here imports typer: `migrator.quick` runs a plain `check` with these same functions
without paying for the full command line (`migrator.cli`), which reads the options and turns
the exit codes returned here into its exit. Exit codes live here and only here (`ExitCode`).
"""

from __future__ import annotations

import dataclasses
import enum
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence

from migrator import render
from migrator.model import FileResult, Options
from migrator.render import STDIN, Output, Tally


class ExitCode(enum.IntEnum):
    CLEAN = 0  # also `probe`'s "safe to migrate"
    FOUND = 1  # `check` found something, or `diff --exit-code` has changes
    ERROR = 2  # a usage error, a file that could not be processed, or a bug; wins over FOUND
    # `probe`'s verdicts other than "safe", one code each so that a script can tell them apart.
    PARTIAL = 3  # the server serves plain Responses requests, but not streams, tools or json_schema
    NO_RESPONSES = 4  # the server answers, but does not serve the Responses API
    UNREACHABLE = 5  # no answer from the server
    UNDECIDED = 6  # answers that do not tell (credentials refused, Chat Completions failing too)


# By `migrator.probe.Verdict`'s values: that module, and the HTTP client it imports, load only for `probe`.
PROBE_EXIT_CODES = {
    "safe": ExitCode.CLEAN,
    "partial": ExitCode.PARTIAL,
    "no-responses": ExitCode.NO_RESPONSES,
    "unreachable": ExitCode.UNREACHABLE,
    "undecided": ExitCode.UNDECIDED,
}


@dataclass(frozen=True)
class Run:
    """What `diff`, `apply` or `check` was asked to do, from the options they share."""

    paths: List[Path]
    options: Options
    exclude: List[str]
    jobs: Optional[int]
    output: Output
    use_cache: bool = True

    @property
    def reads_stdin(self) -> bool:
        return self.paths == [STDIN]


def collect(run: Run) -> List[FileResult]:
    from migrator import engine

    if run.reads_stdin:
        return [transform_stdin(run.options)]
    cache = None
    if run.use_cache:
        from migrator.cache import open_cache  # hashing and JSON: a --no-cache run loads neither

        cache = open_cache(run.options)
    results = engine.run(run.paths, run.options, run.exclude, run.jobs, cache=cache)
    return run.output.collect((without_idle_source(result) for result in results), total=results.total)


def without_idle_source(result: FileResult) -> FileResult:
    """The result, less the bytes of a file with nothing to show: kept for every file of a large
    tree, they would be most of a run's memory."""
    if result.result is None or result.changed or result.findings or not result.result.source:
        return result
    return dataclasses.replace(result, result=dataclasses.replace(result.result, source=b"", output=b""))


def transform_stdin(options: Options) -> FileResult:
    """Standard input as one module named `-`; code that does not parse is its error, as for a file."""
    from libcst import ParserSyntaxError

    from migrator import engine
    from migrator.source import SourceError

    try:
        return FileResult(STDIN, result=engine.transform_source(sys.stdin.buffer.read(), options))
    except ParserSyntaxError as error:
        return FileResult(STDIN, error=f"cannot parse: {error}")
    except SourceError as error:  # null bytes, a bad encoding: Python would not read it either
        return FileResult(STDIN, error=str(error))


def conclude(run: Run, results: Sequence[FileResult], summary: Sequence[str], found: bool, dry_run: bool) -> ExitCode:
    """Report the per-file notes, errors and summary; the exit code."""
    run.output.file_notes(results, dry_run)
    run.output.errors(results)
    run.output.say(*summary)
    if any(result.error is not None for result in results):
        return ExitCode.ERROR
    return ExitCode.FOUND if found else ExitCode.CLEAN


def conclude_check(run: Run, results: Sequence[FileResult]) -> ExitCode:
    """`check`'s summary (counts, then findings by rule) and exit code, its report printed."""
    tally = Tally.of(results)
    summary = render.check_summary(tally)
    summary.insert(1, render.by_rule([finding for result in results for finding in result.findings]))
    return conclude(run, results, summary, found=tally.findings > 0, dry_run=True)
