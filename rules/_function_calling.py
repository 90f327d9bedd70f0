"""Function-calling shapes that several rules share: tool definitions, tool choices, and the
expressions that find the function calls in a Response.

| Chat Completions | Responses |
|---|---|
| `{"type": "function", "function": {"name", "description", "parameters", "strict"}}` | `{"type": "function", "name", "description", "parameters", "strict"}` |
| legacy `functions=[{"name", "description", "parameters"}]` item | the same flat tool |
| `tool_choice={"type": "function", "function": {"name": x}}` | `{"type": "function", "name": x}` |
| legacy `function_call={"name": x}` | `{"type": "function", "name": x}` |

Chat function tools are not strict unless they say so; Responses function tools are strict by
default, so a definition without ``strict`` gets ``"strict": False``.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Set, Union

import libcst as cst

from migrator.analysis import CallSite
from migrator.semantic.branches import always_leaves
from migrator.rule import Block, UseRewrite
from migrator.shapes import (
    chain_root_name,
    code_of,
    dict_entries,
    is_name,
    lifted,
    literal_string,
    needs_parentheses,
    one_line,
    separator,
    string_like,
)
from migrator.libcst_internals import children
from migrator.rules._streaming import chain_of

# Every function call of a Response, and whether there is one. ``{base}`` is the Response.
FUNCTION_CALLS = '[item for item in {base}.output if item.type == "function_call"]'
FINISH_REASON = ("choices", 0, "finish_reason")  # what a response ended for
TOOL_CALLS = ("choices", 0, "message", "tool_calls")  # the calls a response asks for
HAS_FUNCTION_CALL = 'any(item.type == "function_call" for item in {base}.output)'

FUNCTION_KEYS = frozenset({"name", "description", "parameters", "strict"})
LEGACY_FUNCTION_KEYS = frozenset({"name", "description", "parameters"})
TOOL_CHOICE_MODES = frozenset({"auto", "none", "required"})
LEGACY_FUNCTION_CALL_MODES = frozenset({"auto", "none"})
CHAT_STRICT_DEFAULT = "False"


def flat_tool(tool: cst.BaseExpression) -> Union[cst.Dict, Block]:
    """``{"type": "function", "function": {...}}`` -> ``{"type": "function", ...}``."""
    entries = dict_entries(tool)
    shown = f"`{one_line(code_of(tool), limit=40)}`"
    if entries is None:
        return Block(f"the tool {shown} is not a dict literal the tool can read")
    kind = literal_string(entries["type"].value) if "type" in entries else None
    if kind != "function" or set(entries) != {"type", "function"}:
        return Block(f"the tool {shown} is not a function tool the tool can map")
    function = _function_entries(entries["function"].value, FUNCTION_KEYS)
    if isinstance(function, Block):
        return function
    assert isinstance(tool, cst.Dict)
    flat = lifted(tool, entries["function"], added=_strict_default(function))
    if flat is None:
        return Block(f"a comment inside the tool {shown} would be lost; move it out of the nested dict")
    return flat


def flat_legacy_function(function: cst.BaseExpression) -> Union[cst.Dict, Block]:
    """A legacy ``functions=`` item ``{"name", ...}`` -> ``{"type": "function", "name", ...}``."""
    return _typed_function(function, LEGACY_FUNCTION_KEYS)


def flat_function(function: cst.BaseExpression) -> Union[cst.Dict, Block]:
    """A tool's ``function`` (``{"name", ..., "strict"}``) -> the flat tool ``{"type": "function", "name", ...}``."""
    return _typed_function(function, FUNCTION_KEYS)


def _typed_function(function: cst.BaseExpression, keys: frozenset) -> Union[cst.Dict, Block]:
    """``function``, its keys among ``keys``, with ``"type": "function"`` first and Chat's
    ``strict`` default last when it does not say."""
    entries = _function_entries(function, keys)
    if isinstance(entries, Block):
        return entries
    assert isinstance(function, cst.Dict)
    name = entries["name"]
    kind = cst.DictElement(key=string_like(name.key, "type"), value=string_like(name.value, "function"))
    comma = separator(function)
    *body, last = function.elements
    tail = [last]
    if "strict" not in entries:
        tail = [last.with_changes(comma=comma), *(e.with_changes(comma=last.comma) for e in _strict_default(entries))]
    return function.with_changes(elements=[kind.with_changes(comma=comma), *body, *tail])


