"""
## What it does
Moves the streaming helper `client.chat.completions.stream(...)` (and its alias
`client.beta.chat.completions.stream(...)`) to `client.responses.stream(...)`, with the loop
over its events and the final result:

| Chat helper event | Responses event |
|---|---|
| `"content.delta"`: `.delta`, `.snapshot` | `"response.output_text.delta"`: `.delta`, `.snapshot` |
| `"content.done"`: `.content` | `"response.output_text.done"`: `.text` |
| `"refusal.delta"`: `.delta` / `"refusal.done"`: `.refusal` | `"response.refusal.delta"`: `.delta` / `"response.refusal.done"`: `.refusal` |
| `"tool_calls.function.arguments.delta"`: `.arguments_delta`, `.arguments` | `"response.function_call_arguments.delta"`: `.delta`, `.snapshot` |
| `"tool_calls.function.arguments.done"`: `.arguments` | `"response.function_call_arguments.done"`: `.arguments` |
| `stream.get_final_completion()` | `stream.get_final_response()`, read as a Response (see `response_fields`) |

`stream.until_done()` and `stream.close()` are the same on both.

Where the final completion is not read, the call becomes `client.responses.create(...,
stream=True)`, also a context manager, and the loop reads its events through the module's
`_stream_events` helper (see `stream_loops`): the Responses helper hands a failure partway
through (an `error` or `response.failed` event) to the loop like any other event, where the
Chat helper raised `APIError`, and only `get_final_response()` raises then.

## Why
The Chat helper's events and its `ParsedChatCompletion` do not exist on the Responses side;
`client.responses.stream(...)` is the same kind of context manager, with typed events and
`get_final_response()`.

## Example
```python
with client.chat.completions.stream(model="gpt-4o-mini", messages=msgs) as stream:
    for event in stream:
        if event.type == "content.delta":
            print(event.delta, end="")
    completion = stream.get_final_completion()
print(completion.choices[0].message.content)
```

## Use instead
```python
with client.responses.stream(model="gpt-4o-mini", input=msgs) as stream:
    for event in stream:
        if event.type == "response.output_text.delta":
            print(event.delta, end="")
    completion = stream.get_final_response()
print(completion.output_text)
```

and, with no final completion read:

```python
with client.responses.create(model="gpt-4o-mini", input=msgs, stream=True) as stream:
    for event in _stream_events(stream):
        if event.type == "response.output_text.delta":
            print(event.delta, end="")
```

## Fix safety
Safe for the events and fields above. The loop body must test the event type in every
statement (`if` / `elif` on `event.type == "..."`, no `else`): other statements would run once
per event, and the two helpers send different events. The Chat helper sends a
`content.delta` (and a first `tool_calls.function.arguments.delta`) with an empty delta that the
Responses stream does not send, so those branches must do nothing for an empty delta (see
`stream_loops`: `print(event.delta, end="")`, `text += event.delta`, or a test that the delta is
not empty). A failure partway through raises in both programs only if nothing runs between the
loop and `get_final_completion()` (the Responses helper raises a `RuntimeError` there, where the
Chat helper raised `APIError` in the loop); without a final completion, `until_done()` and the
events' `snapshot` (which only the Responses helper keeps) are reported. An answer cut short (by `max_tokens`, or the content filter) makes both
`get_final_completion()` and `get_final_response()` raise, with different exceptions: a call
inside `try` is reported, and so is one in a module that names `LengthFinishReasonError`,
`ContentFilterFinishReasonError` or `OpenAIError`, or whose function (or class) holding it is
imported by a module with an `except` naming one of them. The final completion's `usage` is
`None` unless the call asks for it (`stream_options={"include_usage": True}`), where a Response
always has its usage: a read of it in a call that does not ask is reported. With `response_format` or strict tools (or tools the tool cannot read)
the Chat helper already raises while iterating such an answer, where the loop over a Responses
stream runs to the end: an event loop over such a call is reported. Other events (`chunk`,
`logprobs.*`), the tool call's `name`, `index` and `parsed_arguments`, `.parsed`,
`current_completion_snapshot`, and the stream used any other way, have no equivalent and are
reported.
"""

