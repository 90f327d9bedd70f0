"""Inline suppression comments: ``# migrator: ignore`` and ``# migrator: ignore[RULE-ID, ...]``.

A comment suppresses what is reported on its own line: every finding there, or those of the
rules it names. The line is the one a finding names (``path:LINE:col``): for a call written
over several lines, the line where the call starts. The planner also keeps `apply` from
rewriting a line whose comment suppresses the rule that would rewrite it (see
``migrator.planner``): a suppressed call is left as it is, never migrated silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Dict, FrozenSet, Iterable, Mapping, Optional

import libcst as cst

# `ignore` alone, or followed by a bracketed list of rule ids; not `ignored`, `ignore-me`...
DIRECTIVE = re.compile(r"#\s*migrator:\s*ignore(?:\[(?P<rules>[^\]]*)\]|(?![\w\[-]))")


@dataclass(frozen=True)
class Directive:
    """One ``# migrator: ignore`` comment: it suppresses every rule (``rules`` None) or those named."""

    rules: Optional[FrozenSet[str]]

    def covers(self, rule: str) -> bool:
        return self.rules is None or rule in self.rules

    def __or__(self, other: "Directive") -> "Directive":
        if self.rules is None or other.rules is None:
            return Directive(None)
        return Directive(self.rules | other.rules)


def directive_of(comment: str) -> Optional[Directive]:
    """The directive a comment holds, if any (several in one comment add up)."""
    found: Optional[Directive] = None
    for match in DIRECTIVE.finditer(comment):
        named = match.group("rules")
        rules = None if named is None else frozenset(part.strip() for part in named.split(",") if part.strip())
        found = Directive(rules) if found is None else found | Directive(rules)
    return found


@dataclass(frozen=True)
class Suppressions:
    """The directive on each line that has one."""

    lines: Mapping[int, Directive] = field(default_factory=dict)

    def hides(self, rule: str, line: int) -> bool:
        directive = self.lines.get(line)
        return directive is not None and directive.covers(rule)

    @classmethod
    def of(cls, comments: Iterable[cst.Comment], line_of: Callable[[cst.Comment], int]) -> "Suppressions":
        """The directives of a module's ``comments``. ``line_of`` is asked only about the comments
        that hold one: a module without any needs no positions."""
        lines: Dict[int, Directive] = {}
        for comment in comments:
            directive = directive_of(comment.value)
            if directive is not None:
                lines[line_of(comment)] = directive  # one comment per line
        return cls(lines)
