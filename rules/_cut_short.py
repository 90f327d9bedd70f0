"""Where code handles the exceptions the Chat helpers raise on an answer cut short.

`chat.completions.parse` and the Chat stream helper's `get_final_completion()` raise
`LengthFinishReasonError` or `ContentFilterFinishReasonError` (both `OpenAIError`s) when the
answer was cut short by the token limit or the content filter; their Responses counterparts
raise a Pydantic validation error or a `RuntimeError` instead. Code that handles the former,
in the module or in the modules importing the function the call is in, would no longer catch
what is raised.
"""

from typing import List, Optional

import libcst as cst

from migrator.analysis import CallSite

CUT_SHORT_EXCEPTIONS = frozenset({"LengthFinishReasonError", "ContentFilterFinishReasonError", "OpenAIError"})
# What `responses.parse` raises instead, and the base class that catches it and not the former.
PARSE_CUT_SHORT_EXCEPTIONS = frozenset({"ValidationError", "ValueError"})


def cut_short_handled(site: CallSite, node: cst.CSTNode) -> Optional[str]:
    """Where the exceptions of ``CUT_SHORT_EXCEPTIONS`` are named, in words: this module, or
    the ``except`` clauses of the modules importing the top-level function or class holding
    ``node``; None where they are not."""
    analysis = site.analysis
    for name_node in analysis.nodes.parents:  # every node of the module
        if isinstance(name_node, cst.Name) and name_node.value in CUT_SHORT_EXCEPTIONS:
            names = analysis.imports.qualified(name_node) | analysis.imports.qualified(analysis.nodes.parents[name_node])
            if any(name.startswith("openai.") and name.endswith(name_node.value) for name in names):
                return f"the module refers to `{name_node.value}`"
    holder = analysis.outermost(node)
    if holder is None:
        return None
    for handled, place in analysis.project.handled_by_importers(holder.name.value):
        caught = handled.rsplit(".", 1)[-1]
        if handled.startswith("openai.") and caught in CUT_SHORT_EXCEPTIONS:
            return f"`{place}`, which imports `{holder.name.value}`, handles `{caught}`"
    return None


def caught_instead(site: CallSite, node: cst.CSTNode, exceptions: frozenset) -> Optional[str]:
    """The first of ``exceptions`` (names) a ``try`` around ``node`` handles: what the
    Responses counterpart raises on an answer cut short, caught where the Chat helper's
    exception was not."""
    analysis = site.analysis
    scope = (cst.FunctionDef, cst.Lambda)
    function = analysis.nodes.enclosing(node, scope)
    current = analysis.nodes.enclosing(node, cst.Try)
    while current is not None and analysis.nodes.enclosing(current, scope) is function:
        if analysis.nodes.within(node, current.body):
            caught = next((name for handler in current.handlers for name in _names_of(handler.type) if name in exceptions), None)
            if caught is not None:
                return caught
        current = analysis.nodes.enclosing(current, cst.Try)
    return None


def _names_of(node: Optional[cst.BaseExpression]) -> List[str]:
    if isinstance(node, cst.Tuple):
        return [name for element in node.elements for name in _names_of(element.value)]
    if isinstance(node, cst.Name):
        return [node.value]
    if isinstance(node, cst.Attribute):
        return [node.attr.value]
    return []
