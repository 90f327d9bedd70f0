"""Branches: what a condition, read once, says about where the code that tests it again runs.

``value = f(flag)`` then ``if flag: <A> else: <B>``: ``A`` runs only where ``flag`` was true
when ``f`` read it, ``B`` only where it was false, provided nothing can bind ``flag`` between
the two reads.
"""

from __future__ import annotations

from typing import Optional, Tuple

import libcst as cst

from migrator.semantic.bindings import Bindings
from migrator.semantic.nodes import Nodes


def negated_name(condition: cst.BaseExpression) -> Optional[Tuple[cst.Name, bool]]:
    """``flag`` -> (flag, False); ``not flag`` -> (flag, True); ``not not flag`` -> (flag, False);
    None for anything else."""
    negated = False
    while isinstance(condition, cst.UnaryOperation) and isinstance(condition.operator, cst.Not):
        condition, negated = condition.expression, not negated
    return (condition, negated) if isinstance(condition, cst.Name) else None


def truth_where(nodes: Nodes, bindings: Bindings, condition: cst.BaseExpression, node: cst.CSTNode) -> Optional[bool]:
    """What ``condition`` (a name, or ``not`` a name) was where it is written, whenever ``node``
    runs: True when ``node`` sits in the body of a later ``if`` that tests the same name the same
    way (or in the ``else`` of one that tests it the other way), or follows, in the same block,
    an ``if`` without ``else`` testing it the other way whose body always leaves the block
    (``if not stream: return ...``); False for the opposite; None when no such ``if`` decides.

    The ``if`` must run, each time, after the statement holding ``condition`` has run in the
    same run of their scope, and nothing may bind the name between the two: then the code that
    runs between them is code written between them, and the name holds the same value in both.
    """
    read = negated_name(condition)
    if read is None:
        return None
    name, negated = read
    statement = nodes.enclosing_statement(condition)

    def tested(branch: cst.If) -> Optional[bool]:
        """Whether ``branch`` tests the name the opposite way from ``condition``; None when it
        does not test it, or another value may reach it."""
        test = negated_name(branch.test)
        if test is None or test[0].value != name.value or not nodes.runs_before(statement, branch):
            return None
        return None if _bound_between(nodes, bindings, name, test[0]) else negated != test[1]

    child, parent = node, nodes.parents.get(node)
    while parent is not None:
        if isinstance(parent, cst.If) and child is not parent.test:
            opposite = tested(parent)
            if opposite is not None:
                return (child is parent.body) != opposite
        if isinstance(parent, (cst.IndentedBlock, cst.Module)):
            earlier = parent.body[: parent.body.index(child)]
            for sibling in reversed(earlier):
                if isinstance(sibling, cst.If) and sibling.orelse is None and always_leaves(sibling.body):
                    opposite = tested(sibling)
                    if opposite is not None:
                        return opposite  # ``node`` runs only where the test was false
        child, parent = parent, nodes.parents.get(parent)
    return None


def always_leaves(body: cst.BaseSuite) -> bool:
    """Does ``body`` end by leaving the block it is in (``return``, ``raise``, ``continue``,
    ``break``), whichever way it runs?"""
    last = body.body[-1] if body.body else None
    if isinstance(body, cst.IndentedBlock):
        last = last.body[-1] if isinstance(last, cst.SimpleStatementLine) and last.body else last
    return isinstance(last, (cst.Return, cst.Raise, cst.Continue, cst.Break))


def _bound_between(nodes: Nodes, bindings: Bindings, first: cst.Name, second: cst.Name) -> bool:
    """Can anything bind the name read by ``first`` and then ``second`` between the two reads?
    A binding written between them can; so can one in another scope (``global``, ``nonlocal``)."""
    scope = bindings.scopes.get(first)
    if scope is None or scope is not bindings.scopes.get(second):
        return True
    start, end = nodes.order(first), nodes.order(second)
    for assignment in scope.assignments[first.value]:
        node = getattr(assignment, "node", None)
        if node is None or bindings.scopes.get(node) is not scope and not isinstance(node, cst.Param):
            return True
        if start < nodes.order(node) < end:
            return True
    return False
