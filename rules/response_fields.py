"""
## What it does
Rewrites the reads of a migrated call's result:

| Chat Completions | Responses |
|---|---|
| `.choices[0].message.content` | `.output_text` |
| `.usage.prompt_tokens` | `.usage.input_tokens` |
| `.usage.completion_tokens` | `.usage.output_tokens` |
| `.usage.prompt_tokens_details.cached_tokens` | `.usage.input_tokens_details.cached_tokens` |
| `.usage.completion_tokens_details.reasoning_tokens` | `.usage.output_tokens_details.reasoning_tokens` |
| `.created` | `int(.created_at)` |
| `.choices[0].message.role` | `"assistant"` |
| `.id`, `.model`, `.usage.total_tokens`, `.usage` tested for truth or `None` | unchanged |

## Why
A `Response` has no `choices`; its text is the `output_text` property and its usage counts
tokens in and out.

## Example
```python
print(resp.choices[0].message.content, resp.usage.prompt_tokens)
```

## Use instead
```python
print(resp.output_text, resp.usage.input_tokens)
```

## Fix safety
Safe for the reads above. Two differences are kept in mind: `output_text` is `""` where
Chat's `content` was `None` (the model answered only with tool calls, or refused), so a
comparison of the content with `None` blocks the call (where it is read, or where it goes: a
name it is bound to, annotated or not, a function of the module it is passed to, the callers
of a function returning it, in this module or in the modules importing it), and so does, on a call that can make tool
calls, a read of the content that is not only tested for truth (or read as `content or ""`)
where the same response may hold tool calls, unless a test of the content found text first
(`if message.content: print(message.content)`; a name holding the content is followed the same
way: `text = message.content`, then `if text: ...`) or the read comes after
`if message.tool_calls:` (or `if resp.choices[0].finish_reason == "tool_calls":`) whose body
binds the response's name to the next Chat call in one of its own lines, or after `while resp.choices[0].message.tool_calls:`
or `while resp.choices[0].finish_reason == "tool_calls":` with no `break` of its own (rule `finish_reason` migrates that test only where
no tool is forced, so the loop is left only by a response without tool calls); such a read that
is only shown (printed, logged, in an f-string) migrates with `--unsafe-fixes`, with a note, as
it then shows an empty text where it showed `None`; and `created_at` is a float, hence the `int(...)`. Any other read (`choices[1]`, `.choices` iterated, `.model_dump()`,
`.system_fingerprint`, the `usage` object passed elsewhere) blocks the call and is reported, as
does the `id` passed to a stored Chat Completions method (`client.chat.completions.update(resp.id,
...)`), which finds no Response's id.
A test of whether there is an answer is settled where it is written so that its outcome can
be spelled out: a completion always has a choice, so `text if resp.choices else ""` becomes
`text`, `if resp and resp.choices:` becomes `if resp:` (a response, a model object, is always
true on either API, and stays as it is wherever it is only tested), `if resp.choices:` becomes
its body and `if not resp.choices: return None` goes (its `else`, if any, stays). Any other
(`len(resp.choices) == 0`, `has_answer = bool(resp.choices)`) is reported, and with
`--unsafe-fixes` becomes the same test of `resp.output`: nothing proves a Response's `output`
always holds an item where a completion had a choice. The fix leaves a `# migrator:` comment
above the call.
"""

from typing import Optional

import libcst as cst
from libcst.helpers import get_full_name_for_node

from migrator.semantic.flow import CALL
from migrator.rules._function_calling import content_may_be_none, is_truth_test
from migrator.rules._history import RESPONSE_CHOICE
from migrator.model import FixSafety
from migrator.rule import Block, Example, Rewrite, Rule, UseRewrite
from migrator.rules._shown import is_shown
from migrator.shapes import USAGE_FIELDS, one_line

# Chat path -> Responses expression ({base} is what the path was read from).
FIELDS = {
    ("choices", 0, "message", "content"): "{base}.output_text",
    **{("usage", *chat): f"{{base}}.usage.{responses}" for chat, responses in USAGE_FIELDS.items()},
    ("created",): "int({base}.created_at)",
    ("id",): "{base}.id",
    ("model",): "{base}.model",
}
CONTENT = ("choices", 0, "message", "content")
ROLE = ("choices", 0, "message", "role")
# What the function-calling rules read of the message (besides the message itself, which
# `tool_results` sends back): they say more precisely why a read cannot map.
MESSAGE_FIELDS_READ_ELSEWHERE = frozenset({"tool_calls", "function_call"})

