"""
## What it does
Migrates `create(..., stream=True)` together with the loop that reads the stream (`for` or
`async for`), turning the chunk loop into a loop over Responses events:

| Chat Completions chunk | Responses event |
|---|---|
| `chunk.choices[0].delta.content` (`completions.create`: `chunk.choices[0].text`) | `event.delta` under `event.type == "response.output_text.delta"` |
| `if chunk.choices and chunk.choices[0].delta.content:` / `if delta.content:` | `if event.type == "response.output_text.delta":` |
| `if chunk.choices and chunk.choices[0].delta.content is not None:` around statements that do nothing for an empty text | `if event.type == "response.output_text.delta":` |
| `chunk.choices[0].delta.content or ""` | `event.delta` |
| `if text is None: continue` (`text` holding the delta's content), closing the loop body with statements that read the text | removed; the rest under `if event.type == "response.output_text.delta":` |
| `if not text: continue`, the same | kept, under the text event's test |
| `if token := chunk.choices[0].delta.content or "":` | `if event.type == "response.output_text.delta" and (token := event.delta):` |
| `if chunk.usage:` | `if event.type in ("response.completed", "response.incomplete") and event.response.usage:` |
| `usage = chunk.usage` | `if event.type in ("response.completed", "response.incomplete"): usage = event.response.usage` |
| `chunk.usage.prompt_tokens`, `.completion_tokens`, ... | `event.response.usage.input_tokens`, `.output_tokens`, ... (also on a stored `usage` after the loop) |
| `if chunk.choices[0].finish_reason == "length":` | `if event.type == "response.incomplete" and event.response.incomplete_details is not None and event.response.incomplete_details.reason == "max_output_tokens":` |
| `== "content_filter"` / `== "stop"` / a truthy `finish_reason` | the same with `"content_filter"` / `event.type == "response.completed"` / either final event |
| `if chunk.choices:` (or `len(chunk.choices) > 0`) around statements that read the text | `if event.type == "response.output_text.delta":` |
| `elif chunk.usage:` (or `is not None`) after it, with `include_usage` | `elif event.type in ("response.completed", "response.incomplete") and event.response.usage:` |
| `delta = chunk.choices[0].delta`, `choice = chunk.choices[0]`, `if not chunk.choices: continue` (or `len(chunk.choices) == 0`) | removed (reads through `delta` / `choice` are renamed) |
| `if not chunk.choices or not text: continue` | `if not event.delta: continue`, under the text event's test |
| `text = chunk.choices[0].delta.content if chunk.choices else None` (or `else ""`) | `text = event.delta`, under the text event's test |
| `if delta and delta.content:` (a choice or a delta is a model object, always true) | `if event.type == "response.output_text.delta":` |
| `if hasattr(delta, "content") and delta.content:` (a field of the SDK's model, which every delta has; not a field a server may add) | `if event.type == "response.output_text.delta":` |
| `st.write_stream(stream)` (Streamlit) | `st.write_stream(event.delta for event in _stream_events(stream) if event.type == "response.output_text.delta")` |
| `"".join(chunk.choices[0].delta.content or "" for chunk in stream)` (or of a list comprehension) | `"".join(event.delta for event in _stream_events(stream) if event.type == "response.output_text.delta")` |
| a failure partway (the SDK raises `APIError` on Chat's error chunk) | `error` and `response.failed` events, on which `_stream_events` raises `APIError` |

Consecutive statements that read the text go under one text-event test; the loop variable
becomes `event` unless that name is taken. `stream_options={"include_usage": True}` is dropped:
a Responses stream always ends with the usage (its `stream_options` only has
`include_obfuscation`, which is kept). The stream is followed like any result: through names,
`with ... as stream`, `await`, a function that returns it, and a function of the module that
it is passed to and that nothing else calls (a generator that yields the text, say). With
`stream=flag` (or `not flag`), a name the call reads, each read of the result must sit in a
branch of an `if flag:` that runs after the call with nothing binding `flag` between, or after
an `if not flag:` there whose body always leaves (`return`, `raise`, `continue`, `break`): the reads
under the streaming branch are migrated as a stream, the others as a response, and `stream=`
stays as it is. With `stream=flag` where `flag` is a parameter that every call of its function
(no other module importing it) leaves `False`, the result is read as a response.

The loop reads the stream through `_stream_events`, a helper added once to the module (for
`async for`, `_stream_events_async`): when the service fails partway through an answer, a Chat
stream sends an error chunk, on which the SDK raises `APIError` in the middle of the loop, but a
Responses stream sends an `error` or `response.failed` event, which the SDK hands to the loop
like any other: without the helper the loop would end as if the answer were complete.

```python
def _stream_events(stream: Iterable[ResponseStreamEvent]) -> Iterator[ResponseStreamEvent]:
    \"\"\"The events of a Responses stream; a failure raises `APIError`, as a Chat Completions stream did.\"\"\"
    for event in stream:
        if event.type == "error":
            request = cast(Stream[ResponseStreamEvent], stream).response.request
            raise APIError(event.message, request, body=event.to_dict())
        if event.type == "response.failed":
            error = event.response.error
            message = error.message if error is not None else "An error occurred during streaming"
            request = cast(Stream[ResponseStreamEvent], stream).response.request
            raise APIError(message, request, body=error.to_dict() if error is not None else None)
        yield event
```

## Why
A Responses stream yields typed events, not chunks with `choices`: a loop that still reads
`chunk.choices[0].delta` fails on the first event. And a Chat stream ends with `[DONE]`, a
Responses stream after `response.completed`.

## Example
```python
stream = client.chat.completions.create(model="gpt-4o-mini", messages=msgs, stream=True)
for chunk in stream:
    if chunk.choices and chunk.choices[0].delta.content:
        print(chunk.choices[0].delta.content, end="")
```

## Use instead
```python
stream = client.responses.create(model="gpt-4o-mini", input=msgs, stream=True)
for event in _stream_events(stream):
    if event.type == "response.output_text.delta":
        print(event.delta, end="")
```

## Fix safety
Safe for the shapes above. A loop over `iter(stream)` reads the same chunks as one over
`stream`, and becomes one over `_stream_events(stream)`. A Chat stream's first chunk (the role) and last chunks (the finish
reason, the usage) carry no text, so a statement that reads the text moves under the text
event only when it does nothing for an empty text: it is under a test that the text is there
(`if text:`, `if len(text) > 0:`), or it is `print(text, end="")`, `sys.stdout.write(text)`, `sys.stdout.flush()` or the `flush()` of a file
`open()` made (which write out nothing new, per chunk or per event), `name += text` (or `name = name + text`), `count += len(text)`,
`parts.append(text)` for a list made with `parts = []` (or `parts: list = []`) and used only to append and to
`"".join(parts)` (each with `text or ""` where the text may be None), an `if` whose test neither
reads the text nor calls anything (`if verbose:`) around such statements, or it assigns the text to a
name read only later in the same loop pass (under the test that the text is there, when the
assignment is: `if chunk.choices[0].delta.content is not None: piece = chunk.choices[0].delta.content`,
with `piece` read only under that test, where no other assignment reaches it). `if text is None: continue` and `if not text:
continue` also skip the statements after them, so they must come after every statement that
does not read the text (the finish reason and the usage come in chunks without text).
A statement that yields the text (`yield text`, `yield {"delta": text}`, with no call) yields an
empty text for those chunks, which a Responses stream does not: the generator's consumer gets
one item less. So does a statement yielding a name the text was just added to (`partial = partial
+ text`, then `yield partial`, as a chat UI's generator does), or the texts joined of a list it
was just appended to (`yield "".join(parts)`), or one of those rewritten with string methods
given constants (`yield partial.replace("```", "")`), or a tuple of them and constants (`yield
partial, None`, for a UI's two outputs): the consumer gets the same value once more on Chat. Those fixes are unsafe: with `--unsafe-fixes` the call migrates with a
`# migrator:` comment above it; else it is reported. Except where every use of the generator shows
each value in place of the one before, so that the same text again shows what is shown already:
it is given to a Gradio app (`gr.Interface(fn=...)`) or to a Gradio component's event
(`button.click(fn, ...)`), or yielded from (`yield from stream_gpt(prompt)`, or a name bound to
that call) by a generator that yields nothing else and is used only so, and no other module
imports it; and the names it yields hold `""` (or `[]`) before the loop. The text so far yielded
again is then safe: Chat's first chunk yields `""` before the first text, which a Responses
stream skips, and an answer without text leaves the output empty either way. A heading the text
starts from, a note yielded before, or `gr.ChatInterface` (where an answer without text leaves
an empty assistant message in the history on Chat, and none on Responses) keep the fix unsafe;
so does a generator yielding each delta (Chat's last chunk would leave the output empty).
Streamlit's `write_stream` shows each Chat chunk's `delta.content or ""`, skips empty texts, and
returns the whole text; given the text deltas, it shows and returns the same. A Streamlit
placeholder (`placeholder = st.empty()`) drawn once per chunk with names the text is added to,
strings, and their sums or f-strings (`placeholder.markdown(full_response + "▌")`, as Streamlit's
chat tutorial did before `write_stream`) is drawn with what it shows already for a chunk without
text, except before the first text, where the Chat loop draws the cursor alone: an unsafe fix
too, that draws only when text arrives. A notebook's output made with `handle =
display(Markdown(""), display_id=True)` (wherever the handle is bound to such an output) and drawn once per chunk with
`update_display(Markdown(text), display_id=handle.display_id)` or `handle.update(Markdown(text))`
(or `HTML`, `Latex`, `Pretty`) is drawn the same way; when what it draws is the empty object it
was made with, before the first text too (a name holding `""` before the loop, only added to),
and the output is made right before the loop, in its block, with nothing drawing it in between
(a note drawn first, or an output used again for several answers, would show until the first
text, and for good after an answer without text), the fix is safe. A name the text was added to, rewritten from itself with string methods given
constants (`text = text.replace("```", "")`), is rewritten again for a chunk without text: safe
for one `strip`, `lstrip` or `rstrip` of a name holding `""` before the loop (a text it made
comes back the same), an unsafe fix otherwise (removing `markdown` from "``markdown`" makes a
"```" that a second run removes). So is a print of a text that may be None
(`print(chunk.choices[0].delta.content, end="")`), which prints `None` for the last chunk of a
Chat stream, where a Responses stream has no text event to print. A container (`st.container()`), which adds an element
at each draw, or a draw of anything else keeps the call as it is.
Every statement of the loop body must read the chunk: any other would run once per event
instead of once per chunk. Anything else blocks the call and is reported: a statement that
runs for every chunk (a counter, `collected.append(...)` without a test for a list read otherwise, `print(text)`), a
one-line loop body, any other read of the chunk
(`chunk.id`, `delta.role`, the chunk itself), the finish reason stored or compared with
`"tool_calls"`, `chunk.usage` without `include_usage` (the original never sees it), `chunk.choices[0]`
without a test when `include_usage` adds a chunk with no choices, a loop variable read after the
loop, a name assigned with `:=` in the loop and read outside that statement, and a usage read
before the finish reason (Chat sends the usage last). Tool-call deltas
are migrated by `stream_tool_calls`. How the text is cut into deltas differs between any two
streams, of either API; the text itself does not.
"""

