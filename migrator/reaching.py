"""Which bindings of a name can reach a read of it: the scope's bindings, less those the order
of the code rules out.

LibCST's scopes give every binding of a name in a scope (or, for a read, those written before
it, which is wrong in a loop). Two facts of straight-line code narrow them soundly:

- a binding made after a read that no loop encloses (in its scope) cannot reach it;
- a plain assignment directly in the scope's body (no branch, loop, ``try`` or ``with`` around
  it) hides every binding made before it from the reads after it.

So ``client = client or OpenAI()`` at the top of a function makes ``client`` below it only
what that assignment holds, and the read inside it only the parameter. Bindings written in
another scope (``global``, ``nonlocal``, a module name read in a function) are never ruled out:
code elsewhere may run between them and the read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional

import libcst as cst
from libcst.metadata import Assignment

from migrator.traversal import children

if TYPE_CHECKING:
    from migrator.analysis import ModuleAnalysis

_SCOPE_NODES = (cst.Module, cst.FunctionDef, cst.Lambda, cst.ClassDef)
_PLAIN_ASSIGNMENTS = (cst.Assign, cst.AnnAssign, cst.AugAssign)


def reaching_bindings(read: cst.Name, analysis: "ModuleAnalysis") -> Optional[List[Assignment]]:
    """The bindings of ``read``'s name that may be what it reads; None when one is not an
    assignment the module spells (a builtin, a name the scope cannot resolve)."""
    scope = analysis.scopes.get(read)
    if scope is None:
        return None
    bindings = list(scope[read.value])
    if not bindings or not all(isinstance(b, Assignment) for b in bindings):
        return None
    local = [b for b in bindings if analysis.scopes.get(b.node) is scope]
    if not _in_loop(read, analysis):
        ruled_out = [b for b in local if not _before(_effect(b, analysis), read, analysis)]
    else:
        ruled_out = []
    for hiding in local:
        statement = _body_assignment(hiding, analysis)
        if statement is not None and _before(statement, read, analysis):
            ruled_out += [b for b in local if b is not hiding and _before(_effect(b, analysis), statement, analysis)]
    return [b for b in bindings if b not in ruled_out]


def _effect(binding: Assignment, analysis: "ModuleAnalysis") -> cst.CSTNode:
    """The node after which the binding holds: an assignment statement as a whole (its value
    comes first), otherwise the binding's own node (a parameter, a ``with``/``for`` target)."""
    parent = analysis.parents.get(binding.node)
    if isinstance(parent, cst.AssignTarget):
        return analysis.parents[parent]
    if isinstance(parent, _PLAIN_ASSIGNMENTS) and parent.target is binding.node:
        return parent
    return binding.node


def _body_assignment(binding: Assignment, analysis: "ModuleAnalysis") -> Optional[cst.CSTNode]:
    """The statement of ``NAME = value`` when it stands directly in its scope's body, where
    nothing can skip it."""
    statement = _effect(binding, analysis)
    if not isinstance(statement, (cst.Assign, cst.AnnAssign)) or statement.value is None:
        return None
    line = analysis.parents.get(statement)
    body = analysis.parents.get(line) if isinstance(line, cst.SimpleStatementLine) else None
    if isinstance(body, cst.Module):
        return statement
    owner = analysis.parents.get(body) if isinstance(body, cst.IndentedBlock) else None
    return statement if isinstance(owner, (cst.FunctionDef, cst.ClassDef)) else None


def _in_loop(node: cst.CSTNode, analysis: "ModuleAnalysis") -> bool:
    """Can ``node`` run again after later code of its scope has run?"""
    ancestor = analysis.parents.get(node)
    while ancestor is not None and not isinstance(ancestor, _SCOPE_NODES):
        if isinstance(ancestor, (cst.For, cst.While)):
            return True
        ancestor = analysis.parents.get(ancestor)
    return False


def _before(first: cst.CSTNode, second: cst.CSTNode, analysis: "ModuleAnalysis") -> bool:
    """Does ``first`` end before ``second`` starts, in the source? (False when one holds the other.)"""
    first_path, second_path = _path(first, analysis), _path(second, analysis)
    common = 0
    while common < min(len(first_path), len(second_path)) and first_path[common] is second_path[common]:
        common += 1
    if common in (len(first_path), len(second_path)):
        return False
    siblings = list(children(first_path[common - 1]))
    return _index(siblings, first_path[common]) < _index(siblings, second_path[common])


def _path(node: cst.CSTNode, analysis: "ModuleAnalysis") -> List[cst.CSTNode]:
    """The nodes from the module down to ``node``."""
    path = [node]
    while path[-1] in analysis.parents:
        path.append(analysis.parents[path[-1]])
    return path[::-1]


def _index(siblings: List[cst.CSTNode], node: cst.CSTNode) -> int:
    return next(i for i, sibling in enumerate(siblings) if sibling is node)
