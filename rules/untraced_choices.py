"""
## What it does
Reports reads like `x.choices[0]`, in a module that imports `openai`, on values the tool cannot
trace to a Chat Completions call: a response handed in as a parameter, returned by a helper of
another module, kept in an attribute, given back by a function the method was handed to
(`await asyncio.to_thread(client.chat.completions.create, ...)`, which `method_references`
reports). They are reported at low confidence: the value may be something else with a
`choices` list.

## Why
Such a read is Chat Completions code the call-based rules cannot see: once the call that
produced the value is migrated (here or in another module), the value is a `Response`, which
has no `choices`, and the read fails at run time.

## Example
```python
import openai

def first_answer(completion) -> str:
    return completion.choices[0].message.content or ""
```

## Use instead
Migrate the read together with the call that produces the value (`output_text` for the text of
the answer), or annotate the value (`completion: ChatCompletion`) and keep both in one module,
where the tool follows them:

```python
def first_answer(response) -> str:
    return response.output_text
```

## Fix safety
Manual: the tool only reports. Reads of results the tool follows from a call are never
reported here (the call's own finding covers them), nor are reads in modules that do not import
`openai`, reads on `self.choices`, or reads of values another library's call returned
(`litellm.completion(...)`, say, or `asyncio.to_thread` handed another SDK's method) or
annotated with its types.
"""

from typing import List, Set, Union

import libcst as cst

from migrator.analysis import legacy_call, legacy_method_reference
from migrator.clients import is_other_sdk_client
from migrator.rules._chunk_loops import loop_over
from migrator.model import Confidence, FixSafety
from migrator.rule import Example, Report, Rule
from migrator.shapes import is_name, one_line, walk

# Packages whose names in an annotation say nothing about where the value comes from.
TYPING_PACKAGES = frozenset({"typing", "typing_extensions", "collections"})

RULE = Rule(
    title="`choices` read on a value not traced to a call",
    safety=FixSafety.MANUAL,
    needs=(".choices[",),
    needs_imports=("openai",),
    examples=[
        Example(
            before=(
                "import openai\n"
                "def first_answer(completion) -> str:\n"
                '    return completion.choices[0].message.content or ""\n'
            ),
            finding="cannot trace `completion` to a Chat Completions call",
        ),
        Example(
            before=(
                "import openai\n"
                "import litellm\n"
                'reply = litellm.completion(model="gpt-4o", messages=messages)\n'
                "print(reply.choices[0].message.content)\n"
            ),
        ),
    ],
)


@RULE.module
def untraced_reads(analysis) -> List[Report]:
    reads = [node for node in analysis.nodes.nodes_of(cst.Subscript) if _is_choices_read(node)]
    if not reads:
        return []
    traced = _traced_reads(analysis)
    reports = []
    for read in reads:
        assert isinstance(read, cst.Subscript) and isinstance(read.value, cst.Attribute)
        value = read.value.value
        if read in traced or is_name(value, "self", "cls"):
            continue
        if _comes_from_a_legacy_call(value, analysis, set()) or _from_another_library(value, analysis):
            continue
        code = one_line(analysis.module.code_for_node(value))
        message = (
            f"`{code}.choices[...]` reads a Chat Completions response, but the tool cannot trace `{code}` to a"
            " Chat Completions call: if it is one, migrate this read with that call (a `Response` has no"
            " `choices`; `output_text` holds the answer)"
        )
        reports.append(Report(read, message, confidence=Confidence.LOW))
    return reports


def _traced_reads(analysis) -> Set[cst.CSTNode]:
    """The nodes of every read the tool follows from a legacy call (the call reports those)."""
    traced: Set[cst.CSTNode] = set()
    calls = [site.call for site in analysis.call_sites()]
    for name, _ in analysis.imported_result_names():  # a function returning what another module's call returns
        parent = analysis.nodes.parents[name]
        if isinstance(parent, cst.Call) and parent.func is name:
            calls.append(parent)
    for call in calls:
        trace = analysis.flow.trace_result(call)
        for use in trace.uses:
            traced.update(use.chain)
            if isinstance(use.parent, cst.CompFor) and use.parent.iter is use.outer:
                traced.update(_item_reads(use.parent, analysis))  # the chunks of a stream (rule `stream_loops`)
            loop = loop_over(use, analysis)
            if loop is not None:
                traced.update(_item_reads(loop, analysis))
            if use.path[:2] == ("get_final_completion", "()"):  # what a `.stream()` helper ends with
                traced.update(node for final in analysis.flow.trace_result(use.chain[1]).uses for node in final.chain)
        for line in trace.aliases:  # ``message = resp.choices[0].message``, read through ``message``
            traced.update(node for node in walk(line) if _is_choices_read(node))
    return traced


