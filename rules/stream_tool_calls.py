"""
## What it does
Migrates a loop over a streamed Chat Completion that collects the streamed tool calls in a dict
keyed by the tool call's `index` (the other statements of the loop are migrated as by
`stream_loops`):

```python
for chunk in stream:
    for tool_call in chunk.choices[0].delta.tool_calls or []:
        if tool_call.index not in calls:
            calls[tool_call.index] = {"id": tool_call.id, "name": tool_call.function.name, "arguments": ""}
        calls[tool_call.index]["arguments"] += tool_call.function.arguments
```

A Responses stream announces each function call with a `response.output_item.added` event
whose `item` has the `call_id` and `name`, then streams its arguments in
`response.function_call_arguments.delta` events; both carry the call's `output_index`.
The loop over the tool calls may also be `if delta.tool_calls: for tool_call in delta.tool_calls:`,
take the index into a name first (`index = tool_call.index`), or test
`if tool_call.function.arguments:` before adding them.

## Why
A Responses stream has no `choices[0].delta.tool_calls`: the loop would collect nothing and
the calls would never run.

## Example
```python
calls = {}
for chunk in stream:
    for tool_call in chunk.choices[0].delta.tool_calls or []:
        if tool_call.index not in calls:
            calls[tool_call.index] = {"id": tool_call.id, "name": tool_call.function.name, "arguments": ""}
        calls[tool_call.index]["arguments"] += tool_call.function.arguments
for call in calls.values():
    run(call["name"], json.loads(call["arguments"]))
```

## Use instead
```python
calls = {}
for event in _stream_events(stream):
    if event.type == "response.output_item.added" and event.item.type == "function_call":
        calls[event.output_index] = {"id": event.item.call_id, "name": event.item.name, "arguments": ""}
    elif event.type == "response.function_call_arguments.delta":
        calls[event.output_index]["arguments"] += event.delta
for call in calls.values():
    run(call["name"], json.loads(call["arguments"]))
```
The stream is read through `_stream_events`, which raises `APIError` when the service fails
partway, as the Chat stream did (see `stream_loops`).

## Fix safety
Safe for the shape above. The keys of the dict change: a Chat tool call's `index` counts the
tool calls (0, 1, ...), a Responses `output_index` counts every output item, the message
before the calls included. So the dict must be created empty and, outside the loop, only be
read in ways that do not see the keys: `calls.values()`, `len(calls)`, or tested for emptiness;
otherwise (`calls[0]`, `calls.items()`, passed elsewhere) the call is reported. So is any other
way of collecting the calls (a list, the delta objects themselves, the `type` of a call), and a
read of the tool call outside that loop.
"""

from typing import List, Optional, Tuple, Union

import libcst as cst

from migrator.rules._chunk_loops import TOOL_CALLS, ChunkLoop, is_streamed, loop_over
from migrator.rules._stream_failures import EXAMPLE_HEADER
from migrator.model import FixSafety
from migrator.rule import Block, Example, Rule
from migrator.shapes import code_of, dict_entries, is_name, literal_string, one_line
from migrator.rules._streaming import Segment, gate_test, in_order, is_inside

ADDED_GATE = ('{event}.type == "response.output_item.added"', '{event}.item.type == "function_call"')
ARGUMENTS_GATE = ('{event}.type == "response.function_call_arguments.delta"',)
# A tool-call delta's fields (from the loop variable) -> the function_call item's.
ITEM_FIELDS = {("id",): "call_id", ("function", "name"): "name", ("function", "arguments"): "arguments"}
CONSTANTS = (cst.SimpleString, cst.Integer, cst.Float)