from typing import Callable, Union

import libcst as cst

from migrator.semantic.branches import negated_name, truth_where
from migrator.semantic.flow import CALL
from migrator.rules._chunk_loops import TEXT_PATHS, ChunkLoop, includes_usage, is_streamed, loop_over, never_streamed
from migrator.rules._stream_failures import EXAMPLE_HEADER, events_of, helper_needs
from migrator.rules._streaming import chain_of, joined_list
from migrator.model import FixSafety
from migrator.rule import Block, Example, NewArgument, Rewrite, Rule, UseRewrite
from migrator.shapes import code_of, dict_entries, is_constant, literal_string, one_line

# What a stream offers besides iteration that is the same on a Responses stream.
STREAM_METHODS = frozenset({"close"})
# Functions that show the text of a Chat stream, each chunk's `choices[0].delta.content or ""`,
# skipping empty texts, and return the whole text; given strings, they do the same with each.
TEXT_STREAM_WRITERS = frozenset({"streamlit.write_stream", "streamlit.sidebar.write_stream"})
TEXT_DELTA = '{event}.delta for {event} in STREAM if {event}.type == "response.output_text.delta"'

RULE = Rule(
    title="Loops over a streamed response",
    safety=FixSafety.SAFE,
    needs=("stream",),
    examples=[
        Example(
            before=(
                "from openai import OpenAI\n"
                "client = OpenAI()\n"
                'stream = client.chat.completions.create(model="gpt-4o-mini", messages=m, stream=True)\n'
                "for chunk in stream:\n"
                "    if chunk.choices and chunk.choices[0].delta.content:\n"
                '        print(chunk.choices[0].delta.content, end="")\n'
            ),
            after=(
                f"{EXAMPLE_HEADER}"
                "client = OpenAI()\n"
                'stream = client.responses.create(model="gpt-4o-mini", input=m, stream=True)\n'
                "for event in _stream_events(stream):\n"
                '    if event.type == "response.output_text.delta":\n'
                '        print(event.delta, end="")\n'
            ),
        ),
        Example(
            before=(
                "from openai import OpenAI\n"
                "client = OpenAI()\n"
                'stream = client.chat.completions.create(model="gpt-4o-mini", messages=m, stream=True)\n'
                "parts = []\n"
                "for chunk in stream:\n"
                "    parts.append(chunk.choices[0].delta.content)\n"
            ),
            finding="would also run for the chunks that carry no text",
        ),
    ],
)


