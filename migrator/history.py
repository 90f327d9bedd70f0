"""Conversation histories: the tool messages in them, and a history kept in a list variable.

A Chat agent loop keeps its conversation in a list and sends it again at every turn::

    messages = [{"role": "user", "content": question}]
    while True:
        resp = client.chat.completions.create(model=m, messages=messages, tools=TOOLS)
        message = resp.choices[0].message
        if not message.tool_calls:
            break
        messages.append(message)
        for call in message.tool_calls:
            messages.append({"role": "tool", "tool_call_id": call.id, "content": run(call)})

The Responses API takes the model's turn as the response's output items
(``messages.extend(resp.output)``), each result as a ``function_call_output`` item, and a
hand-written assistant turn with tool calls as one ``function_call`` item per call. A list may be
given these items only when the tool sees everything that adds to it, and nothing but the calls
it migrates reads it: ``len(messages)`` would count items instead of messages, and a loop over
it would meet items instead of message dicts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple, Union

import libcst as cst

from migrator.analysis import CallSite, ModuleAnalysis
from migrator.semantic.flow import CALL, ResultUse
from migrator.rule import Block, UseRewrite
from migrator.shapes import code_of, dict_entries, is_constant, lifted, literal_string, moved_out, one_line, string_like

RULE = "tool_results"  # the rule the findings about histories belong to
TOOL_PARAMETERS = ("tools", "functions")
RESPONSE_MESSAGE = ("choices", 0, "message")
DUMPED_MESSAGE = (*RESPONSE_MESSAGE, "model_dump", CALL)
# A Chat tool result's keys -> a function_call_output item's. Chat defines no ``name`` on a tool
# message; code that sends one anyway (old examples did) had it ignored, so it is dropped.
TOOL_RESULT_KEYS = {"role": "type", "tool_call_id": "call_id", "content": "output"}
IGNORED_TOOL_RESULT_KEYS = frozenset({"name"})


@dataclass(frozen=True)
class Items:
    """Several input items where the Chat history had one message; spliced into the list."""

    value: cst.BaseExpression  # a list literal or a list comprehension


Converted = Union[cst.BaseExpression, Items, Block]
# Turns one Chat message (a dict literal, or any expression) into Responses input.
MessageConverter = Callable[[cst.BaseExpression], Converted]


def _blocked(reason: str) -> Block:
    return Block(reason, rule=RULE)


# -- one message ---------------------------------------------------------------------------------


def tool_message(message: cst.BaseExpression, entries: Dict[str, cst.DictElement]) -> Optional[Converted]:
    """A tool result -> a ``function_call_output`` item; an assistant turn with tool calls -> its
    ``function_call`` items; legacy function messages are blocked; None for other messages."""
    role = literal_string(entries["role"].value) if "role" in entries else None
    if role == "tool":
        return _function_call_output(message, entries)
    if role == "function" or "function_call" in entries:
        return _blocked("a legacy `function` message carries no call id, which the Responses API pairs calls and results by")
    if "tool_calls" in entries:
        return _function_calls(message, entries) if role == "assistant" else _blocked("a message has `tool_calls` but is not an assistant message")
    return None


def _function_call_output(message: cst.BaseExpression, entries: Dict[str, cst.DictElement]) -> Converted:
    keys = set(entries) - IGNORED_TOOL_RESULT_KEYS
    if keys != set(TOOL_RESULT_KEYS):
        return _blocked(f"the tool result `{_code(message)}` is not `{{\"role\": \"tool\", \"tool_call_id\": ..., \"content\": ...}}`")
    if isinstance(entries["content"].value, (cst.List, cst.ListComp)):
        return _blocked("a tool result has content parts, which the tool does not convert")
    elements = []
    for key, element in entries.items():
        if key in IGNORED_TOOL_RESULT_KEYS:
            continue
        element = element.with_changes(key=string_like(element.key, TOOL_RESULT_KEYS[key]))
        if key == "role":
            element = element.with_changes(value=string_like(element.value, "function_call_output"))
        elements.append(element)
    last_comma = list(entries.values())[-1].comma  # the dropped ``name`` may have been last
    return message.with_changes(elements=[*elements[:-1], elements[-1].with_changes(comma=last_comma)])


def _function_calls(message: cst.BaseExpression, entries: Dict[str, cst.DictElement]) -> Converted:
    """``{"role": "assistant", "tool_calls": [...]}`` -> ``[{"type": "function_call", ...}, ...]``."""
    if not set(entries) <= {"role", "content", "tool_calls"}:
        return _blocked("an assistant message with tool calls has keys the tool cannot map")
    if "content" in entries and not is_constant(entries["content"].value, "None"):
        return _blocked("an assistant message has both text and tool calls, which the tool does not split into items")
    calls = entries["tool_calls"].value
    if isinstance(calls, cst.ListComp):
        item = _function_call(calls.elt)
        return item if isinstance(item, Block) else Items(moved_out(calls.with_changes(elt=item), message))
    if not isinstance(calls, cst.List) or any(isinstance(e, cst.StarredElement) for e in calls.elements):
        return _blocked(f"the `tool_calls` `{_code(calls)}` of an assistant message is not a list the tool can read")
    items = []
    for element in calls.elements:
        item = _function_call(element.value)
        if isinstance(item, Block):
            return item
        items.append(element.with_changes(value=item))
    return Items(moved_out(calls.with_changes(elements=items), message))


def _function_call(call: cst.BaseExpression) -> Union[cst.Dict, Block]:
    """``{"id": i, "type": "function", "function": {"name": n, "arguments": a}}`` ->
    ``{"call_id": i, "type": "function_call", "name": n, "arguments": a}``."""
    entries = dict_entries(call)
    shown = f"the tool call `{_code(call)}`"
    if entries is None or set(entries) != {"id", "type", "function"} or literal_string(entries["type"].value) != "function":
        return _blocked(f"{shown} is not a `{{\"id\", \"type\": \"function\", \"function\"}}` dict literal")
    function = dict_entries(entries["function"].value)
    if function is None or set(function) != {"name", "arguments"}:
        return _blocked(f"{shown} does not give its function as `{{\"name\": ..., \"arguments\": ...}}`")
    assert isinstance(call, cst.Dict)
    flat = lifted(call, entries["function"])
    if flat is None:
        return _blocked(f"a comment inside {shown} would be lost")
    elements = []
    for key, element in (dict_entries(flat) or {}).items():
        if key == "id":
            element = element.with_changes(key=string_like(element.key, "call_id"))
        elif key == "type":
            element = element.with_changes(value=string_like(element.value, "function_call"))
        elements.append(element)
    return flat.with_changes(elements=elements)


def spliced(items: Items, element: cst.BaseElement) -> List[cst.BaseElement]:
    """The elements standing for ``items`` where ``element`` stood in a list literal: the items
    of a list literal one by one, a comprehension unpacked (``*[...]``)."""
    if not isinstance(items.value, cst.List) or not items.value.elements:
        return [cst.StarredElement(value=items.value, comma=element.comma)]
    *body, last = items.value.elements
    return [*(item.with_changes(comma=element.comma) for item in body), last.with_changes(comma=element.comma)]


# -- the model's turn, read from a response -------------------------------------------------------


def response_messages(analysis: ModuleAnalysis) -> Dict[cst.CSTNode, Tuple[CallSite, ResultUse]]:
    """Every read of a Chat call's assistant message (``resp.choices[0].message``, maybe through
    an alias, maybe ``.model_dump()``-ed) by the node that reads it, with the call."""
    found = {}
    for site in analysis.call_sites():
        if site.traced and site.kind.startswith("chat.completions."):
            for use in analysis.flow.trace_result(site.call).uses:
                if use.path in (RESPONSE_MESSAGE, DUMPED_MESSAGE):
                    found[use.outer] = (site, use)
    return found


def output_rewrite(use: ResultUse, context: cst.CSTNode) -> UseRewrite:
    """``history.append(resp.choices[0].message)`` -> ``history.extend(resp.output)``, and
    ``[..., resp.choices[0].message]`` -> ``[..., *resp.output]``."""
    output = use.replace(len(use.path), "{base}.output")
    return _spliced(context, lambda node: output.build(node))


def _spliced(context: cst.CSTNode, items: Callable[[cst.BaseExpression], cst.BaseExpression]) -> UseRewrite:
    """Several items where ``context`` (an ``append`` call or a list element) added one."""
    if isinstance(context, cst.Call):
        return UseRewrite(
            target=context,
            build=lambda call: call.with_changes(
                func=call.func.with_changes(attr=cst.Name("extend")),
                args=[call.args[0].with_changes(value=items(call.args[0].value))],
            ),
        )
    return UseRewrite(target=context, build=lambda element: cst.StarredElement(value=items(element.value), comma=element.comma))


def container_of(node: cst.CSTNode, analysis: ModuleAnalysis) -> Optional[Tuple[cst.CSTNode, Optional[cst.Name]]]:
    """Where ``node`` is added to a list: the ``append`` call or the list element holding it, and
    the name of the list when the tool can tell (``history.append(x)``, ``history = [..., x]``,
    ``history += [..., x]``, ``history.extend([..., x])``)."""
    parent = analysis.nodes.parents.get(node)
    if isinstance(parent, cst.Arg):
        call = analysis.nodes.parents.get(parent)
        if _is_method_call(call, "append", analysis) and parent.keyword is None and len(call.args) == 1:
            return call, call.func.value if isinstance(call.func.value, cst.Name) else None
        return None
    if not isinstance(parent, cst.Element):
        return None
    holder = analysis.nodes.parents.get(analysis.nodes.parents.get(parent))
    if isinstance(holder, cst.Arg):
        call = analysis.nodes.parents.get(holder)
        if _is_method_call(call, "extend", analysis) and isinstance(call.func.value, cst.Name):
            return parent, call.func.value
        return parent, None
    return parent, _list_name(holder)


def _list_name(statement: Optional[cst.CSTNode]) -> Optional[cst.Name]:
    """The name ``history = [...]``, ``history: T = [...]`` or ``history += [...]`` binds."""
    if isinstance(statement, cst.Assign) and len(statement.targets) == 1:
        target = statement.targets[0].target
    elif isinstance(statement, (cst.AnnAssign, cst.AugAssign)):
        target = statement.target
    else:
        return None
    return target if isinstance(target, cst.Name) else None


def _is_method_call(call: Optional[cst.CSTNode], method: str, analysis: ModuleAnalysis) -> bool:
    """``receiver.method(...)`` as a statement of its own."""
    return (
        isinstance(call, cst.Call)
        and isinstance(call.func, cst.Attribute)
        and call.func.attr.value == method
        and isinstance(analysis.nodes.parents.get(call), cst.Expr)
    )


# -- a history held in a name ---------------------------------------------------------------------


@dataclass
class _Addition:
    """Something added to the history: a message (maybe of unknown shape), and where."""

    node: cst.BaseExpression
    context: cst.CSTNode  # the ``append`` call, or the list element


@dataclass
class _History:
    additions: List[_Addition]
    feeders: List[cst.Call]  # the calls that send it as ``messages``
    other_reads: List[cst.CSTNode]
    unknown: List[cst.CSTNode]  # what adds to it in ways the tool cannot see into


def followed_history(name: cst.Name, site: CallSite, convert: MessageConverter) -> Union[Tuple[UseRewrite, ...], Block]:
    """The rewrites that make the history ``name`` (a read the call ``site`` sends as its
    ``messages``) hold Responses input; none when it already does."""
    analysis = site.analysis
    history = _follow(name, analysis)
    tool_context = any(site.has_argument(p) for p in TOOL_PARAMETERS)
    if history is None:
        if tool_context:
            return _blocked(
                f"`{name.value}` is not a list literal assigned once in this module (a parameter, say), so the tool "
                "cannot see whether it holds tool calls or results, which the Responses API takes in another shape"
            )
        return ()  # the caller's responsibility, as for any ``messages`` expression
    responses = response_messages(analysis) if any(dict_entries(a.node) is None for a in history.additions) else {}
    rewrites: List[UseRewrite] = []
    unknown = list(history.unknown)
    for addition in history.additions:
        if addition.node in responses:
            producer, use = responses[addition.node]
            if producer.call not in history.feeders:
                return _blocked(f"`{name.value}` receives the message of a response to a call that does not send `{name.value}`")
            if not _stored(producer):
                return _blocked(
                    "the response is not stored (`store=`): a reasoning model's output items can then be sent back "
                    'only with `include=["reasoning.encrypted_content"]`, which Chat Completions had no equivalent of'
                )
            rewrites.append(output_rewrite(use, addition.context))
            continue
        converted = convert(addition.node) if dict_entries(addition.node) is not None else None
        if isinstance(converted, Block):
            return converted
        if isinstance(converted, Items):
            rewrites.append(_spliced(addition.context, lambda node: _items_of(node, convert)))
        elif converted is None:
            unknown.append(addition.node)
        elif converted is not addition.node:
            rewrites.append(UseRewrite(target=addition.node, build=lambda node: _message_of(node, convert)))
    if unknown and (rewrites or tool_context):
        line = analysis.nodes.positions[unknown[0]].start.line
        return _blocked(
            f"`{name.value}` receives `{_code(unknown[0])}` on line {line}, which the tool cannot see into: "
            "it may be a tool call or result, which the Responses API takes in another shape"
        )
    if rewrites and history.other_reads:
        read = history.other_reads[0]
        return _blocked(
            f"`{name.value}` is also read by `{_code(_statement_code(read, analysis))}` on line "
            f"{analysis.nodes.positions[read].start.line}, which would see Responses items instead of Chat messages"
        )
    if rewrites and not all(_is_migrated(call, analysis) for call in history.feeders):
        return _blocked(f"`{name.value}` is also sent by a call the tool does not migrate")
    return tuple(rewrites)


def _stored(site: CallSite) -> bool:
    """Is the response stored: ``store`` not given (the Responses default) or ``True``?"""
    store = site.argument("store")
    return store is None or is_constant(store.value, "True")


def _items_of(node: cst.BaseExpression, convert: MessageConverter) -> cst.BaseExpression:
    items = convert(node)
    assert isinstance(items, Items), "the history was checked when the call was planned"
    return items.value


def _message_of(node: cst.CSTNode, convert: MessageConverter) -> cst.CSTNode:
    assert isinstance(node, cst.BaseExpression)
    message = convert(node)
    assert isinstance(message, cst.BaseExpression), "the history was checked when the call was planned"
    return message


def _follow(name: cst.Name, analysis: ModuleAnalysis) -> Optional[_History]:
    """The list literal ``name`` is bound to (plus ``+=`` additions), and every read of it."""
    bindings = analysis.bindings.value_sources(name)
    definitions = [b for b in bindings if _bound_list(b.node, analysis) is not None]
    if len(definitions) != 1:
        return None
    initial_list = _bound_list(definitions[0].node, analysis)
    assert initial_list is not None
    history = _History([], [], [], [])
    for binding in bindings:
        statement = analysis.nodes.parents.get(binding.node)
        if binding in definitions:
            _add_elements(history, initial_list)
        elif isinstance(statement, cst.AugAssign) and isinstance(statement.operator, cst.AddAssign):
            _add_elements(history, statement.value)
        else:
            return None
    additions = {binding.node for binding in bindings if binding not in definitions}
    reads = [read for binding in bindings for read in analysis.bindings.reads_of(binding) if read not in additions]
    for read in sorted(set(reads), key=reads.index):
        if not set(analysis.bindings.value_sources(read)) <= set(bindings):
            return None  # the name may hold another list there
        _add_read(history, read, analysis)
    return history


def _bound_list(target: cst.CSTNode, analysis: ModuleAnalysis) -> Optional[cst.List]:
    """The list literal of ``target = [...]`` (or ``target: T = [...]``)."""
    parent = analysis.nodes.parents.get(target)
    statement = analysis.nodes.parents.get(parent) if isinstance(parent, cst.AssignTarget) else parent
    if isinstance(statement, cst.Assign) and len(statement.targets) == 1 and isinstance(statement.value, cst.List):
        return statement.value
    if isinstance(statement, cst.AnnAssign) and statement.target is target and isinstance(statement.value, cst.List):
        return statement.value
    return None


def _add_elements(history: _History, value: cst.BaseExpression) -> None:
    if not isinstance(value, cst.List):
        history.unknown.append(value)
        return
    for element in value.elements:
        if isinstance(element, cst.StarredElement):
            history.unknown.append(element.value)
        else:
            history.additions.append(_Addition(element.value, element))


def _add_read(history: _History, read: cst.CSTNode, analysis: ModuleAnalysis) -> None:
    parent = analysis.nodes.parents.get(read)
    feeder = _call_sending(parent if isinstance(parent, cst.Arg) else _starred_in_messages(parent, analysis), analysis)
    if feeder is not None:
        history.feeders.append(feeder)
        return
    method = parent.attr.value if isinstance(parent, cst.Attribute) and parent.value is read else None
    call = analysis.nodes.parents.get(parent) if method else None
    if method == "append" and _is_method_call(call, "append", analysis) and len(call.args) == 1 and call.args[0].keyword is None:
        history.additions.append(_Addition(call.args[0].value, call))
    elif method == "extend" and _is_method_call(call, "extend", analysis) and len(call.args) == 1 and call.args[0].keyword is None:
        _add_elements(history, call.args[0].value)
    else:
        history.other_reads.append(read)


def _starred_in_messages(node: Optional[cst.CSTNode], analysis: ModuleAnalysis) -> Optional[cst.CSTNode]:
    """The argument holding ``[..., *history]`` when ``node`` is that starred element."""
    if not isinstance(node, cst.StarredElement):
        return None
    return analysis.nodes.parents.get(analysis.nodes.parents.get(node))


def _call_sending(arg: Optional[cst.CSTNode], analysis: ModuleAnalysis) -> Optional[cst.Call]:
    """The call ``arg`` is the ``messages=`` of."""
    if isinstance(arg, cst.Arg) and arg.keyword is not None and arg.keyword.value == "messages":
        call = analysis.nodes.parents.get(arg)
        return call if isinstance(call, cst.Call) else None
    return None


def _is_migrated(call: cst.Call, analysis: ModuleAnalysis) -> bool:
    """Is ``call`` one the tool plans (and so migrates together with the others, or blocks them)?"""
    return any(site.call is call and site.traced and site.kind.startswith("chat.completions.") for site in analysis.call_sites())


def _statement_code(read: cst.CSTNode, analysis: ModuleAnalysis) -> cst.CSTNode:
    """The smallest enclosing expression worth showing for a read (``len(history)``)."""
    node = read
    parent = analysis.nodes.parents.get(node)
    while isinstance(parent, (cst.Attribute, cst.Subscript, cst.Call, cst.Arg)):
        node, parent = parent, analysis.nodes.parents.get(parent)
    return node


def _code(node: cst.CSTNode) -> str:
    return one_line(code_of(node), limit=40)
