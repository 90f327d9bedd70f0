"""Runs the migration over source texts and files, and returns what happened as data.

The cost of a run grows with the OpenAI code in it, not with the size of the tree: files are
first tested for the text the rules need (``migrator.prefilter``), only candidates are parsed,
and scope metadata is computed only for modules that hold a legacy call. LibCST itself is
imported only once a candidate turns up.
"""

from __future__ import annotations

import os
import traceback
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Iterator, List, Optional, Sequence, Tuple, Union

from migrator.discovery import DiscoveryError, discover
from migrator.model import FileResult, Options, SourceResult
from migrator.prefilter import is_candidate, needed_texts
from migrator.source import SourceError, read_source, write_atomic

# Below this many candidate files, starting worker processes costs more than it saves.
PARALLEL_THRESHOLD = 8
NOTEBOOK_SUFFIX = ".ipynb"


def transform_source(source: bytes, options: Options = Options()) -> SourceResult:
    """Migrate one module's source. Raises libcst.ParserSyntaxError for code that does not parse."""
    import libcst as cst
    from libcst.metadata import MetadataWrapper

    from migrator.analysis import ModuleAnalysis, has_legacy_calls
    from migrator.planner import plan_module
    from migrator.rewrite import apply_plans

    module = cst.parse_module(source)
    if not has_legacy_calls(module):
        return SourceResult(source=source, output=source)
    analysis = ModuleAnalysis(MetadataWrapper(module, unsafe_skip_copy=True))
    plan = plan_module(analysis, options)
    output = apply_plans(module, plan.sites, options).bytes if plan.sites else source
    findings = sorted(plan.findings, key=lambda f: f.sort_key())
    return SourceResult(source=source, output=output, findings=findings, calls_migrated=len(plan.sites))


def run(
    paths: Sequence[Path],
    options: Options = Options(),
    exclude: Sequence[str] = (),
    jobs: Optional[int] = None,
) -> Iterator[FileResult]:
    """Discover and transform files; results come back in discovery order. Writes nothing."""
    texts = needed_texts(options.select, options.ignore)
    pending: List[Union[FileResult, Path]] = []  # a finished result, or a candidate to transform
    for item in discover(paths, exclude):
        if isinstance(item, DiscoveryError):
            pending.append(FileResult(path=item.path, error=item.reason))
        elif item.suffix == NOTEBOOK_SUFFIX:
            continue  # notebooks are not supported yet
        else:
            pending.append(_prefiltered(item, texts))
    candidates = [item for item in pending if isinstance(item, Path)]
    workers = min(jobs or os.cpu_count() or 1, len(candidates))
    if workers > 1 and len(candidates) >= PARALLEL_THRESHOLD:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            transformed = pool.map(transform_file, candidates, [options] * len(candidates), chunksize=1)
            yield from _in_order(pending, transformed)
    else:
        yield from _in_order(pending, (transform_file(path, options) for path in candidates))


def _in_order(pending: List[Union[FileResult, Path]], transformed: Iterator[FileResult]) -> Iterator[FileResult]:
    for item in pending:
        yield next(transformed) if isinstance(item, Path) else item


def _prefiltered(path: Path, texts: Tuple[bytes, ...]) -> Union[FileResult, Path]:
    """The final result of a file no rule can match, or the path itself when it is a candidate."""
    try:
        source = read_source(path)
    except SourceError as error:
        return FileResult(path=path, error=str(error))
    if is_candidate(source, texts):
        return path
    return FileResult(path=path, result=SourceResult(source=source, output=source))


def transform_file(path: Path, options: Options) -> FileResult:
    """Read and transform one file. Never raises: a failure becomes the result's error."""
    try:
        source = read_source(path)
        return FileResult(path=path, result=transform_source(source, options))
    except SourceError as error:
        return FileResult(path=path, error=str(error))
    except Exception as error:  # one bad file must not stop the run
        return FileResult(path=path, error=_describe(error))


def _describe(error: Exception) -> str:
    syntax_error = _syntax_error_message(error)
    if syntax_error is not None:
        return syntax_error
    frames = traceback.extract_tb(error.__traceback__)[-3:]
    where = "; ".join(f"{Path(f.filename).name}:{f.lineno} in {f.name}" for f in frames)
    return f"internal error: {type(error).__name__}: {error} ({where})"


def _syntax_error_message(error: Exception) -> Optional[str]:
    from libcst import ParserSyntaxError

    if isinstance(error, ParserSyntaxError):
        return f"syntax error at line {error.raw_line}, column {error.raw_column + 1}: {error.message}"
    return None


def write(result: FileResult, root: Path) -> FileResult:
    """Write a changed file atomically; returns the result with ``error`` set if that failed."""
    if not result.changed:
        return result
    try:
        write_atomic(result.path, result.result.output, root=root)
    except SourceError as error:
        return FileResult(path=result.path, error=f"not written: {error}")
    return result
