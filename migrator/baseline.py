"""Baselines: today's findings, recorded so that `check` fails only on new ones.

`migrator check --write-baseline FILE` records the findings; `migrator check --baseline FILE`
then reports only those not recorded. A finding is matched by what it is, not by its line
number: its rule id, its file (relative to the baseline's directory), the text of its line
with runs of whitespace made one space (in a notebook, the line in its cell), and its
occurrence: how many findings with the same rule, file and text come before it in the file.
Edits elsewhere that move the line keep it matched; editing the line itself, or adding an
identical one above it, makes a finding new.

The file is JSON, UTF-8, sorted, one entry per finding (``message`` is for the reader; it is
not matched)::

    {
      "version": 1,
      "findings": [
        {"rule": "chat_completions_create", "path": "app/chat.py",
         "source": "resp = client.chat.completions.create(", "occurrence": 0,
         "message": "`client.chat.completions.create` can move to `responses.create`"}
      ]
    }
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, FrozenSet, List, Sequence, Tuple

from migrator.model import FileResult, Finding

VERSION = 1
LINE_BREAK = re.compile(r"\r\n|\r|\n")  # as Python counts lines; not str.splitlines
MATCHED_FIELDS = ("rule", "path", "source", "occurrence")


class BaselineError(Exception):
    """A baseline file that cannot be read or written; the message says which and why."""


@dataclass(frozen=True)
class Key:
    """What a finding is matched by."""

    rule: str
    path: str
    source: str
    occurrence: int


def keyed_findings(results: Sequence[FileResult], baseline: Path) -> List[Tuple[Key, FileResult, Finding]]:
    """Every finding of the results with its key, for a baseline file at ``baseline``."""
    keyed = []
    for result in results:
        if result.result is None:
            continue
        path = _relative(result.path, baseline.parent)
        seen: Counter = Counter()
        for finding in sorted(result.findings, key=lambda f: f.sort_key()):
            source = " ".join(_line_of(result, finding).split())
            keyed.append((Key(finding.rule, path, source, seen[finding.rule, source]), result, finding))
            seen[finding.rule, source] += 1
    return keyed


def write(baseline: Path, results: Sequence[FileResult]) -> int:
    """Record the results' findings in ``baseline``; returns how many."""
    entries = [
        {**dataclasses.asdict(key), "message": finding.message} for key, _, finding in keyed_findings(results, baseline)
    ]
    entries.sort(key=lambda entry: [entry[name] for name in MATCHED_FIELDS])
    text = json.dumps({"version": VERSION, "findings": entries}, indent=2, ensure_ascii=False) + "\n"
    try:
        baseline.write_text(text, encoding="utf-8")
    except OSError as error:
        raise BaselineError(f"{baseline}: cannot write it: {error.strerror or error}") from None
    return len(entries)


def read(baseline: Path) -> FrozenSet[Key]:
    try:
        document = json.loads(baseline.read_text(encoding="utf-8"))
    except OSError as error:
        raise BaselineError(f"{baseline}: cannot read it: {error.strerror or error}") from None
    except ValueError as error:
        raise BaselineError(f"{baseline}: not a baseline (invalid JSON: {error})") from None
    if not (isinstance(document, dict) and document.get("version") == VERSION and isinstance(document.get("findings"), list)):
        raise BaselineError(f"{baseline}: not a baseline of version {VERSION} (write it with --write-baseline)")
    try:
        return frozenset(Key(**{name: entry[name] for name in MATCHED_FIELDS}) for entry in document["findings"])
    except (TypeError, KeyError) as error:
        raise BaselineError(f"{baseline}: an entry lacks {error}") from None


@dataclass(frozen=True)
class Filtered:
    results: List[FileResult]  # with only the findings the baseline does not hold
    accepted: int  # findings the baseline holds
    stale: int  # baseline entries that match no finding any more


def without_known(results: Sequence[FileResult], baseline: Path) -> Filtered:
    """The results less the findings recorded in ``baseline``."""
    known = read(baseline)
    new: Dict[int, List[Finding]] = {id(result): [] for result in results}
    matched = set()
    for key, result, finding in keyed_findings(results, baseline):
        if key in known:
            matched.add(key)
        else:
            new[id(result)].append(finding)
    filtered = [
        dataclasses.replace(result, result=dataclasses.replace(result.result, findings=new[id(result)]))
        if result.result is not None
        else result
        for result in results
    ]
    accepted = sum(len(result.findings) for result in results) - sum(len(findings) for findings in new.values())
    return Filtered(filtered, accepted, len(known - matched))


def _relative(path: Path, directory: Path) -> str:
    if str(path) == "-":  # standard input
        return "-"
    return Path(os.path.relpath(os.path.abspath(path), os.path.abspath(directory))).as_posix()


def _line_of(result: FileResult, finding: Finding) -> str:
    """The text of the finding's line: in the file, or in its notebook cell."""
    assert result.result is not None
    source = result.result.source
    if finding.cell is not None:
        from migrator import notebook

        try:
            cells = {cell.number: cell.source for cell in notebook.parse(source).cells}
        except notebook.NotebookError:
            return ""
        lines = LINE_BREAK.split(cells.get(finding.cell, ""))
    else:
        lines = LINE_BREAK.split(source.decode("utf-8", "replace"))
    return lines[finding.line - 1] if 0 < finding.line <= len(lines) else ""