RULE = Rule(
    title="Streamed tool calls",
    safety=FixSafety.SAFE,
    needs=("tool_calls",),
    examples=[
        Example(
            before=(
                "from openai import OpenAI\n"
                "client = OpenAI()\n"
                'stream = client.chat.completions.create(model="gpt-4o", messages=m, stream=True)\n'
                "calls = {}\n"
                "for chunk in stream:\n"
                "    for tool_call in chunk.choices[0].delta.tool_calls or []:\n"
                "        if tool_call.index not in calls:\n"
                '            calls[tool_call.index] = {"name": tool_call.function.name, "arguments": ""}\n'
                '        calls[tool_call.index]["arguments"] += tool_call.function.arguments\n'
                "print(len(calls))\n"
            ),
            after=(
                f"{EXAMPLE_HEADER}"
                "client = OpenAI()\n"
                'stream = client.responses.create(model="gpt-4o", input=m, stream=True)\n'
                "calls = {}\n"
                "for event in _stream_events(stream):\n"
                '    if event.type == "response.output_item.added" and event.item.type == "function_call":\n'
                '        calls[event.output_index] = {"name": event.item.name, "arguments": ""}\n'
                '    elif event.type == "response.function_call_arguments.delta":\n'
                '        calls[event.output_index]["arguments"] += event.delta\n'
                "print(len(calls))\n"
            ),
        ),
        Example(
            before=(
                "from openai import OpenAI\n"
                "client = OpenAI()\n"
                'stream = client.chat.completions.create(model="gpt-4o", messages=m, stream=True)\n'
                "calls = {}\n"
                "for chunk in stream:\n"
                "    for tool_call in chunk.choices[0].delta.tool_calls or []:\n"
                "        if tool_call.index not in calls:\n"
                '            calls[tool_call.index] = {"name": tool_call.function.name, "arguments": ""}\n'
                '        calls[tool_call.index]["arguments"] += tool_call.function.arguments\n'
                'print(calls[0]["name"])\n'
            ),
            finding="sees their keys",
        ),
    ],
)


@RULE.result_use
def tool_call_loop(use, site):
    if not (is_streamed(site, use.outer) and loop_over(use, site.analysis) is not None):
        return None
    loop = ChunkLoop(use, site, tool_calls=collected_tool_calls)
    outcome = loop.plan()
    return outcome if loop.reads_tool_calls else None


def collected_tool_calls(loop: ChunkLoop, index: int, statement: cst.BaseStatement) -> Union[Segment, Block]:
    """The segment for a statement of the loop body that reads ``delta.tool_calls``."""
    reads = loop.reads_in(statement)
    odd = next((read for read in reads if read.path != TOOL_CALLS), None)
    if odd is not None:
        return Block(f"`{odd.code}` reads the tool calls of a chunk in a way the tool cannot map")
    inner = _loop_over_tool_calls(statement, [read.node for read in reads])
    if inner is None:
        return Block(
            f"`{one_line(code_of(statement))}` does not loop over `tool_calls or []` (or under `if ...tool_calls:`)"
        )
    problem = loop.check_choices_tested(reads)
    if problem is not None:
        return problem
    collected = _Collected.match(inner)
    if isinstance(collected, str):
        return Block(collected)
    problem = collected.check_reads(loop)
    if problem is not None:
        return Block(problem)
    return Segment([index], lambda nodes, rewrite: [collected.events_code(loop.event, nodes[0])])


def _loop_over_tool_calls(statement: cst.BaseStatement, reads: List[cst.CSTNode]) -> Optional[cst.For]:
    """``for tc in <tool_calls> or []:``, or ``if <tool_calls>: for tc in <tool_calls>:``."""
    if isinstance(statement, cst.For) and statement.orelse is None and not statement.asynchronous:
        iterated = statement.iter
        or_empty_list = _is_or(iterated) and isinstance(iterated.right, cst.List) and not iterated.right.elements
        if or_empty_list and len(reads) == 1:
            return statement if iterated.left is reads[0] else None
    if isinstance(statement, cst.If) and statement.orelse is None and len(reads) == 2 and statement.test is reads[0]:
        body = statement.body.body
        if len(body) == 1 and isinstance(body[0], cst.For) and body[0].orelse is None and body[0].iter is reads[1]:
            return body[0] if not body[0].asynchronous else None
    return None