from typing import Dict, List, Optional, Tuple, Union

import libcst as cst

from migrator.rules._required_arguments import missing_required
from migrator.semantic.flow import CALL
from migrator.model import FixSafety
from migrator.rule import Block, Example, Follow, NewArgument, Retarget, Rule, UseRewrite
from migrator.shapes import code_of, dict_entries, is_constant, literal_string, one_line, string_like
from migrator.rules._chunk_loops import includes_usage
from migrator.rules._cut_short import cut_short_handled
from migrator.rules._stream_failures import EXAMPLE_HEADER, events_of, helper_needs
from migrator.rules._streaming import STRING, EmptyText, if_chain, is_inside, spelled_names

# Chat helper event -> (Responses event, {Chat field: Responses field}).
EVENTS: Dict[str, Tuple[str, Dict[str, str]]] = {
    "content.delta": ("response.output_text.delta", {"delta": "delta", "snapshot": "snapshot"}),
    "content.done": ("response.output_text.done", {"content": "text"}),
    "refusal.delta": ("response.refusal.delta", {"delta": "delta"}),
    "refusal.done": ("response.refusal.done", {"refusal": "refusal"}),
    "tool_calls.function.arguments.delta": (
        "response.function_call_arguments.delta",
        {"arguments_delta": "delta", "arguments": "snapshot"},
    ),
    "tool_calls.function.arguments.done": ("response.function_call_arguments.done", {"arguments": "arguments"}),
}
# Events the Chat helper also sends with an empty delta (the delta field named).
EMPTY_FIRST = {"content.delta": "delta", "refusal.delta": "delta", "tool_calls.function.arguments.delta": "arguments_delta"}
FINAL = ("get_final_completion", CALL)
SAME_METHODS = frozenset({"until_done", "close"})

RULE = Rule(
    title="Streaming helpers",
    safety=FixSafety.SAFE,
    needs=("stream",),
    examples=[
        Example(
            before=(
                "from openai import OpenAI\n"
                "client = OpenAI()\n"
                'with client.chat.completions.stream(model="gpt-4o-mini", messages=m) as stream:\n'
                "    for event in stream:\n"
                '        if event.type == "content.delta":\n'
                '            print(event.delta, end="")\n'
                "    completion = stream.get_final_completion()\n"
                "print(completion.choices[0].message.content)\n"
            ),
            after=(
                "from openai import OpenAI\n"
                "client = OpenAI()\n"
                'with client.responses.stream(model="gpt-4o-mini", input=m) as stream:\n'
                "    for event in stream:\n"
                '        if event.type == "response.output_text.delta":\n'
                '            print(event.delta, end="")\n'
                "    completion = stream.get_final_response()\n"
                "print(completion.output_text)\n"
            ),
        ),
        Example(
            before=(
                "from openai import OpenAI\n"
                "client = OpenAI()\n"
                'with client.chat.completions.stream(model="gpt-4o-mini", messages=m) as stream:\n'
                "    for event in stream:\n"
                '        if event.type == "content.delta":\n'
                '            print(event.delta, end="")\n'
            ),
            after=(
                f"{EXAMPLE_HEADER}"
                "client = OpenAI()\n"
                'with client.responses.create(model="gpt-4o-mini", input=m, stream=True) as stream:\n'
                "    for event in _stream_events(stream):\n"
                '        if event.type == "response.output_text.delta":\n'
                '            print(event.delta, end="")\n'
            ),
        ),
        Example(
            before=(
                "from openai import OpenAI\n"
                "client = OpenAI()\n"
                'with client.chat.completions.stream(model="gpt-4o-mini", messages=m) as stream:\n'
                "    for event in stream:\n"
                '        if event.type == "chunk":\n'
                "            print(event.chunk.id)\n"
            ),
            finding="the `chunk` event",
        ),
    ],
)