def _strict_default(function: Dict[str, cst.DictElement]) -> List[cst.DictElement]:
    """``"strict": False`` when the function does not say: Chat's default, not the Responses one."""
    if "strict" in function:
        return []
    return [cst.DictElement(key=string_like(function["name"].key, "strict"), value=cst.Name(CHAT_STRICT_DEFAULT))]


def flat_tool_choice(choice: cst.BaseExpression) -> Union[cst.BaseExpression, Block]:
    """``"auto"`` / ``"none"`` / ``"required"`` unchanged; a named function made flat."""
    if literal_string(choice) in TOOL_CHOICE_MODES:
        return choice
    entries = dict_entries(choice)
    shown = f"`tool_choice={_code(choice)}`"
    if entries is None or set(entries) != {"type", "function"} or literal_string(entries["type"].value) != "function":
        return Block(f"{shown} is not a mode or a named function the tool can map")
    function = dict_entries(entries["function"].value)
    if function is None or set(function) != {"name"}:
        return Block(f"{shown} does not name its function in a dict literal the tool can read")
    assert isinstance(choice, cst.Dict)
    wrapper = entries["function"]
    name = function["name"].with_changes(comma=wrapper.comma)
    return choice.with_changes(elements=[name if e is wrapper else e for e in choice.elements])


def tool_choice_of_function_call(choice: cst.BaseExpression) -> Union[cst.BaseExpression, Block]:
    """Legacy ``function_call``: ``"auto"`` / ``"none"`` unchanged, ``{"name": x}`` named."""
    if literal_string(choice) in LEGACY_FUNCTION_CALL_MODES:
        return choice
    entries = dict_entries(choice)
    if entries is None or set(entries) != {"name"}:
        return Block(f"`function_call={_code(choice)}` is not a mode or a named function the tool can map")
    assert isinstance(choice, cst.Dict)
    name = entries["name"]
    kind = cst.DictElement(key=string_like(name.key, "type"), value=string_like(name.value, "function"))
    return choice.with_changes(elements=[kind.with_changes(comma=separator(choice)), *choice.elements])


def _function_entries(function: cst.BaseExpression, keys: frozenset) -> Union[Dict[str, cst.DictElement], Block]:
    entries = dict_entries(function)
    shown = f"`{one_line(code_of(function), limit=40)}`"
    if entries is None:
        return Block(f"the function {shown} is not a dict literal the tool can read")
    unknown = sorted(set(entries) - keys)
    if unknown:
        return Block(f"the function {shown} has {', '.join(f'`{k}`' for k in unknown)}, which the tool cannot map")
    if "name" not in entries:
        return Block(f"the function {shown} has no `name`")
    if "parameters" not in entries:
        # Chat reads a missing schema as "no parameters"; the Responses API requires one.
        return Block(f"the function {shown} has no `parameters`, which Responses function tools require")
    return entries


def is_truth_test(node: cst.CSTNode, analysis) -> bool:
    """Is ``node`` only tested for truth (``if x:``, ``not x``, ``x and y`` in a test)?"""
    parent = analysis.nodes.parents.get(node)
    if isinstance(parent, (cst.If, cst.While, cst.IfExp, cst.Assert)):
        return parent.test is node
    if isinstance(parent, cst.CompIf):
        return True
    if isinstance(parent, cst.UnaryOperation):
        return isinstance(parent.operator, cst.Not)
    if isinstance(parent, cst.BooleanOperation):  # its value is an operand: tested only if it is
        return is_truth_test(parent, analysis)
    return False


def none_test(node: cst.CSTNode, analysis) -> Optional[bool]:
    """For ``node is None`` True, for ``node is not None`` False, otherwise None."""
    parent = analysis.nodes.parents.get(node)
    if not (isinstance(parent, cst.Comparison) and parent.left is node and len(parent.comparisons) == 1):
        return None
    comparison = parent.comparisons[0]
    if not is_name(comparison.comparator, "None"):
        return None
    if isinstance(comparison.operator, cst.Is):
        return True
    return False if isinstance(comparison.operator, cst.IsNot) else None


def replaced(use, length: int, template: str, analysis, target: Optional[cst.CSTNode] = None) -> Union[UseRewrite, Block]:
    """``use.replace(...)``, the template's string literals in a quote that can stand where the
    use does (inside an f-string, not the f-string's own)."""
    quote = analysis.nodes.free_quote(use.outer)
    if quote is None:
        return Block(f"`{use.code}` sits in f-strings that take both quotes, so the rewrite's strings cannot go there")
    return use.replace(length, template.replace('"', quote), target)


