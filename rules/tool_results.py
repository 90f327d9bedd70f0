"""
## What it does
Rewrites the conversation a tool-calling loop sends back, so that it holds Responses input items:

| Chat Completions | Responses |
|---|---|
| `messages.append(resp.choices[0].message)` (or `.model_dump()`) | `messages.extend(resp.output)` |
| `messages=[..., resp.choices[0].message, ...]` in the next call | `input=[..., *resp.output, ...]` |
| `{"role": "tool", "tool_call_id": call_id, "content": result}` | `{"type": "function_call_output", "call_id": call_id, "output": result}` |
| `{"role": "assistant", "tool_calls": [{"id": i, "type": "function", "function": {"name": n, "arguments": a}}]}` | `{"type": "function_call", "call_id": i, "name": n, "arguments": a}` items |

The history may be written inline in `messages=[...]`, or kept in a list variable that the
call sends (`messages=history`, or `[..., *history]`) and that is built in the same module with
`append`, `extend` and `+=` (of messages written there, or of the list a function of the module
builds anew at each call and returns: `messages.extend(handle_tool_calls(message))`, or one
item of the tuple it returns: `results, cities = handle(message)`, then `messages.extend(results)`
or `for result in results: messages.append(result)`;
its tool results are rewritten in the function when every call of it extends a history some call
sends, all those calls then migrating together), or in an attribute of an agent class (`messages=self.messages`)
that its methods bind only to list literals and reach only through their `self`, when nothing
else in the module reads an attribute of that name and no other module imports the class.

## Why
The Responses API has no `tool` role and no `tool_calls` key on input messages: a loop that
sends them gets `Unknown parameter: 'input[2].tool_calls'` or `Invalid value: 'tool'` on its
second turn. Each result must carry the `call_id` of the `function_call` item it answers, so the
calls themselves must be in the input too: the response's output items hold them.

## Example
```python
messages.append(resp.choices[0].message)
for call in resp.choices[0].message.tool_calls:
    messages.append({"role": "tool", "tool_call_id": call.id, "content": run(call.function.name)})
```

## Use instead
```python
messages.extend(resp.output)
for call in [item for item in resp.output if item.type == "function_call"]:
    messages.append({"type": "function_call_output", "call_id": call.call_id, "output": run(call.name)})
```

## Fix safety
Safe. A history kept in a variable is rewritten only when the tool sees all of it: every list
the variable may hold is built in this module (a list literal, maybe bound again for each
conversation, a list a function of the module returns, a copy of a constant:
`list(DEFAULT_MESSAGES)`, or a comprehension whose element is a dict literal, one message per
item: `[{"role": t["role"], "content": t["content"]} for t in turns]` holds no tool call or
result, whatever `turns` holds, though a content copied so is taken for text only where
`turns` is not a history Gradio's `ChatInterface` gives as parts, as rule `messages_to_input` says); everything added to it is a dict literal (maybe held in a name) or
the message of a response to a call that sends this same history (held in a name or not:
`reply = response.choices[0].message`, read after that line and before the response's name is
bound again, as in a loop that asks the model again at the end of its body, is read from the
response; a name bound only there and read after the response's name is bound again, as in
`reply = response.choices[0].message; response, city = handle(reply)`, is given the whole
response instead, `reply = response`, and its reads read the message from it), or a dict literal
a function of the module returns, alone or as an item of a tuple (`result, city =
handle_tool_call(message)`, then `messages.append(result)`), read nowhere else, when every call of
the function adds what it returns to a history some call sends: it is rewritten where the function
writes it, and those calls migrate together; and nothing else reads it
(`len(messages)` would count items, a loop over it would meet items instead of message dicts),
but for an item or a slice of it read where it runs before anything that changes is added, in
no loop running it again (`print(messages[0]["content"])` before the first call);
a list it is joined from (`messages = [SYSTEM] + turns`) may be read elsewhere unless what it
is given changes: the join copies it, so it never holds what is added to the history.
All the calls that send it migrate together or none does; so do a call and the next one whose
`messages=[...]` literal holds its message. Messages written outside the history
(in a function returning it, a constant it copies, a name) are not rewritten, since other code
may read them. A history that is a parameter of a top-level function that only other modules
call is followed there: when each call gives it a new list of messages of a role and a text (a
list literal in the call, or one a name is bound to right before it and only added to), none of
them a tool call or result, it is the caller's own and needs nothing converted. Otherwise the
call is reported, as it is when, in a call that can use tools, the
history comes from a parameter or another module, or, in any call, from a parameter that a
call of the module or of another module gives a list holding tool calls or results (a final
answer asked without tools, say), or receives something the tool cannot see
into (a message built by a helper function; a call without tools counts as one that can use
them when another call sending the same history, or the same list from a parameter, can), and
when a response's message, of this call or another, is added to a list the tool cannot see
whole (`messages = DEFAULT_MESSAGES` shares the constant; `history + [...]` holds what callers pass),
or to any list in a module where the history is a parameter (the tool does not follow lists from
one function to another, and a caller may pass that list).
Legacy `function` messages carry no call id to pair them with their call, an assistant
message with both text and tool calls is not split, and the output of a response that is not
stored (`store=False`) is not sent back (a reasoning model's reasoning items could not be, unless
`include=["reasoning.encrypted_content"]` is added): all are reported, and so is the output of a
call `--store-false` gives `store=False`. A `name` on a tool
message, which Chat Completions does not define, is dropped.
"""

