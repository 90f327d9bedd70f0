"""Placeholder: the engine is being written. transform_source(source: bytes, options) -> SourceResult."""
from __future__ import annotations

from migrator.model import Options, SourceResult


def transform_source(source: bytes, options: Options = Options()) -> SourceResult:
    return SourceResult(source=source, output=source)