def presence_test(use, length: int, analysis) -> Union[UseRewrite, Block, None]:
    """A test of whether the model called a function, read as ``use.path[:length]`` (the tool
    calls, or the legacy function call, both ``None`` without a call): tested for truth, or
    compared with ``None``; None for any other use."""
    if is_truth_test(use.outer, analysis):
        return replaced(use, length, HAS_FUNCTION_CALL, analysis)
    absent = none_test(use.outer, analysis)
    if absent is None:
        return None
    if not absent:
        return replaced(use, length, HAS_FUNCTION_CALL, analysis, target=use.parent)
    template = f"not {HAS_FUNCTION_CALL}"
    template = f"({template})" if needs_parentheses(use.grandparent) else template
    return replaced(use, length, template, analysis, target=use.parent)


def used_in(use, analysis) -> str:
    """The code around a read, for a message: the call it is passed to, or what contains it."""
    around = analysis.nodes.parents.get(use.parent) if isinstance(use.parent, cst.Arg) else use.parent
    return _code(around if around is not None else use.outer)


def content_may_be_none(use, site: CallSite) -> bool:
    """Can the message content read by ``use`` be ``None`` because the model only called tools?

    Chat's content is then ``None`` where ``output_text`` is ``""``. Not when the call cannot make
    tool calls, when the content is only tested for truth or read as ``content or default``, when
    it is read only where the same response has no tool calls (``if not message.tool_calls:``,
    the ``else`` of ``if message.tool_calls:``, after ``if message.tool_calls: ... continue``, or
    after ``if message.tool_calls: ...; response = <next call>`` for a read of ``response``),
    or where a test of the content itself has found text (``if message.content: print(...)``). A
    name the content is assigned to (``text = message.content``) is followed the same way.
    """
    if not _may_call_tools(site):
        return False
    node = use.outer
    if _none_cannot_show(node, _content_tests(site), site.analysis) or _only_without_tool_calls(node, site):
        return False
    held = assigned_name(node, site.analysis)
    if held is None:
        return True
    trace = site.analysis.flow.trace_name(held)
    if trace.escapes or trace.exported_functions:
        return True
    tests = {read.outer for read in trace.uses if not read.path and is_truth_test(read.outer, site.analysis)}
    return not all(
        _found_true(read.base, tests, site.analysis) if read.path else _none_cannot_show(read.outer, tests, site.analysis)
        for read in trace.uses
    )


def _content_tests(site: CallSite) -> Set[cst.CSTNode]:
    """The reads of the content of ``site``'s response that test it for truth."""
    analysis = site.analysis
    return {
        use.outer
        for use in analysis.flow.trace_result(site.call).uses
        if use.path == ("choices", 0, "message", "content") and is_truth_test(use.outer, analysis)
    }


def _none_cannot_show(node: cst.CSTNode, tests: Set[cst.CSTNode], analysis) -> bool:
    """Does ``node`` read the same whether it is ``None`` or ``""``: tested for truth, read as
    ``node or default``, or read where one of ``tests`` (truth tests of it) found it true?"""
    parent = analysis.nodes.parents.get(node)
    if is_truth_test(node, analysis):
        return True
    if isinstance(parent, cst.BooleanOperation) and isinstance(parent.operator, cst.Or) and parent.left is node:
        return True
    return _found_true(node, tests, analysis)


def _found_true(node: cst.CSTNode, tests: Set[cst.CSTNode], analysis) -> bool:
    """Is ``node`` read only where one of ``tests`` found it true (the body of ``if test:``, the
    right of ``test and ...``)?"""
    child, parent = node, analysis.nodes.parents.get(node)
    while parent is not None and not isinstance(parent, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
        if isinstance(parent, cst.If) and child is parent.body and _requires(parent.test, tests):
            return True
        if isinstance(parent, cst.BooleanOperation) and isinstance(parent.operator, cst.And) and child is parent.right and _requires(parent.left, tests):
            return True
        child, parent = parent, analysis.nodes.parents.get(parent)
    return False


def _requires(test: cst.BaseExpression, tests: Set[cst.CSTNode]) -> bool:
    """Is ``test`` true only when one of ``tests`` is: it is one, or an ``and`` of one?"""
    if test in tests:
        return True
    return isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And) and (
        _requires(test.left, tests) or _requires(test.right, tests)
    )


def assigned_name(node: cst.CSTNode, analysis) -> Optional[cst.Name]:
    """The name ``node`` is the whole value of: ``text = message.content``."""
    assign = analysis.nodes.parents.get(node)
    if isinstance(assign, cst.Assign) and assign.value is node and len(assign.targets) == 1:
        target = assign.targets[0].target
        return target if isinstance(target, cst.Name) else None
    return None


