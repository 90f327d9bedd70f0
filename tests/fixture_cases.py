"""The before/after cases in fixtures/: discovered, never listed.

``fixtures/<rule id>/<case>/before.py`` is the input. ``after.py`` is the exact expected
output (absent: the file must come out unchanged). ``findings.txt`` lists the expected findings,
one ``line:col: rule message`` per line, the message followed, as `migrator check` prints it, by
where the call it is about starts when that is on another line (``(call at line 10)``); absent:
none are checked. ``options.txt`` names the ``Options`` fields switched on for the case, one per
line.

A case of several modules holds a small project instead: the tree ``before/``, the files that
change as they must come out in ``after/`` (the others must come out unchanged), findings as
``path:line:col: rule message``, and optionally ``paths.txt``: the paths given to the run,
relative to the tree (absent: the whole tree). The tree is its own project. One such case keeps
``summary.md``, the Markdown summary `check --output-format markdown` prints for its tree
(pinned by tests/test_reports.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional

from migrator.model import Finding, Options
from migrator.render import call_note

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


@dataclass(frozen=True)
class Case:
    folder: Path

    @property
    def id(self) -> str:
        return f"{self.folder.parent.name}/{self.folder.name}"

    @property
    def rule(self) -> str:
        return self.folder.parent.name

    @property
    def before(self) -> bytes:
        return (self.folder / "before.py").read_bytes()

    @property
    def after(self) -> Optional[bytes]:
        path = self.folder / "after.py"
        return path.read_bytes() if path.exists() else None

    @property
    def expected_findings(self) -> Optional[List[str]]:
        path = self.folder / "findings.txt"
        if not path.exists():
            return None
        return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]

    @property
    def options(self) -> Options:
        path = self.folder / "options.txt"
        names = path.read_text(encoding="utf-8").split() if path.exists() else []
        return Options(**{name: True for name in names})


def all_cases() -> List[Case]:
    return [Case(before.parent) for before in sorted(FIXTURES.glob("*/*/before.py"))]


@dataclass(frozen=True)
class ProjectCase(Case):
    """A case of several modules (see above)."""

    @property
    def before_files(self) -> Dict[str, bytes]:
        return _tree(self.folder / "before")

    @property
    def after_files(self) -> Dict[str, bytes]:
        """Every file of the tree as it must come out."""
        return {**self.before_files, **_tree(self.folder / "after")}

    @property
    def paths(self) -> List[str]:
        path = self.folder / "paths.txt"
        return path.read_text(encoding="utf-8").split() if path.exists() else ["."]


def project_cases() -> List[ProjectCase]:
    return [ProjectCase(before.parent) for before in sorted(FIXTURES.glob("*/*/before")) if before.is_dir()]


def _tree(folder: Path) -> Dict[str, bytes]:
    """The files under ``folder`` by posix path relative to it."""
    if not folder.is_dir():
        return {}
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def finding_line(finding: Finding) -> str:
    return f"{finding.line}:{finding.column}: {finding.rule} {finding.message}{call_note(finding)}"