@RULE.parameter("stream")
def stream(name, value, site):
    if is_constant(value, "True") or is_constant(value, "False"):
        return Rewrite((NewArgument("stream", value),))
    if never_streamed(site):
        return Rewrite((NewArgument("stream", value),))
    flag = site.argument(name).value  # `value` may be the rewritten node, unknown to the analysis
    if negated_name(flag) is None or site.wrapper is not None:
        return Block("`stream=` is not the literal `True` or `False`, so the tool cannot tell how the result is read")
    # `stream=flag`: each read of the result must sit where an `if flag:` after the call says
    # whether it is a stream; each is then migrated as the one or the other.
    analysis = site.analysis
    trace = analysis.flow.trace_result(site.call)
    unknown = [f"`{name}` returns it" for name in trace.exported_functions] + [
        f"`{one_line(use.code)}` is not under an `if` that tests `{negated_name(flag)[0].value}` after the call"
        for use in trace.uses
        if truth_where(analysis.nodes, analysis.bindings, flag, use.outer) is None
    ]
    if unknown:
        return Block(
            f"`stream=` is not the literal `True` or `False`, and {unknown[0]}, so the tool cannot tell whether"
            " the result is read as a stream"
        )
    return Rewrite((NewArgument("stream", value),))


@RULE.parameter("stream_options")
def stream_options(name, value, site):
    """``include_usage`` goes (Responses streams always end with the usage); ``include_obfuscation`` stays."""
    entries = dict_entries(value)
    if entries is None or not set(entries) <= {"include_usage", "include_obfuscation"}:
        return Block("`stream_options=` is not a literal dict of `include_usage` and `include_obfuscation`")
    usage = entries.get("include_usage")
    if usage is not None and not (is_constant(usage.value, "True") or is_constant(usage.value, "False")):
        return Block("`include_usage` is not the literal `True` or `False`")
    if "include_obfuscation" not in entries:
        return Rewrite()
    kept = entries["include_obfuscation"].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return Rewrite((NewArgument(name, value.with_changes(elements=[kept])),))