def _item_reads(loop: Union[cst.For, cst.CompFor], analysis) -> List[cst.CSTNode]:
    """``chunk.choices[...]`` for ``for chunk in <a traced stream>:`` (or ``... for chunk in <it>``)."""
    assignment = analysis.bindings.binding(loop.target) if isinstance(loop.target, cst.Name) else None
    reads = [analysis.flow.use_of(read) for read in analysis.bindings.reads_of(assignment)] if assignment else []
    return [read.chain[1] for read in reads if read.path[:1] == ("choices",) and len(read.chain) > 1]


def _comes_from_a_legacy_call(value: cst.BaseExpression, analysis, seen: Set[cst.CSTNode]) -> bool:
    """Is ``value`` derived from the result of a legacy call (``raw.parse()`` of a raw response,
    ``stream.get_final_completion()``...), through names, ``await``, attributes and calls? Its
    call reports it then, or its own rules migrate it."""
    for made in analysis.bindings.bound_values(value):
        node = made
        while isinstance(node, (cst.Await, cst.Call, cst.Attribute, cst.Subscript)):
            if isinstance(node, cst.Call) and legacy_call(node) is not None:
                return True
            node = _inner(node)
        if node is not made and isinstance(node, cst.Name) and node not in seen:
            seen.add(node)
            if _comes_from_a_legacy_call(node, analysis, seen):
                return True
    return False


def _inner(node: cst.BaseExpression) -> cst.BaseExpression:
    """What an ``await``, a call, an attribute or a subscript is applied to."""
    if isinstance(node, cst.Await):
        return node.expression
    return node.func if isinstance(node, cst.Call) else node.value  # type: ignore[attr-defined]


def _from_another_library(value: cst.BaseExpression, analysis) -> bool:
    """Was ``value`` made by a function imported from a package other than openai, or is it a
    parameter annotated with such a package's type? A function handed a legacy method (or a
    function calling one) gives back what that method returns, whichever package it is from:
    ``asyncio.to_thread(client.chat.completions.create, ...)``."""
    for made in analysis.bindings.bound_values(value):
        if isinstance(made, cst.Await):
            made = made.expression
        if isinstance(made, cst.Call):
            handed = _receivers_handed(made)
            if handed:
                if all(is_other_sdk_client(receiver, analysis) for receiver in handed):
                    return True
                continue
            packages = _packages(made.func, analysis)
        elif isinstance(made, cst.Param) and made.annotation is not None:
            named = [node for node in walk(made.annotation) if isinstance(node, (cst.Name, cst.Attribute))]
            packages = {package for node in named for package in _packages(node, analysis)} - TYPING_PACKAGES
        else:
            continue
        if packages and "openai" not in packages:
            return True
    return False


def _receivers_handed(call: cst.Call) -> List[cst.BaseExpression]:
    """The receivers of the legacy methods in ``call``'s arguments, called there or not."""
    shapes = [legacy_method_reference(node) for arg in call.args for node in walk(arg.value)]
    return [shape[0] for shape in shapes if shape is not None]


def _packages(node: cst.CSTNode, analysis) -> Set[str]:
    """The top-level packages ``node`` is imported from (not this project's relative imports)."""
    return {name.split(".")[0] for name in analysis.imports.qualified(node, imported_only=True) if not name.startswith(".")}


def _is_choices_read(node: cst.CSTNode) -> bool:
    """``<value>.choices[<integer>]``."""
    if not (isinstance(node, cst.Subscript) and isinstance(node.value, cst.Attribute) and len(node.slice) == 1):
        return False
    index = node.slice[0].slice
    return node.value.attr.value == "choices" and isinstance(index, cst.Index) and isinstance(index.value, cst.Integer)
