"""The before/after cases in fixtures/: discovered, never listed.

``fixtures/<rule id>/<case>/before.py`` is the input. ``after.py`` is the exact expected
output (absent: the file must come out unchanged). ``findings.txt`` lists the expected findings,
one ``line:col: rule message`` per line, the message followed, as `migrator check` prints it, by
where the call it is about starts when that is on another line (``(call at line 10)``); absent:
none are checked. ``options.txt`` names the ``Options`` fields switched on for the case, one per
line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional

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


def finding_line(finding: Finding) -> str:
    return f"{finding.line}:{finding.column}: {finding.rule} {finding.message}{call_note(finding)}"