@RULE.result_use
def stream_loop(use, site):
    if not is_streamed(site, use.outer):
        return None
    if loop_over(use, site.analysis) is not None:
        loop = ChunkLoop(use, site)
        outcome = loop.plan()
        return None if loop.reads_tool_calls else outcome  # rule `stream_tool_calls` decides
    if len(use.path) == 2 and use.path[0] in STREAM_METHODS and use.path[1] == CALL:
        return UseRewrite(target=use.outer, build=lambda node: node)
    if not use.path and _written_as_text(use, site):
        return _through_helper(site, use.outer, lambda node: _text_deltas(node, alone=len(use.grandparent.args) == 1))
    joined = _joined_texts(use, site) if not use.path else None
    if joined is not None and includes_usage(site):
        return Block(f"`{one_line(code_of(joined), limit=60)}` fails on the usage chunk, which has no choices: test `chunk.choices` first")
    if joined is not None:
        return _through_helper(site, joined, _joined_deltas)
    if not use.path and isinstance(use.parent, cst.CompFor):
        comprehension = one_line(code_of(site.analysis.nodes.parents[use.parent]), limit=60)
        return Block(
            f"the comprehension `{comprehension}` makes one item per chunk, and a Responses stream has no event for"
            ' the chunks without text: only their texts joined with `"".join(...)` map'
        )
    return Block(f"the stream is used as `{one_line(use.code)}`, which the tool cannot map to a Responses stream")