RULE = Rule(
    title="Reads of the response",
    safety=FixSafety.SAFE,
    needs=("completions",),
    examples=[
        Example(
            before=(
                "import openai\n"
                'r = openai.chat.completions.create(model="gpt-4o", messages=m)\n'
                "print(r.choices[0].message.content, r.usage.prompt_tokens, r.usage.completion_tokens)\n"
            ),
            after=(
                "import openai\n"
                'r = openai.responses.create(model="gpt-4o", input=m)\n'
                "print(r.output_text, r.usage.input_tokens, r.usage.output_tokens)\n"
            ),
        ),
        Example(
            before=(
                "import openai\n"
                'r = openai.chat.completions.create(model="gpt-4o", messages=m)\n'
                "for choice in r.choices:\n"
                "    print(choice.message.content)\n"
            ),
            finding="`r.choices`",
        ),
    ],
)


@RULE.result_use
def field(use, site):
    if use.path == CONTENT:
        compared = _compared_with_none_where_it_goes(use, site)
        if compared is not None:
            return Block(f"the content is compared with `None` {compared}, but `output_text` is `\"\"` where the content was `None`")
    if use.path == CONTENT and content_may_be_none(use, site):
        reason = (
            "the model may answer with tool calls only: the content is then `None` where `output_text` is `\"\"`; "
            "read it where there are no tool calls (`if not message.tool_calls:`), or as `content or \"\"`"
        )
        if not is_shown(use.outer, site):
            return Block(reason)
        note = f"`{one_line(use.code)}` now shows an empty text where it showed `None`, for an answer with tool calls only"
        return Block(reason, unsafe=Rewrite(note=note, elsewhere=(use.replace(len(CONTENT), FIELDS[CONTENT]),)))
    if use.path == ("id",) and _sent_to_stored_completions(use):
        return Block(f"`{use.code}` is passed to a stored Chat Completions method, which finds no `resp_...` id")
    for path, template in FIELDS.items():
        if use.startswith(*path):
            return use.replace(len(path), template)
    if use.startswith(*ROLE) and isinstance(use.base, (cst.Name, cst.Attribute)) and not _written_to(use, site):
        # The SDK types it `Literal["assistant"]`. Not on a call's result read in place: the call would go.
        quote = site.analysis.nodes.free_quote(use.node_at(len(ROLE)))  # inside an f-string, not its own
        if quote is not None:
            return UseRewrite(target=use.node_at(len(ROLE)), build=lambda updated: cst.SimpleString(f"{quote}assistant{quote}"))
    if use.path == ("usage",) and _is_truth_or_none_test(use):
        return use.replace(1, "{base}.usage")
    if not use.path and is_truth_test(use.outer, site.analysis):
        return UseRewrite(target=use.outer, build=lambda updated: updated)  # a model object: true on either API
    if use.path == ("choices",):
        settled = _settled_guard(use, site)
        if settled is not None:
            return settled
    if use.path == ("choices",) and _tests_for_choices(use, site):
        reason = (
            f"`{use.code}` tests whether there is an answer: a completion always has a choice, and a "
            "Response's `output` is not proven to hold an item whenever it did"
        )
        test = use.replace(1, "{base}.output")
        return Block(reason, unsafe=Rewrite(note=f"`{use.code}` became a test of `output`", elsewhere=(test,)))
    if use.startswith("choices") and not _read_elsewhere(use) and not (use.path == RESPONSE_CHOICE and is_shown(use.outer, site)):
        return Block(f"`{use.code}` has no Responses equivalent: a Response holds one answer, read through `output_text` and `output`")
    return None