@RULE.call("chat.completions.stream")
def stream_helper(site):
    missing = missing_required(site)
    if missing is not None:
        return missing
    # The Responses helper hands a failure to the loop as an event, where the Chat helper
    # raised `APIError`; only the final response then raises. Without one, the stream itself
    # is read, through the helper that raises as the Chat helper did (see `_event_loop`).
    if _final_response_read(site):
        return Retarget("responses.stream")
    return Retarget("responses.create", added=(NewArgument("stream", cst.Name("True")),))


def _final_response_read(site) -> bool:
    return bool(_final_calls(site))


def _final_calls(site) -> List[cst.Call]:
    """The ``get_final_completion()`` calls on the stream."""
    return [use.chain[1] for use in site.analysis.flow.trace_result(site.call).uses if use.path == FINAL]


@RULE.result_use
def helper_use(use, site):
    if site.kind != "chat.completions.stream":
        return None
    if not use.path and isinstance(use.parent, cst.For) and use.parent.iter is use.outer:
        return _event_loop(use.parent, site)
    if use.path == FINAL:
        return _final_response(use, site)
    if len(use.path) == 2 and use.path[0] in SAME_METHODS and use.path[1] == CALL:
        if use.path[0] == "until_done" and not _final_response_read(site):
            return Block(f"`{one_line(use.code)}` would end quietly where the Chat helper raised `APIError` on a failure partway through")
        return UseRewrite(target=use.outer, build=lambda node: node)
    return Block(f"the stream is used as `{one_line(use.code)}`, which has no equivalent on a Responses stream")


def _final_response(use, site) -> Union[UseRewrite, Block]:
    call = use.chain[1]
    if site.analysis.nodes.enclosing(call, cst.Try) is not None:
        return Block(
            "`get_final_completion()` is called inside `try`: on a truncated answer it raises"
            " `LengthFinishReasonError`, `get_final_response()` a `RuntimeError`"
        )
    handled = cut_short_handled(site, call)
    if handled is not None:
        return Block(
            f"{handled}: on a truncated answer `get_final_completion()` raises `LengthFinishReasonError`,"
            " `get_final_response()` a `RuntimeError`"
        )
    if not includes_usage(site):
        usage = next((read for read in site.analysis.flow.trace_result(call).uses if read.path[:1] == ("usage",)), None)
        if usage is not None:
            return Block(
                f"`{one_line(usage.code)}` reads the final completion's usage, which the Chat helper has only with"
                ' `stream_options={"include_usage": True}` (it is `None` here), where a Response always has its usage'
            )
    method = use.chain[0]

    def build(node: cst.Attribute) -> cst.Attribute:
        return node.with_changes(attr=node.attr.with_changes(value="get_final_response"))

    return UseRewrite(target=method, build=build, follow=Follow(call, "chat.completions.create"))


def _event_loop(loop: cst.For, site) -> Union[UseRewrite, Block]:
    parsed = "`response_format=`" if site.has_argument("response_format") else "strict `tools=`" if _may_be_strict(site) else None
    if parsed is not None:
        return Block(
            f"with {parsed}, the Chat helper raises while iterating an answer cut short, where the loop"
            " over a Responses stream runs to the end"
        )
    final = _final_response_read(site)
    events = _EventLoop(loop, site.analysis, helper=final)
    problem = events.check() or (_failure_skipped_after(loop, site) if final else None)
    if problem is not None:
        return Block(problem)
    if final:  # the loop itself stays; its event types and fields are renamed where they are read
        return UseRewrite(target=loop, build=lambda node: node, more=tuple(events.renames))
    asynchronous = loop.asynchronous is not None
    needs = helper_needs(site.analysis, loop, asynchronous)
    if isinstance(needs, Block):
        return needs
    more = list(events.renames)
    if asynchronous:  # the asynchronous `create` is a coroutine, where the helper was a context manager
        item = site.analysis.nodes.parents.get(site.call)
        if not isinstance(item, cst.WithItem):
            return Block("the asynchronous helper is entered other than by `async with` on the call itself")
        more.append(UseRewrite(target=item, build=lambda node: node.with_changes(item=cst.Await(node.item))))

    def build(updated: cst.For) -> cst.For:
        return updated.with_changes(iter=events_of(updated.iter, asynchronous))

    return UseRewrite(target=loop, build=build, add_imports=needs[0], add_definitions=needs[1], more=tuple(more))