class _Collected:
    """``calls[i] = {...}`` on a tool call's first delta, ``calls[i][KEY] += arguments`` on each."""

    def __init__(self, inner: cst.For, calls: cst.Name, entry: cst.Dict, key: cst.SimpleString, index: Optional[cst.Name]):
        self.inner = inner  # the loop over the tool calls of one chunk
        self.calls = calls  # the dict, as read in `if i not in calls`
        self.entry = entry  # the dict literal a new call starts as
        self.key = key  # the entry's key the arguments are added to
        self.index = index  # the name holding the tool call's index, if any

    @property
    def tool_call(self) -> str:
        return self.inner.target.value

    @classmethod
    def match(cls, inner: cst.For) -> Union["_Collected", str]:
        """The statements of the loop over the tool calls, if they have this shape (the
        patterns leave no other place for the tool call to be read)."""
        # LibCST's matchers cost more to load than LibCST itself: only such loops pay for them.
        import libcst.matchers as m

        if not isinstance(inner.target, cst.Name):
            return "the loop over the tool calls unpacks them"
        tool_call = inner.target.value
        statements = list(inner.body.body)
        index = m.Attribute(value=m.Name(tool_call), attr=m.Name("index"))
        index_name = None
        if statements and m.matches(statements[0], m.SimpleStatementLine([m.Assign([m.AssignTarget(m.Name())], index)])):
            index_name = statements.pop(0).body[0].targets[0].target
            index = m.Name(index_name.value)
        first = _first_delta(statements[0], index) if len(statements) == 2 else None
        rest = _arguments_delta(statements[1], index, tool_call) if len(statements) == 2 else None
        if first is None or rest is None:
            return f"the loop over `{tool_call}` does more than collect each call and add its arguments"
        (tested, stored, entry), (added, key) = first, rest
        if not tested.value == stored == added:
            return "the tool calls are collected in more than one dict"
        return cls(inner, tested, entry, key, index_name)

    def check_reads(self, loop: ChunkLoop) -> Optional[str]:
        return self._check_entry() or self._check_loop_names(loop) or self._check_dict(loop)

    def _check_entry(self) -> Optional[str]:
        entries = dict_entries(self.entry)
        if entries is None:
            return "the dict a new call starts as is not a literal with string keys"
        key = literal_string(self.key)
        start = entries[key].value if key in entries else None
        if start is None or not (literal_string(start) == "" or self._field(start) == ("function", "arguments")):
            return f"the arguments are added to `{key}`, which a new call does not start with empty or with its arguments"
        for element in entries.values():
            if self._field(element.value) not in ITEM_FIELDS and not _is_constant(element.value):
                return f"`{one_line(code_of(element.value))}` has no equivalent on a Responses function call"
        return None

    def _field(self, node: cst.BaseExpression) -> Optional[Tuple[str, ...]]:
        """``tool_call.function.name`` (or ``... or ""``) -> ("function", "name")."""
        if _is_or(node) and _is_empty_string(node.right):
            node = node.left  # the first delta of a call has all three: `or ""` changes nothing
        path: List[str] = []
        while isinstance(node, cst.Attribute):
            path.insert(0, node.attr.value)
            node = node.value
        return tuple(path) if is_name(node, self.tool_call) else None

    def _check_loop_names(self, loop: ChunkLoop) -> Optional[str]:
        """The tool call and its index are not read after their loop (they hold the last one)."""
        for target in filter(None, [self.inner.target, self.index]):
            assignment = loop.analysis.bindings.binding(target)
            if assignment is None or not all(is_inside(loop.analysis, read, self.inner.body) for read in loop.analysis.bindings.reads_of(assignment)):
                return f"`{target.value}` is read outside the loop over the tool calls"
        return None

    def _check_dict(self, loop: ChunkLoop) -> Optional[str]:
        """Created empty; outside this loop only read in ways that do not see the keys."""
        analysis = loop.analysis
        name = self.calls.value
        assignments = {assignment.node: assignment for assignment in analysis.bindings.referents(self.calls)}
        if not assignments:
            return f"`{name}` is not created as an empty dict in this module"
        for node in in_order(analysis, assignments):
            statement = analysis.nodes.parents.get(node)
            if isinstance(statement, cst.AssignTarget):
                statement = analysis.nodes.parents[statement]
            created = statement.value if isinstance(statement, (cst.Assign, cst.AnnAssign)) else None
            if not (isinstance(created, cst.Dict) and not created.elements):
                return f"`{name}` is not created as an empty dict, so its keys may already mean something"
            for read in analysis.bindings.reads_of(assignments[node]):
                if is_inside(analysis, read, self.inner):
                    continue
                if is_inside(analysis, read, loop.loop):
                    return f"`{name}` is also used elsewhere in the loop over the stream"
                problem = _key_agnostic(analysis.flow.use_of(read))
                if problem is not None:
                    return problem
        return None

    def events_code(self, event: str, original: cst.BaseStatement) -> cst.If:
        """The two event branches that collect the same dict."""
        at = f"{self.calls.value}[{event}.output_index]"
        entry = self.entry.with_changes(
            elements=[element.with_changes(value=self._item_value(element.value, event)) for element in self.entry.elements]
        )
        added = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.parse_expression(at))], entry)])
        arguments = cst.parse_statement(f"{at}[{code_of(self.key)}] += {event}.delta\n")
        return cst.If(
            test=gate_test(ADDED_GATE, event),
            body=cst.IndentedBlock([added]),
            orelse=cst.If(test=gate_test(ARGUMENTS_GATE, event), body=cst.IndentedBlock([arguments])),
            leading_lines=original.leading_lines,
        )

    def _item_value(self, value: cst.BaseExpression, event: str) -> cst.BaseExpression:
        field = self._field(value)
        return cst.parse_expression(f"{event}.item.{ITEM_FIELDS[field]}") if field in ITEM_FIELDS else value