def _settled_guard(use, site) -> Optional[UseRewrite]:
    """A guard on there being an answer, which a completion always passes (it always has a
    choice), written where its outcome can be spelled out: ``text if resp.choices else ""``
    becomes ``text``; ``if resp and resp.choices:`` becomes ``if resp:``; ``if resp.choices:``
    its body; ``if not resp.choices: return None`` goes (its ``else``, if any, stays)."""
    nodes = site.analysis.nodes
    read = use.outer
    parent = nodes.parents.get(read)
    if isinstance(parent, cst.IfExp) and parent.test is read:
        return UseRewrite(target=parent, build=lambda updated: updated.body)
    if isinstance(parent, cst.BooleanOperation) and isinstance(parent.operator, cst.And) and is_truth_test(parent, site.analysis):
        other = "right" if parent.left is read else "left"
        return UseRewrite(target=parent, build=lambda updated: getattr(updated, other))
    negated = isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not)
    test = parent if negated else read
    statement = nodes.parents.get(test)
    if not (isinstance(statement, cst.If) and statement.test is test and _is_statement(statement, nodes)):
        return None
    if not negated:
        return UseRewrite(target=statement, build=lambda updated: cst.FlattenSentinel(updated.body.body))
    return UseRewrite(target=statement, build=_what_runs_instead)


def _is_statement(node: cst.If, nodes) -> bool:
    """An ``if`` statement of its own, not an ``elif``, in a block of statements."""
    return isinstance(nodes.parents.get(node), (cst.IndentedBlock, cst.Module))


def _what_runs_instead(updated: cst.If) -> cst.CSTNode:
    """``if <never>: ...`` as what runs: its ``else`` (an ``elif`` becoming an ``if``), or nothing."""
    orelse = updated.orelse
    if orelse is None:
        return cst.RemoveFromParent()
    if isinstance(orelse, cst.If):
        return orelse.with_changes(leading_lines=updated.leading_lines)
    return cst.FlattenSentinel(orelse.body.body)


def _sent_to_stored_completions(use) -> bool:
    """``client.chat.completions.retrieve(completion.id)`` (or ``update``, ``delete``,
    ``messages.list``): the id of a stored completion, which a Response's id is not."""
    call = use.grandparent if isinstance(use.parent, cst.Arg) else None
    return isinstance(call, cst.Call) and ".chat.completions." in f".{get_full_name_for_node(call.func) or ''}"


def _written_to(use, site) -> bool:
    """``message.role = "user"``: the read is the target of an assignment, not a read."""
    parent = site.analysis.nodes.parents.get(use.node_at(len(ROLE)))
    return isinstance(parent, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign)) and getattr(parent, "target", None) is use.node_at(len(ROLE))


def _tests_for_choices(use, site) -> bool:
    """``if resp.choices``, ``not resp.choices``, ``len(resp.choices) == 0`` and the like."""
    if _is_truth_or_none_test(use):
        return True
    call = use.grandparent
    if not (isinstance(use.parent, cst.Arg) and isinstance(call, cst.Call) and site.analysis.flow.calls_builtin(call, "len")):
        return False
    comparison = site.analysis.nodes.parents.get(call)
    return isinstance(comparison, cst.Comparison) and all(
        isinstance(target.comparator, cst.Integer) and target.comparator.value in ("0", "1") for target in comparison.comparisons
    )


def _read_elsewhere(use) -> bool:
    """The message itself (sent back in a history), its tool calls or its function call."""
    if not use.startswith("choices", 0, "message"):
        return False
    return len(use.path) == 3 or use.path[3:] == ("model_dump", CALL) or use.path[3] in MESSAGE_FIELDS_READ_ELSEWHERE


def _compared_with_none_where_it_goes(use, site) -> Optional[str]:
    """Where the content is compared with ``None``, in words: where it goes (followed through
    the names it is bound to, the functions of the module it is passed to, and the callers of
    the function returning it), or in the modules importing a function that returns it."""
    trace = site.analysis.flow.trace_result(use.outer)
    for read in trace.uses:
        if not read.path and _compares_with_none(read):
            return f"in `{one_line(site.analysis.module.code_for_node(read.parent))}`"
    for function in trace.exported_functions:
        where = site.analysis.project.where_compared_with_none(function) if "." not in function else None
        if where is not None:
            return f"where other modules call `{function}`, which returns it ({where})"
    return None


def _compares_with_none(use) -> bool:
    parent = use.parent
    return isinstance(parent, cst.Comparison) and any(
        isinstance(target.comparator, cst.Name) and target.comparator.value == "None" for target in parent.comparisons
    )


def _is_truth_or_none_test(use) -> bool:
    parent = use.parent
    if isinstance(parent, (cst.If, cst.While, cst.IfExp, cst.BooleanOperation, cst.UnaryOperation)):
        return True
    return _compares_with_none(use)
