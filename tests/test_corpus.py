"""The engine over real code that calls Chat Completions: pinned packages from PyPI.

Slow and networked, so not run by default:

    python -m pytest -m slow tests/test_corpus.py -s

`pip download --no-deps` fetches each pinned distribution (the sdist where the examples live
in it, else the wheel) into a temporary folder, or into `$MIGRATOR_CORPUS_DIR` to keep them
between runs. Every `.py` file goes through `engine.run`, as `migrator apply` would see it:

- no file makes the engine fail (an "internal error": a crash, a failed output check);
- every changed file parses, and compiles where the original compiles on this Python;
- migrating the migrated files again changes nothing (apply twice == apply once).

With `-s` it prints what it saw: files, candidates, calls migrated, findings by rule, time.
"""

from __future__ import annotations

import collections
import os
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path
from typing import List

import libcst as cst
import pytest

from migrator.engine import run, transform_source
from migrator.prefilter import is_candidate, needed_texts

# (requirement, "sdist" or "wheel"): each has Chat Completions calls in it (checked below).
CORPUS = (
    ("openai==1.59.3", "sdist"),  # the SDK, its tests and its examples/ folder
    ("instructor==1.7.2", "wheel"),
    ("openai-agents==0.0.19", "wheel"),
    ("langchain-openai==0.3.0", "wheel"),
    ("smolagents==1.9.2", "wheel"),
    ("mem0ai==0.1.50", "wheel"),
    ("llm==0.19", "wheel"),
    ("marvin==2.3.8", "wheel"),
    ("pydantic-ai-slim==0.0.20", "wheel"),
    ("haystack-ai==2.9.0", "wheel"),
)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    downloads = Path(os.environ.get("MIGRATOR_CORPUS_DIR") or tmp_path_factory.mktemp("downloads"))
    tree = tmp_path_factory.mktemp("corpus")
    for requirement, kind in CORPUS:
        archive = download(requirement, kind, downloads)
        extract(archive, tree / archive.name)
        assert any(b"chat.completions" in path.read_bytes() for path in (tree / archive.name).rglob("*.py")), requirement
    return tree


def download(requirement: str, kind: str, folder: Path) -> Path:
    """The archive of `requirement`, downloaded into a folder of its own unless already there."""
    target = folder / f"{requirement.replace('==', '-')}-{kind}"
    if not (target.exists() and any(target.iterdir())):
        binary = "--only-binary=:all:" if kind == "wheel" else "--no-binary=:all:"
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", binary, "--dest", str(target), requirement],
            check=True,
        )
    [archive] = target.iterdir()
    return archive


def extract(archive: Path, target: Path) -> None:
    if archive.suffix == ".whl":
        with zipfile.ZipFile(archive) as wheel:
            wheel.extractall(target)
    else:
        with tarfile.open(archive) as sdist:
            if hasattr(tarfile, "data_filter"):
                sdist.extractall(target, filter="data")
            else:  # pragma: no cover - Pythons without extraction filters
                sdist.extractall(target)


def compiles(source: bytes, name: str) -> bool:
    try:
        compile(source, name, "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


@pytest.mark.slow
def test_the_engine_migrates_real_code_without_crashing_or_breaking_it(corpus: Path):
    started = time.perf_counter()
    results = list(run([corpus]))
    seconds = time.perf_counter() - started

    internal = [f"{result.path}: {result.error}" for result in results if result.error and "internal error" in result.error]
    assert not internal, "\n".join(internal)
    broken: List[str] = []
    not_idempotent: List[str] = []
    for result in results:
        if not result.changed:
            continue
        output = result.result.output
        try:
            cst.parse_module(output)
        except cst.ParserSyntaxError as error:
            broken.append(f"{result.path}: does not parse: {error}")
            continue
        if compiles(result.result.source, str(result.path)) and not compiles(output, str(result.path)):
            broken.append(f"{result.path}: no longer compiles")
        if transform_source(output).output != output:
            not_idempotent.append(str(result.path))
    assert not broken, "\n".join(broken)
    assert not not_idempotent, "migrating again changes: " + ", ".join(not_idempotent)

    needs = needed_texts()
    candidates = sum(1 for result in results if result.result and is_candidate(result.result.source, needs))
    findings = collections.Counter(finding.rule for result in results for finding in result.findings)
    errors = [f"{result.path.relative_to(corpus)}: {result.error}" for result in results if result.error]
    print(
        f"\n{len(results)} files, {candidates} candidates, {sum(r.changed for r in results)} changed, "
        f"{sum(r.result.calls_migrated for r in results if r.result)} calls migrated, "
        f"{len(errors)} files not processed, {seconds:.0f} s"
    )
    print("findings by rule:", dict(findings.most_common()))
    print("changed:", *(f"{r.path.relative_to(corpus)} ({r.result.calls_migrated})" for r in results if r.changed), sep="\n  ")
    print("not processed:", *errors, sep="\n  ")