def _may_call_tools(site: CallSite) -> bool:
    for tools, choice in (("tools", "tool_choice"), ("functions", "function_call")):
        argument = site.argument(tools)
        if argument is not None and not (isinstance(argument.value, cst.List) and not argument.value.elements):
            chosen = site.argument(choice)
            if chosen is None or literal_string(chosen.value) != "none":
                return True
    return False


def _calls_tests(site: CallSite) -> Set[cst.CSTNode]:
    """The reads of the tool calls (or the legacy function call) of ``site``'s response after
    the call, which an ``if`` may test; and those of a name holding ``message.tool_calls or
    []``, which is true exactly where the calls are."""
    analysis = site.analysis
    reads = {
        use.outer
        for use in analysis.flow.trace_result(site.call).uses
        if use.path[:3] == ("choices", 0, "message") and use.path[3:] in (("tool_calls",), ("function_call",))
        and analysis.nodes.positions[use.outer].start.line > site.position.start.line
    }
    for read in list(reads):
        held = assigned_name(analysis.nodes.parents.get(read), analysis) if is_or_empty(analysis.nodes.parents.get(read), read) else None
        if held is not None:
            reads.update(use.outer for use in analysis.flow.trace_name(held).uses if not use.path)
    return reads


def _finish_tests(site: CallSite) -> Set[cst.CSTNode]:
    """The tests ``resp.choices[0].finish_reason == "tool_calls"`` of ``site``'s response (rule
    ``finish_reason`` migrates them only where no tool is forced, where a response with tool
    calls always ends for that reason, and one without never does)."""
    analysis = site.analysis
    tests = set()
    for use in analysis.flow.trace_result(site.call).uses:
        test, root = use.parent, chain_root_name(use.outer)
        if use.path == FINISH_REASON and isinstance(test, cst.Comparison) and test.left is use.outer and root is not None and _ends_for_tool_calls(test, root.value):
            tests.add(test)
    return tests


def is_or_empty(node: Optional[cst.CSTNode], left: cst.CSTNode) -> bool:
    """Is ``node`` ``left or []`` (or ``left or ()``)?"""
    return (
        isinstance(node, cst.BooleanOperation)
        and isinstance(node.operator, cst.Or)
        and node.left is left
        and isinstance(node.right, (cst.List, cst.Tuple))
        and not node.right.elements
    )


def only_with_tool_calls(node: cst.CSTNode, site: CallSite) -> bool:
    """Is ``node`` read only where the response has tool calls: in the body of ``if
    message.tool_calls:`` (or the ``else`` of ``if not message.tool_calls:``), or past ``if not
    message.tool_calls:`` that always leaves the block (``break``, ``return``...)?"""
    return _only_where_calls(node, site, present=True)


def _only_without_tool_calls(node: cst.CSTNode, site: CallSite) -> bool:
    """The same where the response has none; past the loops and the rebindings of the
    response's name that are left only without calls too."""
    return _only_where_calls(node, site, present=False)


def _only_where_calls(node: cst.CSTNode, site: CallSite, present: bool) -> bool:
    analysis = site.analysis
    tests = _calls_tests(site)
    finish_tests = _finish_tests(site) if not present else set()
    root = chain_root_name(node)
    child, parent = node, analysis.nodes.parents.get(node)
    while parent is not None and not isinstance(parent, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
        if isinstance(parent, cst.If):
            if child is parent.body and _tests_calls(parent.test, tests, present=present):
                return True
            if child is parent.orelse and _tests_calls(parent.test, tests, present=not present):
                return True
        if isinstance(parent, (cst.IndentedBlock, cst.Module)):
            earlier_statements = parent.body[: list(parent.body).index(child)]
            for index, earlier in enumerate(earlier_statements):
                if _leaves_when(earlier, tests, present=not present):
                    return True
                if not present and _left_without_calls(earlier, earlier_statements[index + 1 :], tests, finish_tests, root, analysis):
                    return True
        child, parent = parent, analysis.nodes.parents.get(parent)
    return False


def _left_without_calls(
    statement: cst.CSTNode, later: Sequence[cst.CSTNode], tests: Set[cst.CSTNode], finish_tests: Set[cst.CSTNode], root: Optional[cst.Name], analysis
) -> bool:
    """Does the code past ``statement`` (followed by ``later`` in its block) run only where the
    response read from ``root`` has no tool calls: a ``while True:`` left by a ``break`` without
    calls, ``if calls: ...; response = <next call>``, or ``while response... == "tool_calls":``
    with nothing binding the name after it?"""
    if _loops_until_no_calls(statement, tests, analysis):
        return True
    if root is None:
        return False
    return _rebinds_when_calls(statement, tests | finish_tests, root.value, analysis) or (
        _loops_while_calls(statement, root.value) and not analysis.bindings.bound_in(root, later)
    )


def _tests_calls(test: cst.BaseExpression, tests: Set[cst.CSTNode], present: bool) -> bool:
    """Is ``test`` ``message.tool_calls`` (``present``) or ``not message.tool_calls``?"""
    if present:
        return test in tests
    return isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not) and test.expression in tests