def _through_helper(site, target: cst.CSTNode, build: Callable[[cst.CSTNode], cst.CSTNode]) -> Union[UseRewrite, Block]:
    """A rewrite of ``target`` into code reading the stream's events, which it reads through the
    helper that raises on a failure (``rules/_stream_failures.py``)."""
    needs = helper_needs(site.analysis, target, asynchronous=False)
    if isinstance(needs, Block):
        return needs
    return UseRewrite(target=target, build=build, add_imports=needs[0], add_definitions=needs[1])


def _written_as_text(use, site) -> bool:
    """``st.write_stream(stream)``: the stream passed, as it is, to such a function, by position
    or as ``stream=``."""
    call = use.grandparent
    if not (isinstance(use.parent, cst.Arg) and not use.parent.star and isinstance(call, cst.Call)):
        return False
    if use.parent.keyword is not None and use.parent.keyword.value != "stream":
        return False
    return bool(site.analysis.imports.imported_as(call.func) & TEXT_STREAM_WRITERS)


def _joined_texts(use, site) -> Union[cst.GeneratorExp, cst.ListComp, None]:
    """``"".join(chunk.choices[0].delta.content or "" for chunk in stream)``: the comprehension
    over the stream, when it yields each chunk's text (``""`` for none) to be joined with
    nothing between; the texts of the text events join to the same."""
    comp_for = use.parent
    if not (isinstance(comp_for, cst.CompFor) and comp_for.iter is use.outer and isinstance(comp_for.target, cst.Name)):
        return None
    if comp_for.ifs or comp_for.inner_for_in is not None or comp_for.asynchronous is not None:
        return None
    comprehension = site.analysis.nodes.parents.get(comp_for)
    if not isinstance(comprehension, (cst.GeneratorExp, cst.ListComp)):
        return None
    element = comprehension.elt
    if not (isinstance(element, cst.BooleanOperation) and isinstance(element.operator, cst.Or) and literal_string(element.right) == ""):
        return None
    if chain_of(element.left) != (comp_for.target.value, TEXT_PATHS.get(site.kind)):
        return None
    call = site.analysis.nodes.parents.get(site.analysis.nodes.parents.get(comprehension))
    return comprehension if joined_list(call) is comprehension else None


def _joined_deltas(comprehension: Union[cst.GeneratorExp, cst.ListComp]) -> cst.BaseExpression:
    """The comprehension over the stream's text events, each giving its text."""
    deltas = _text_deltas(comprehension.for_in.iter, alone=True)
    return comprehension.with_changes(elt=deltas.elt, for_in=deltas.for_in)


def _text_deltas(stream: cst.BaseExpression, alone: bool) -> cst.GeneratorExp:
    """The texts of the stream's text events, which such a function shows as it showed the
    chunks' texts: a Responses stream sends no event for the chunks without text."""
    event = "item" if isinstance(stream, cst.Name) and stream.value == "event" else "event"
    made = cst.parse_expression(f"({TEXT_DELTA.format(event=event)})")
    assert isinstance(made, cst.GeneratorExp)
    made = made.with_changes(for_in=made.for_in.with_changes(iter=events_of(stream, asynchronous=False)))
    return made.with_changes(lpar=(), rpar=()) if alone else made
