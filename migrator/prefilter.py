"""Decides from raw bytes, before any parsing, which files could hold a finding.

Each rule declares in ``needs`` the text a file must contain for it to find anything. The
declarations are read from the rule files with ``ast`` rather than by importing the rules, so a
run over files that mention none of them never imports LibCST.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from typing import Dict, FrozenSet, Optional, Tuple

from migrator.registry import rules_folder


@lru_cache(maxsize=None)
def declared_needs() -> Dict[str, Tuple[str, ...]]:
    """Each rule's ``needs``, by rule id, as written in ``RULE = Rule(..., needs=(...))``."""
    needs = {}
    for path in sorted(rules_folder().glob("*.py")):
        if path.name.startswith("_"):
            continue
        tree = ast.parse(path.read_bytes(), filename=str(path))
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "RULE" for t in node.targets):
                keyword = next(k for k in node.value.keywords if k.arg == "needs")
                needs[path.stem] = tuple(ast.literal_eval(keyword.value))
    return needs


def needed_texts(selected: Optional[FrozenSet[str]] = None, ignored: FrozenSet[str] = frozenset()) -> Tuple[bytes, ...]:
    """The texts any enabled rule needs, as bytes (Python source encodings spell ASCII as ASCII)."""
    texts = {
        text.encode("ascii")
        for rule_id, rule_needs in declared_needs().items()
        if rule_id not in ignored and (selected is None or rule_id in selected)
        for text in rule_needs
    }
    return tuple(sorted(texts))


def is_candidate(source: bytes, texts: Tuple[bytes, ...]) -> bool:
    return any(text in source for text in texts)