from typing import Tuple, Union

import libcst as cst

from migrator.analysis import CallSite
from migrator.semantic.flow import ResultUse
from migrator.rules._history import DUMPED_MESSAGE, RESPONSE_MESSAGE, container_of, inline_answer, output_rewrite, sends_list, sent_inline
from migrator.rules._shown import is_shown
from migrator.model import FixSafety
from migrator.rule import Block, Example, Rule, UseRewrite
from migrator.shapes import code_of

RULE = Rule(
    title="Tool calls and results sent back",
    safety=FixSafety.SAFE,
    needs=("messages",),
    examples=[
        Example(
            before=(
                "import openai\n"
                'messages: list = [{"role": "user", "content": q}]\n'
                'r = openai.chat.completions.create(model="gpt-4o", messages=messages)\n'
                "messages.append(r.choices[0].message)\n"
                "for call in r.choices[0].message.tool_calls:\n"
                '    messages.append({"role": "tool", "tool_call_id": call.id, "content": run(call.function.name)})\n'
                'r2 = openai.chat.completions.create(model="gpt-4o", messages=messages)\n'
            ),
            after=(
                "import openai\n"
                'messages: list = [{"role": "user", "content": q}]\n'
                'r = openai.responses.create(model="gpt-4o", input=messages)\n'
                "messages.extend(r.output)\n"
                'for call in [item for item in r.output if item.type == "function_call"]:\n'
                '    messages.append({"type": "function_call_output", "call_id": call.call_id, "output": run(call.name)})\n'
                'r2 = openai.responses.create(model="gpt-4o", input=messages)\n'
            ),
        ),
        Example(
            before=(
                "import openai\n"
                'r = openai.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": q}], store=False)\n'
                'r2 = openai.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": q}, r.choices[0].message])\n'
            ),
            finding="the response is not stored",
        ),
        Example(
            before=(
                "import openai\n"
                'messages: list = [{"role": "user", "content": q}]\n'
                'r = openai.chat.completions.create(model="gpt-4o", messages=messages)\n'
                "messages.append(r.choices[0].message)\n"
                "print(len(messages))\n"
            ),
            finding="len(messages)",
        ),
    ],
)


@RULE.result_use
def response_message(use: ResultUse, site: CallSite) -> Union[UseRewrite, Block, None]:
    """``history.append(resp.choices[0].message)``: the response's output items instead."""
    if use.path not in (RESPONSE_MESSAGE, DUMPED_MESSAGE):
        return None
    container = container_of(use.outer, site.analysis)
    if container is None and isinstance(use.parent, cst.Assign):
        return Block(
            f"the message `{use.code}` is held in a name that may hold other values too (bound again, or on another "
            "path), so the tool can neither read the message from the response where the name is read nor give "
            "the name the whole response"
        )
    if container is None and use.path == RESPONSE_MESSAGE and is_shown(use.outer, site):
        return None  # the rule for what is shown whole decides
    if container is None:
        return Block(f"the message `{use.code}` is used other than by adding it to a history the tool can follow")
    context, history = container
    consumer = sent_inline(context, site.analysis)
    if consumer is not None:
        return inline_answer(use, site, context, consumer)
    if isinstance(history, cst.Attribute) and site.analysis.bindings.self_attribute_accesses(history) is None:
        return Block(f"the message `{use.code}` is added to `{code_of(history)}`, which code other than its class's methods may reach")
    if isinstance(history, cst.Name) and isinstance(context, cst.Element) and not sends_list(site, history):
        # ``messages = [question, message, tool result]``, a new list another call sends: the
        # two calls migrate together, as for a list written in that call (``messages=[...]``).
        consumers = _calls_sending_only(history, site)
        if consumers:
            return inline_answer(use, site, context, *consumers)
    if history is None or not sends_list(site, history):
        return Block(f"the message `{use.code}` is added to a list that this call does not send as its `messages`")
    # The history itself is checked by the ``messages`` hook of this call, which makes the same
    # rewrite: this call migrates only if all the calls sending the history do.
    return output_rewrite(use, context)


def _calls_sending_only(target: cst.Name, site: CallSite) -> Tuple[cst.Call, ...]:
    """The other calls whose ``messages`` is a name holding the list ``target`` is bound to, and
    nothing else."""
    analysis = site.analysis
    assignment = analysis.bindings.assignment_of(target, target.value)
    found = []
    for other in analysis.call_sites():
        sent = other.argument("messages")
        if other.call is not site.call and sent is not None and isinstance(sent.value, cst.Name):
            if assignment is not None and analysis.bindings.referents(sent.value) == [assignment]:
                found.append(other.call)
    return tuple(found)