def _first_delta(statement, index) -> Optional[Tuple[cst.Name, str, cst.Dict]]:
    """``if <index> not in calls: calls[<index>] = {...}``."""
    import libcst.matchers as m

    pattern = m.If(
        test=m.Comparison(left=index, comparisons=[m.ComparisonTarget(m.NotIn(), m.Name())]),
        body=m.IndentedBlock([m.SimpleStatementLine([m.Assign([m.AssignTarget(m.Subscript(m.Name(), [m.SubscriptElement(m.Index(index))]))], m.Dict())])]),
        orelse=None,
    )
    if not m.matches(statement, pattern):
        return None
    assign = statement.body.body[0].body[0]
    return statement.test.comparisons[0].comparator, assign.targets[0].target.value.value, assign.value


def _arguments_delta(statement, index, tool_call: str) -> Optional[Tuple[str, cst.SimpleString]]:
    """``calls[<index>][KEY] += tc.function.arguments`` (or ``... or ""``), maybe under
    ``if tc.function.arguments:``."""
    import libcst.matchers as m

    arguments = m.Attribute(value=m.Attribute(value=m.Name(tool_call), attr=m.Name("function")), attr=m.Name("arguments"))
    added = m.SimpleStatementLine([
        m.AugAssign(
            target=m.Subscript(
                value=m.Subscript(m.Name(), [m.SubscriptElement(m.Index(index))]),
                slice=[m.SubscriptElement(m.Index(m.SimpleString()))],
            ),
            operator=m.AddAssign(),
            value=arguments | m.BooleanOperation(left=arguments, operator=m.Or(), right=m.MatchIfTrue(_is_empty_string)),
        )
    ])
    if m.matches(statement, m.If(test=arguments, body=m.IndentedBlock([added]), orelse=None)):
        statement = statement.body.body[0]
    if not m.matches(statement, added):
        return None
    target = statement.body[0].target  # calls[<index>][KEY]
    return target.value.value.value, target.slice[0].slice.value


def _is_constant(node: cst.BaseExpression) -> bool:
    return isinstance(node, CONSTANTS) or is_name(node, "None", "True", "False")


def _is_or(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.BooleanOperation) and isinstance(node.operator, cst.Or)


def _is_empty_string(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.SimpleString) and node.value in ('""', "''")


def _key_agnostic(use) -> Optional[str]:
    """``calls.values()``, ``len(calls)``, ``if calls:``: reads that do not see the keys."""
    parent = use.parent
    if use.path[:2] == ("values", "()"):
        return None
    call = use.grandparent
    if not use.path and isinstance(parent, cst.Arg) and isinstance(call, cst.Call) and is_name(call.func, "len") and len(call.args) == 1:
        return None
    negated = isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not)
    if not use.path and (isinstance(parent, (cst.If, cst.While)) or negated):
        return None
    return (
        f"the collected calls are read as `{use.code}`, which sees their keys: a Responses stream"
        " numbers them by output item, counting the message before them"
    )