def _leaves_when(statement: cst.CSTNode, tests: Set[cst.CSTNode], present: bool) -> bool:
    """``if message.tool_calls: ...`` (``present``) or ``if not message.tool_calls: ...``, with no
    ``else``, ending in ``continue`` / ``break`` / ``return`` / ``raise``."""
    return (
        isinstance(statement, cst.If) and statement.orelse is None and _tests_calls(statement.test, tests, present=present)
        and always_leaves(statement.body)
    )


def _rebinds_when_calls(statement: cst.CSTNode, tests: Set[cst.CSTNode], name: str, analysis) -> bool:
    """``if message.tool_calls: ...; response = <the next call>`` (or ``if
    response.choices[0].finish_reason == "tool_calls":``), with ``name`` bound to a Chat call
    by one of the body's own lines: past it, ``name`` holds this response only where it had no
    tool calls. A ``break``, ``continue``, ``return`` or exception before that line leaves the
    block the read is in; the read is reached again only through the test."""
    if not (isinstance(statement, cst.If) and statement.orelse is None):
        return False
    if not _tests_calls(statement.test, tests, present=True):
        return False
    calls = {site.call for site in analysis.call_sites()}
    return any(
        isinstance(line, cst.SimpleStatementLine)
        and any(
            isinstance(small, cst.Assign) and any(is_name(target.target, name) for target in small.targets) and _awaited_call(small.value) in calls
            for small in line.body
        )
        for line in statement.body.body
    )


def _awaited_call(value: cst.BaseExpression) -> cst.BaseExpression:
    """The call ``await call`` awaits; ``value`` itself otherwise."""
    return value.expression if isinstance(value, cst.Await) else value


def _loops_until_no_calls(statement: cst.CSTNode, tests: Set[cst.CSTNode], analysis) -> bool:
    """``while True:`` left only by a ``break`` under ``if not message.tool_calls:``."""
    if not (isinstance(statement, cst.While) and is_name(statement.test, "True")):
        return False
    breaks = [node for node in _own_statements(statement.body) if isinstance(node, cst.Break)]
    for leave in breaks:
        body = analysis.nodes.parents.get(leave)  # a one-line ``if x: break``, or the line in a block
        if isinstance(body, cst.SimpleStatementLine):
            body = analysis.nodes.parents.get(body)
        condition = analysis.nodes.parents.get(body)
        if not (isinstance(condition, cst.If) and condition.body is body and _tests_calls(condition.test, tests, present=False)):
            return False
    return bool(breaks)


def _loops_while_calls(statement: cst.CSTNode, name: str) -> bool:
    """``while name.choices[0].message.tool_calls:`` or ``while name.choices[0].finish_reason ==
    "tool_calls":``, with no ``break`` of its own: past it, ``name``'s response asked for no
    tool. (Rule ``finish_reason`` migrates the second test only where no call is forced, where a
    response with tool calls always ends for that reason.)"""
    if not isinstance(statement, cst.While) or statement.orelse is not None:
        return False
    if chain_of(statement.test) != (name, TOOL_CALLS) and not _ends_for_tool_calls(statement.test, name):
        return False
    return not any(isinstance(node, cst.Break) for node in _own_statements(statement.body))


def _ends_for_tool_calls(test: cst.BaseExpression, name: str) -> bool:
    """``name.choices[0].finish_reason == "tool_calls"``."""
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.comparisons[0].operator, cst.Equal)):
        return False
    return literal_string(test.comparisons[0].comparator) == "tool_calls" and chain_of(test.left) == (name, FINISH_REASON)


def _own_statements(node: cst.CSTNode):
    """The nodes of a loop body, not looking into nested loops or functions (their ``break``s
    are theirs)."""
    for child in children(node):
        yield child
        if not isinstance(child, (cst.For, cst.While, cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            yield from _own_statements(child)


def _code(node: cst.CSTNode) -> str:
    return one_line(code_of(node), limit=40)