def _failure_skipped_after(loop: cst.For, site) -> Optional[str]:
    """Where the Chat helper raised in the loop, the Responses helper raises (a `RuntimeError`)
    only when the final response is asked for: nothing may run in between."""
    nodes = site.analysis.nodes
    following = _next_statement(loop, nodes)
    if following is not None and any(nodes.within(call, following) for call in _final_calls(site)):
        return None
    return (
        "the Responses helper hands a failure partway through to the loop as an event, where the Chat helper raised"
        " `APIError`, and raises only when `get_final_response()` is called: call it right after the loop"
    )


def _may_be_strict(site) -> bool:
    """Are there tools that the Chat helper parses (strict ones), or tools the tool cannot read?"""
    tools = site.argument("tools")
    if tools is None:
        return False
    value = tools.value
    if isinstance(value, cst.Name):
        definition = site.analysis.bindings.definition(value)
        value = definition.value if definition is not None else value
    if not isinstance(value, cst.List):
        return True
    for element in value.elements:
        function = (dict_entries(element.value) or {}).get("function")
        entries = dict_entries(function.value) if function is not None else None
        if entries is None or ("strict" in entries and not is_constant(entries["strict"].value, "False")):
            return True
    return False


def _next_statement(loop: cst.For, nodes) -> Optional[cst.CSTNode]:
    """The statement that runs right after ``loop``: the next one of its block, or, where the
    loop ends the body of a ``with``, the one after the ``with`` (leaving it only closes the
    stream)."""
    statement: cst.CSTNode = loop
    while True:
        block = nodes.parents[statement]
        following = block.body[block.body.index(statement) + 1 :] if isinstance(block, (cst.IndentedBlock, cst.Module)) else []
        if following:
            return following[0]
        owner = nodes.parents.get(block)
        if not isinstance(owner, cst.With):
            return None
        statement = owner


