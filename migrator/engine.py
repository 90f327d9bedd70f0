"""Runs the migration over source texts and files, and returns what happened as data."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator, Optional, Sequence

from migrator.model import FileResult, Options, SourceResult


def transform_source(source: bytes, options: Options = Options()) -> SourceResult:
    """Migrate one module's source. Raises libcst.ParserSyntaxError for code that does not parse."""
    import libcst as cst
    from libcst.metadata import MetadataWrapper

    from migrator.analysis import ModuleAnalysis
    from migrator.planner import plan_module
    from migrator.rewrite import apply_plans

    module = cst.parse_module(source)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    analysis = ModuleAnalysis(wrapper)
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
    """Discover and transform files; results come back in a stable order. Writes nothing."""
    raise NotImplementedError


def write(result: FileResult, root: Path) -> FileResult:
    """Write a changed file atomically; returns the result with `error` set if that failed."""
    raise NotImplementedError