class _EventLoop:
    """``for event in stream:`` over the Chat helper: every statement an ``if`` on the event type."""

    def __init__(self, loop: cst.For, analysis, helper: bool) -> None:
        self.loop = loop
        self.analysis = analysis
        self.helper = helper  # over the Responses helper's events, not the stream's own
        self.renames: List[UseRewrite] = []  # of the event types compared with, and of the fields read

    @property
    def variable(self) -> str:
        return self.loop.target.value

    def check(self) -> Optional[str]:
        if not isinstance(self.loop.target, cst.Name) or not isinstance(self.loop.body, cst.IndentedBlock):
            return "the loop over the stream unpacks the events or has a one-line body"
        return self._check_statements() or self._check_reads()

    def _check_reads(self) -> Optional[str]:
        assignment = self.analysis.bindings.binding(self.loop.target)
        if assignment is None:
            return f"`{self.variable}` could not be followed"
        accesses = self.analysis.bindings.reads_of(assignment)
        if len(spelled_names(self.loop.body, {self.variable})) != len(accesses):
            return f"a name in the loop body shadows `{self.variable}`"
        for node in accesses:
            if not is_inside(self.analysis, node, self.loop.body):
                return f"`{self.variable}` is read after the loop, where it holds the last event"
            problem = self._check_read(self.analysis.flow.use_of(node))
            if problem is not None:
                return problem
        return None

    def _check_read(self, use) -> Optional[str]:
        if use.path == ("type",):
            event_type = self._compared_type(use)
            if event_type is None:
                return f'`{one_line(use.code)}` is used other than in `{self.variable}.type == "..."`'
            if event_type not in EVENTS:
                return f"the `{event_type}` event has no equivalent in a Responses stream"
            comparator = use.parent.comparisons[0].comparator
            new_type = EVENTS[event_type][0]
            self.renames.append(UseRewrite(target=comparator, build=lambda node: string_like(node, new_type)))
            return None
        event_type = self._narrowing(use.outer)
        if not use.path or event_type is None:
            return f"`{one_line(use.code)}` is read where the type of the event is not tested"
        field = EVENTS[event_type][1].get(use.path[0])
        if field is None:
            return f"`{one_line(use.code)}` of a `{event_type}` event has no equivalent on a Responses event"
        if field == "snapshot" and not self.helper:
            return (
                f"`{one_line(use.code)}` is kept only by the Responses helper, which hands a failure partway through"
                " to the loop as an event, where the Chat helper raised `APIError`: read `get_final_completion()`"
                " right after the loop, or join the deltas"
            )
        if field != use.path[0]:
            self.renames.append(UseRewrite(target=use.chain[0], build=lambda node: node.with_changes(attr=cst.Name(field))))
        return None

    def _compared_type(self, use) -> Optional[str]:
        """``"content.delta"`` for ``event.type == "content.delta"``."""
        comparison = use.parent
        if not (isinstance(comparison, cst.Comparison) and comparison.left is use.outer and len(comparison.comparisons) == 1):
            return None
        target = comparison.comparisons[0]
        return literal_string(target.comparator) if isinstance(target.operator, cst.Equal) else None

    def _type_test(self, test: cst.BaseExpression) -> Optional[str]:
        """The event type an ``if`` test narrows to: ``event.type == "x"`` (``and ...``)."""
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
            test = test.left
        if isinstance(test, cst.Comparison) and isinstance(test.left, cst.Attribute) and test.left.attr.value == "type":
            if isinstance(test.left.value, cst.Name) and test.left.value.value == self.variable:
                return self._compared_type(self.analysis.flow.use_of(test.left.value))
        return None

    def _narrowing(self, node: cst.CSTNode) -> Optional[str]:
        """The event type of the innermost ``if`` testing it whose test or body holds ``node``."""
        child, parent = node, self.analysis.nodes.parents.get(node)
        while parent is not None and parent is not self.loop:
            if isinstance(parent, cst.If) and child is not parent.orelse:
                tested = self._type_test(parent.test)
                if tested is not None:
                    return tested
            child, parent = parent, self.analysis.nodes.parents.get(parent)
        return None

    def _check_statements(self) -> Optional[str]:
        for statement in self.loop.body.body:
            branches = if_chain(statement)
            if branches is None or any(self._type_test(branch.test) is None for branch in branches):
                return (
                    f"`{one_line(code_of(statement))}` does not test the event type, so it would run for"
                    " every event, and the two helpers send different events"
                )
            for branch in branches:
                problem = self._check_empty_delta(branch)
                if problem is not None:
                    return problem
        return None

    def _check_empty_delta(self, branch: cst.If) -> Optional[str]:
        event_type = self._type_test(branch.test)
        field = EMPTY_FIRST.get(event_type)
        if field is None:
            return None

        def text_of(node: cst.BaseExpression) -> Optional[str]:
            read = isinstance(node, cst.Attribute) and node.attr.value == field
            return STRING if read and isinstance(node.value, cst.Name) and node.value.value == self.variable else None

        check = EmptyText(text_of, where=f"for the empty `{event_type}` event the Chat helper sends first")
        rest = branch.test.right if isinstance(branch.test, cst.BooleanOperation) else None
        if rest is not None and check.presence(rest) is not None:
            return None
        return check.reason(branch.body.body)
