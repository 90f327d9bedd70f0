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

from dataclasses import dataclass, field, replace
from typing import Callable, Dict, List, Optional, Set, Tuple, Union

import libcst as cst

from libcst.metadata import BaseAssignment

from migrator.analysis import CallSite, ModuleAnalysis
from migrator.model import PassedDict, PassedList
from migrator.passed_values import DEFAULT, EXPRESSION
from migrator.semantic.flow import CALL, ResultUse
from migrator.semantic.nodes import Nodes
from migrator.rules._built_lists import built_list, held_list
from migrator.rules._gradio import given_only_gradio_messages, gradio_chat_history
from migrator.rule import Block, UseRewrite
from migrator.shapes import code_of, dict_entries, is_constant, is_name, lifted, literal_string, moved_out, one_line, string_like, walk

RULE = "tool_results"  # the rule the findings about histories belong to
TOOL_PARAMETERS = ("tools", "functions")
RESPONSE_CHOICE = ("choices", 0)
RESPONSE_MESSAGE = (*RESPONSE_CHOICE, "message")
# How many names bound to joined lists (``a = [SYSTEM] + b``, ``b = history + [...]``) are followed.
MAX_JOIN_DEPTH = 4
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


def inline_answer(use: ResultUse, producer: CallSite, element: cst.Element, *consumers: cst.Call) -> Union[UseRewrite, Block]:
    """``messages=[..., resp.choices[0].message, ...]`` in the call ``consumer`` (or in a new list
    the ``consumers`` send): the message of ``producer``'s response becomes ``*resp.output``
    there. The producer's plan and the consumers' make this rewrite together: all the calls
    migrate, or none does."""
    unstored = unstored_output(producer)
    if unstored is not None:
        return unstored
    return replace(output_rewrite(use, element), shared_with=consumers)


def sent_inline(element: cst.CSTNode, analysis: ModuleAnalysis) -> Optional[cst.Call]:
    """The call whose ``messages=[...]`` literal holds ``element`` (or one of the lists its
    ``messages=history + [...]`` joins)."""
    if not isinstance(element, cst.Element):
        return None
    holder = analysis.nodes.parents.get(analysis.nodes.parents.get(element))
    while isinstance(holder, cst.BinaryOperation) and isinstance(holder.operator, cst.Add):
        holder = analysis.nodes.parents.get(holder)
    return _call_sending(holder, analysis)


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


def container_of(node: cst.CSTNode, analysis: ModuleAnalysis) -> Optional[Tuple[cst.CSTNode, Union[cst.Name, cst.Attribute, None]]]:
    """Where ``node`` is added to a list: the ``append`` call or the list element holding it, and
    the name of the list when the tool can tell (``history.append(x)``, ``history = [..., x]``,
    ``history += [..., x]``, ``history.extend([..., x])``)."""
    parent = analysis.nodes.parents.get(node)
    if isinstance(parent, cst.Arg):
        call = analysis.nodes.parents.get(parent)
        if _is_method_call(call, "append", analysis) and parent.keyword is None and len(call.args) == 1:
            return call, _list_of(call.func.value)
        return None
    if not isinstance(parent, cst.Element):
        return None
    holder = analysis.nodes.parents.get(analysis.nodes.parents.get(parent))
    if isinstance(holder, cst.Arg):
        call = analysis.nodes.parents.get(holder)
        if _is_method_call(call, "extend", analysis) and _list_of(call.func.value) is not None:
            return parent, _list_of(call.func.value)
        return parent, None
    return parent, _list_name(holder)


def _list_of(receiver: cst.BaseExpression) -> Union[cst.Name, cst.Attribute, None]:
    """The list ``receiver.append(...)`` adds to, when it is a name or ``self.NAME``."""
    if isinstance(receiver, cst.Name) or (isinstance(receiver, cst.Attribute) and is_name(receiver.value, "self")):
        return receiver
    return None


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
    # The name or function the message is written in, outside the history (a name holding it,
    # a function returning the list, a constant the list copies), when other code may read it.
    written_in: Optional[str] = None


@dataclass
class _History:
    additions: List[_Addition]
    feeders: List[cst.Call]  # the calls that send it as ``messages``
    other_reads: List[cst.CSTNode]
    unknown: List[cst.CSTNode]  # what adds to it in ways the tool cannot see into
    # Reads of a chat history Gradio gives, copied into it message by message as a role and a text.
    copies: List[cst.Name] = field(default_factory=list)
    # The lists joined into it (``messages = [SYSTEM] + turns``): their other reads see only
    # what is added to them, not what is added to this list.
    joined: List["_History"] = field(default_factory=list)
    # Items added to it of a list of the module that calls the tool does not follow fill
    # (``prompts.extend(vision.generate_prompts())``, then ``history.append(prompts[i])``).
    filled_items: List[Tuple[cst.CSTNode, cst.Name]] = field(default_factory=list)

    def take(self, other: "_History") -> None:
        """Hold what ``other`` holds too: a list joined or extended into this one."""
        self.additions.extend(other.additions)
        self.unknown.extend(other.unknown)
        self.copies.extend(other.copies)
        self.joined.extend(other.joined)
        self.filled_items.extend(other.filled_items)

    def reads_seeing(self, changed: Set[cst.CSTNode], nodes: Nodes) -> List[cst.CSTNode]:
        """The reads of this list other than sending and adding to it, and those of the lists
        joined into it that were given one of the messages ``changed`` (read as they changed);
        not an item or a slice read before every change is added (``print(history[0])`` before
        the first call), which sees the messages as they were written."""
        added = [addition.context for addition in self.additions if addition.node in changed]
        reads = [read for read in self.other_reads if not (_reads_items(read, nodes) and all(nodes.never_after(read, each) for each in added))]
        for joined in self.joined:
            if any(addition.node in changed for addition in joined.additions):
                reads.extend(joined.reads_seeing(changed, nodes))
        return reads


def _reads_items(read: cst.CSTNode, nodes: Nodes) -> bool:
    """Is ``read`` subscripted (``history[0]``, ``history[-2:]``): an item, or a new list?"""
    parent = nodes.parents.get(read)
    return isinstance(parent, cst.Subscript) and parent.value is read


def followed_history(name: Union[cst.Name, cst.Attribute], site: CallSite, convert: MessageConverter) -> Union[Tuple[UseRewrite, ...], Block]:
    """The rewrites that make the history ``name`` (a read the call ``site`` sends as its
    ``messages``: a name, or ``self.NAME``) hold Responses input; none when it already does."""
    analysis = site.analysis
    shown = _code(name)
    unread = (gradio_history_sent(name, analysis) or imported_messages_sent(name, analysis)) if isinstance(name, cst.Name) else None
    if unread is not None:
        return unread
    history = _follow(name, analysis) if isinstance(name, cst.Name) else _follow_attribute(name, analysis)
    tool_context = any(site.has_argument(p) for p in TOOL_PARAMETERS)
    if history is None and not tool_context:
        # Another call sending the same list may use tools: what the list receives then may be
        # tool calls and results, which this call sends on too.
        tool_context = any(
            other.call is not site.call
            and any(other.has_argument(p) for p in TOOL_PARAMETERS)
            and sends_list(other, name)
            for other in analysis.call_sites()
        )
    if history is None:
        if tool_context and isinstance(name, cst.Attribute):
            return _blocked(
                f"`{shown}` is not a list the tool sees whole (bound only to list literals in the methods of its "
                "class, reached only through their `self`, its class imported by no other module), so the tool "
                "cannot see whether it holds tool calls or results, which the Responses API takes in another shape"
            )
        callers = _other_modules_calling(name, analysis) if tool_context else None
        if callers is not None:
            return _blocked(
                f"`{shown}` is a parameter of `{callers[0]}`, which other modules import ({callers[1]}) and call with what the tool "
                "cannot prove is a new list of messages of a role and a text, each call's own (a list literal in the "
                "call, or in a name bound right before it and only added to), so it may hold tool calls or results, "
                "which the Responses API takes in another shape"
            )
        if tool_context:
            return _blocked(
                f"`{shown}` is not built from list literals in this module (a parameter, say), so the tool "
                "cannot see whether it holds tool calls or results, which the Responses API takes in another shape"
            )
        receiving = _receiving_output(name, site)
        if receiving is not None:
            return _blocked(
                f"`{shown}` receives `{_code(receiving)}` on line {analysis.nodes.positions[receiving].start.line}, "
                f"but is not built from list literals in this module, so the tool cannot see everything that reads it"
            )
        given = _changed_messages_given(name, analysis, convert)
        if given is not None:
            return _blocked(
                f"{_parameter_shown(given[0], shown)} is a parameter {given[1]} lists holding messages the Responses API takes"
                " in another shape (tool calls or results, content parts), which the tool converts only in a list it sees whole"
            )
        unseen = _unseen_lists_given(name, analysis)
        if unseen is not None:
            return _blocked(
                f"{_parameter_shown(unseen[0], shown)} is a parameter that other modules ({unseen[1]}) give lists the tool"
                " cannot see into (no list literal there), which may hold messages the Responses API takes in another shape"
                " (tool calls or results, content parts)"
            )
        changed = changed_message_added(name, analysis, convert)
        if changed is not None:
            return _blocked(
                f"`{shown}` is not built from list literals in this module (a parameter, say), and `{_code(changed)}`,"
                f" added to it on line {analysis.nodes.positions[changed].start.line}, is a message the Responses API"
                " takes in another shape, which the tool converts only in a list it sees whole"
            )
        added = _message_added_elsewhere(name, site)
        if added is not None:
            return _blocked(
                f"`{shown}` is a parameter, and `{_code(added)}` is added to a list on line "
                f"{analysis.nodes.positions[added].start.line}, which may be the one passed here: a Chat message, "
                "which the Responses API takes in another shape"
            )
        return ()  # the caller's responsibility, as for any ``messages`` expression
    return _converted_history(history, shown, site, convert)


def imported_messages_sent(messages: cst.BaseExpression, analysis: ModuleAnalysis) -> Optional[Block]:
    """Why ``messages`` cannot be sent as ``input`` when it holds a message or a list of them
    that another module makes (``from prompts import FEW_SHOT``): the tool does not read it,
    and it may hold content parts, a ``name``, tool calls or results; None when it holds none."""
    imported = _imported_in(messages, analysis, set())
    if imported is None:
        return None  # or only messages of a role and a text that another module writes
    return Block(
        f"`{_code(imported)}` is imported from another module, which the tool does not read here: a message in it may be"
        " one `input` takes in another shape (content parts, a `name`, tool calls or results)",
        rule="messages_to_input",
    )


def _imported_in(expr: cst.BaseExpression, analysis: ModuleAnalysis, seen: Set[int]) -> Optional[cst.Name]:
    """A name ``expr`` sends as a message or a list of them (itself, an element of a list
    literal, unpacked, joined with ``+``, or what a name it reads is bound to) that is bound by
    an import."""
    if id(expr) in seen:
        return None
    seen.add(id(expr))
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):
        return _imported_in(expr.left, analysis, seen) or _imported_in(expr.right, analysis, seen)
    if isinstance(expr, (cst.List, cst.Tuple)):
        for element in expr.elements:
            found = _imported_in(element.value, analysis, seen)
            if found is not None:
                return found
        return None
    if not isinstance(expr, cst.Name):
        return None
    for binding in analysis.bindings.value_sources(expr):
        node = getattr(binding, "node", None)
        if isinstance(node, (cst.Import, cst.ImportFrom)):
            if _of_plain_messages(analysis.project.imported_literal(expr.value)):
                continue
            return expr
        value = _bound_value(node, analysis) if node is not None else None
        found = _imported_in(value, analysis, seen) if value is not None else None
        if found is not None:
            return found
    return None


def gradio_history_sent(messages: cst.BaseExpression, analysis: ModuleAnalysis) -> Optional[Block]:
    """Why ``messages`` cannot be sent as ``input`` when it holds messages of a chat history
    Gradio gives that are not copied as roles and texts (``_gradio_history_in``); None when not."""
    chat_ui = _gradio_history_in(messages, analysis)
    if chat_ui is None:
        return None
    return Block(
        f"`{_code(messages)}` holds a chat history Gradio gives `{chat_ui}` (a `ChatInterface`'s or a `Chatbot`'s), whose messages"
        ' `input` does not take as they are (content parts on Gradio 6, pairs before unless `type="messages"`, and then'
        " `metadata` and `options` keys, which Chat ignores); the tool copies it as roles and texts only where it is sent"
        " or joined as it is, with only such messages added to it",
        rule="messages_to_input",
    )


def sends_list(site: CallSite, name: cst.BaseExpression) -> bool:
    """Does ``site`` send the whole list ``name`` names (a name or ``self.NAME``) in its
    ``messages``: ``messages=history``, ``[*history]``, ``[SYSTEM] + history``?"""
    argument = site.argument("messages")
    return argument is not None and any(same_list(name, each, site.analysis) for each in _sent_lists(argument.value))


def _sent_lists(messages: cst.BaseExpression) -> List[cst.BaseExpression]:
    """The lists a ``messages`` expression sends all of: itself, the lists ``[..., *history]``
    unpacks, and the lists joined with ``+`` (``[SYSTEM] + history``), in turn."""
    if isinstance(messages, cst.BinaryOperation) and isinstance(messages.operator, cst.Add):
        return _sent_lists(messages.left) + _sent_lists(messages.right)
    if isinstance(messages, cst.List):
        return [element.value for element in messages.elements if isinstance(element, cst.StarredElement)]
    return [messages]


def same_list(first: cst.BaseExpression, second: cst.BaseExpression, analysis: ModuleAnalysis) -> bool:
    """Do ``first`` and ``second`` name the same list: names with the same bindings, or the same
    ``self.NAME`` of one class, read only as ``self.NAME`` in its methods?"""
    if isinstance(first, cst.Name) and isinstance(second, cst.Name):
        bindings = set(analysis.bindings.referents(first))
        return bool(bindings) and set(analysis.bindings.referents(second)) == bindings
    if isinstance(first, cst.Attribute) and isinstance(second, cst.Attribute):
        accesses = analysis.bindings.self_attribute_accesses(first)
        return accesses is not None and second in accesses
    return False


def built_history(value: cst.BaseExpression, site: CallSite, convert: MessageConverter) -> Optional[Union[Tuple[UseRewrite, ...], Block]]:
    """What ``messages=build_messages(q)`` (or ``list(DEFAULT_MESSAGES)``) needs, when ``value``
    builds its list from list literals the tool sees; None when it does not."""
    built = built_list(value, site.analysis)
    if built is None:
        # A function of the module filling a new list (``prepare_messages(turns)``).
        returned = _returned_by_a_helper(value, site.analysis) if isinstance(value, cst.Call) else None
        if returned is None:
            return None
        returned.feeders.append(site.call)
        return _converted_history(returned, _code(value), site, convert)
    history = _History([], [site.call], [], [])
    for literal in built.literals:
        _add_elements(history, literal, site.analysis, written_in=built.source)
    return _converted_history(history, _code(value), site, convert)


def _converted_history(history: _History, shown: str, site: CallSite, convert: MessageConverter) -> Union[Tuple[UseRewrite, ...], Block]:
    """The rewrites that make ``history`` (shown to the user as ``shown``) hold Responses input."""
    analysis = site.analysis
    tool_context = _may_use_tools(site, history.feeders)
    responses = response_messages(analysis) if any(dict_entries(a.node) is None for a in history.additions) else {}
    rewrites: List[UseRewrite] = [UseRewrite(target=read, build=_text_turns) for read in history.copies]
    if history.filled_items:
        item, container = history.filled_items[0]
        return _blocked(
            f"`{shown}` receives `{_code(item)}`, an item of `{container.value}`, which is filled by calls the tool "
            "does not follow: its messages may have content parts or tool turns, which `input` takes in another shape"
        )
    unknown = list(history.unknown)
    changed: Set[cst.CSTNode] = set()  # the messages added to it that a rewrite changes
    for addition in history.additions:
        if addition.node in responses:
            producer, use = responses[addition.node]
            # Written into a list literal of this history: the producer migrates with the calls
            # sending it (they share the rewrite), whether or not it sends the history itself.
            if producer.call not in history.feeders and not isinstance(addition.context, cst.Element):
                return _blocked(f"`{shown}` receives the message of a response to a call that does not send `{shown}`")
            unstored = unstored_output(producer)
            if unstored is not None:
                return unstored
            rewrite = output_rewrite(use, addition.context)
            rewrites.append(rewrite if producer.call in history.feeders else replace(rewrite, shared_with=(producer.call,)))
            changed.add(addition.node)
            continue
        converted = convert(addition.node) if dict_entries(addition.node) is not None else None
        if isinstance(converted, Block):
            return converted
        if converted is not None and converted is not addition.node and addition.written_in is not None:
            return _blocked(
                f"the message `{_code(addition.node)}` would change shape, but it is written in "
                f"`{addition.written_in}`, which other code may read too"
            )
        if isinstance(converted, Items) and isinstance(addition.context, cst.ListComp):
            return _blocked(f"`{shown}` is built by a comprehension of messages that each become several items")
        if isinstance(converted, Items) and addition.context is addition.node:
            return _blocked(f"`{shown}` receives `{_code(addition.node)}` from a function that returns it, and it would become several items")
        if isinstance(converted, Items):
            rewrites.append(_spliced(addition.context, lambda node: _items_of(node, convert)))
            changed.add(addition.node)
        elif converted is None:
            unknown.append(addition.node)
        elif converted is not addition.node:
            rewrites.append(UseRewrite(target=addition.node, build=lambda node: _message_of(node, convert)))
            changed.add(addition.node)
    if unknown and (rewrites or tool_context):
        line = analysis.nodes.positions[unknown[0]].start.line
        return _blocked(
            f"`{shown}` receives `{_code(unknown[0])}` on line {line}, which the tool cannot see into: "
            "it may be a tool call or result, which the Responses API takes in another shape"
        )
    other_reads = history.reads_seeing(changed, analysis.nodes)
    if rewrites and other_reads:
        read = other_reads[0]
        return _blocked(
            f"`{shown}` is also read by `{_code(_statement_code(read, analysis))}` on line "
            f"{analysis.nodes.positions[read].start.line}, which would see Responses items instead of Chat messages"
        )
    if rewrites and not all(_is_migrated(call, analysis) for call in history.feeders):
        return _blocked(f"`{shown}` is also sent by a call the tool does not migrate")
    return tuple(rewrites)


def _may_use_tools(site: CallSite, feeders: List[cst.Call]) -> bool:
    """Can a call sending the history use tools? Then what it adds may be tool calls or
    results, which every call sending the history sends on, with tools or not."""
    sites = {each.call: each for each in site.analysis.call_sites()}
    senders = [site, *(sites[call] for call in feeders if call in sites)]
    return any(sender.has_argument(p) for sender in senders for p in TOOL_PARAMETERS) or any(
        arg.keyword is not None and arg.keyword.value in TOOL_PARAMETERS for call in feeders if call not in sites for arg in call.args
    )


def _receiving_output(name: Union[cst.Name, cst.Attribute], site: CallSite) -> Optional[cst.CSTNode]:
    """The message of a response (of ``site``, or of another call: a Chat message either way)
    that is added to the list ``name`` may hold, which the Responses call would need as output
    items: only a history the tool sees whole may take them."""
    analysis = site.analysis
    held = set(analysis.bindings.value_sources(name)) if isinstance(name, cst.Name) else set()
    for node in response_messages(analysis):
        container = container_of(node, analysis)
        receiver = container[1] if container is not None else None
        if isinstance(receiver, cst.Attribute) and isinstance(name, cst.Attribute) and receiver.attr.value == name.attr.value:
            return node  # ``self.NAME.append(message)``: maybe the same list
        if isinstance(receiver, cst.Name) and held & set(analysis.bindings.value_sources(receiver)):
            return node
    return None


def changed_message_added(name: Union[cst.Name, cst.Attribute], analysis: ModuleAnalysis, convert: MessageConverter) -> Optional[cst.CSTNode]:
    """A message written where it is added to the list ``name`` names (``history.append({...})``,
    ``.insert``, ``.extend([...])``, ``+= [...]``) that its conversion to Responses input changes
    (content parts, a tool result): in a list the tool does not see whole, it stays as written."""
    added: List[cst.BaseExpression] = []
    for call in analysis.nodes.nodes_of(cst.Call):
        func = call.func
        if not (isinstance(func, cst.Attribute) and func.attr.value in ("append", "insert", "extend") and call.args):
            continue
        if not _same_expression_list(name, func.value, analysis):
            continue
        value = call.args[-1].value
        if func.attr.value == "extend" and isinstance(value, cst.List):
            added.extend(e.value for e in value.elements if isinstance(e, cst.Element))
        else:
            added.append(value)
    for augmented in analysis.nodes.nodes_of(cst.AugAssign):
        if isinstance(augmented.operator, cst.AddAssign) and isinstance(augmented.value, cst.List) and _same_expression_list(name, augmented.target, analysis):
            added.extend(e.value for e in augmented.value.elements if isinstance(e, cst.Element))
    return next((message for message in added if _changed_by(convert, message)), None)


def _same_expression_list(name: cst.BaseExpression, other: cst.BaseExpression, analysis: ModuleAnalysis) -> bool:
    """``same_list``, or, for what it cannot follow (``st.session_state.messages``), the same
    expression written again."""
    return same_list(name, other, analysis) or (not isinstance(name, cst.Name) and name.deep_equals(other))


def _changed_by(convert: MessageConverter, message: cst.BaseExpression) -> bool:
    """Does converting the message written as ``message`` to Responses input change it? Not a
    message the tool cannot see into (a name, a call), as a list's others."""
    if dict_entries(message) is None:
        return False
    converted = convert(message)
    return not isinstance(converted, cst.BaseExpression) or not converted.deep_equals(message)


def _message_added_elsewhere(name: Union[cst.Name, cst.Attribute], site: CallSite) -> Optional[cst.CSTNode]:
    """For a parameter ``name`` (what callers pass), the message of a response that the module
    adds to some list: the tool does not follow lists between functions, so it may be in it."""
    analysis = site.analysis
    held = analysis.bindings.value_sources(name) if isinstance(name, cst.Name) else []
    if not held or not all(isinstance(getattr(source, "node", None), cst.Param) for source in held):
        return None
    return next((node for node in response_messages(analysis) if container_of(node, analysis) is not None), None)


def unstored_output(site: CallSite) -> Optional[Block]:
    """Why the output items of ``site``'s response cannot be sent back: it is not stored."""
    store = site.argument("store")
    if store is None and site.analysis.options.store_false:
        given = "`--store-false` adds `store=False`"  # to the migrated call
    elif store is None or is_constant(store.value, "True"):  # not given: the Responses default stores
        return None
    else:
        given = "`store=`"
    return _blocked(
        f"the response is not stored ({given}): a reasoning model's output items can then be sent back "
        'only with `include=["reasoning.encrypted_content"]`, which Chat Completions had no equivalent of'
    )


def _items_of(node: cst.BaseExpression, convert: MessageConverter) -> cst.BaseExpression:
    items = convert(node)
    assert isinstance(items, Items), "the history was checked when the call was planned"
    return items.value


def _message_of(node: cst.CSTNode, convert: MessageConverter) -> cst.CSTNode:
    assert isinstance(node, cst.BaseExpression)
    message = convert(node)
    assert isinstance(message, cst.BaseExpression), "the history was checked when the call was planned"
    return message


def _follow(name: cst.Name, analysis: ModuleAnalysis, _joining: Tuple[cst.Name, ...] = ()) -> Optional[_History]:
    """Every list ``name`` may hold (one per binding: a history re-bound per conversation has
    several), what is added to them, and every read of them; None when a binding or an addition
    is not one the tool can see. A list joined from others (``messages = [SYSTEM] + turns``)
    holds what they hold: each list literal's elements, and what a name it joins is followed to."""
    if _copied_as_text(name, analysis):
        feeder = _feeder(name, analysis)
        return _History([], [feeder] if feeder is not None else [], [], [], copies=[name])
    bindings: List[BaseAssignment] = []
    reads: List[cst.CSTNode] = []
    pending = [name]
    while pending:  # the bindings that reach the reads the bindings found so far reach
        read = pending.pop()
        reads.append(read)
        for binding in analysis.bindings.value_sources(read):
            if binding not in bindings:
                bindings.append(binding)
                pending.extend(r for r in analysis.bindings.reads_of(binding) if r not in reads and r not in pending)
    history = _History([], [], [], [])
    additions = set()
    for binding in bindings:
        statement = analysis.nodes.parents.get(binding.node)
        if isinstance(statement, cst.AugAssign) and isinstance(statement.operator, cst.AddAssign):
            additions.add(binding.node)
            _add_elements(history, statement.value, analysis)
            continue
        if _given_new_plain_histories(binding.node, analysis):
            continue  # each caller's own list, of messages the Responses API takes as they are
        value = _bound_value(binding.node, analysis)
        if value is None:
            return None
        if isinstance(value, cst.List):
            _add_elements(history, value, analysis)
            continue
        if isinstance(value, cst.ListComp):
            # ``[{"role": m["role"], "content": m["content"]} for m in turns]``: one message
            # per item, each written as the comprehension's element.
            _add_message(history, value.elt, value, analysis, written_in=None)
            continue
        if _is_join(value):
            if not _add_joined(history, value, analysis, (*_joining, name)):
                return None
            continue
        built = built_list(value, analysis)
        if built is None:
            # ``messages = prepare_messages(turns)``, a function of the module filling a new list.
            returned = _returned_by_a_helper(value, analysis)
            if returned is None:
                return None
            history.take(returned)
            continue
        for literal in built.literals:
            _add_elements(history, literal, analysis, written_in=built.source)
    for read in sorted(set(reads) - additions, key=analysis.nodes.order):
        _add_read(history, read, analysis)
    return history


def _given_new_plain_histories(node: cst.CSTNode, analysis: ModuleAnalysis) -> bool:
    """Is ``node`` a parameter of a top-level function (or of a method of a top-level class)
    that only other modules call, each call giving it a new list that nothing else there holds,
    of messages the Responses API takes as they are: a role and a text, a content that is not a
    container (a tool's result has its call's id too, a legacy function's its name)?"""
    if not isinstance(node, cst.Param) or analysis.called_from_other_modules(node) is None:
        return False
    function = analysis.nodes.function_of(node)
    if function is None or analysis.flow.callers(function) != []:
        return False
    given = analysis.passed_by_other_modules(node)
    return bool(given) and all(isinstance(each, PassedList) and not each.shared and all(_is_plain_message(item) for item in each.items) for each in given)


def _other_modules_calling(name: cst.BaseExpression, analysis: ModuleAnalysis) -> Optional[Tuple[str, str]]:
    """(the function, or ``Class.method``, and where other modules import it, or its class)
    when ``name`` reads a parameter of a top-level function of this module, or of a method of
    a top-level class, that other modules import."""
    for binding in analysis.bindings.value_sources(name) if isinstance(name, cst.Name) else ():
        called = analysis.called_from_other_modules(binding.node) if isinstance(binding.node, cst.Param) else None
        where = analysis.project.where_imported(called[1]) if called is not None else None
        if where is not None:
            return called[0], where  # type: ignore[index]
    return None


def _parameters_sent(name: cst.BaseExpression, analysis: ModuleAnalysis, depth: int = 0) -> List[cst.Param]:
    """The parameters whose lists ``name`` sends: read through it, or joined into the lists it
    is bound to (``with_system = [SYSTEM] + messages``)."""
    found: List[cst.Param] = []
    for binding in analysis.bindings.value_sources(name) if isinstance(name, cst.Name) and depth <= MAX_JOIN_DEPTH else ():
        if isinstance(binding.node, cst.Param):
            found.append(binding.node)
            continue
        value = _bound_value(binding.node, analysis)
        operands = _joined_operands(value) if value is not None and _is_join(value) else []
        found += [param for operand in operands for param in _parameters_sent(operand, analysis, depth + 1)]
    return found


def _joined_operands(value: cst.BaseExpression) -> List[cst.BaseExpression]:
    if _is_join(value):
        return [*_joined_operands(value.left), *_joined_operands(value.right)]  # type: ignore[attr-defined]
    return [value]


def _parameter_shown(param: cst.Param, shown: str) -> str:
    """``messages``, or ``messages`` (joined into ``with_system``) when the call sends a join of it."""
    return f"`{param.name.value}`" + (f" (joined into `{shown}`)" if param.name.value != shown else "")


def _unseen_lists_given(name: cst.BaseExpression, analysis: ModuleAnalysis) -> Optional[Tuple[cst.Param, str]]:
    """Where other modules import the function whose parameter ``name`` reads, when one of
    their calls gives it what the project describes as no list literal (a name bound to what
    the tool cannot read there, ``st.session_state["messages"]``): the messages this module's
    call sends are then not seen anywhere."""
    for param in _parameters_sent(name, analysis):
        called = analysis.called_from_other_modules(param)
        if called is None:
            continue
        given = analysis.passed_by_other_modules(param)
        if any(not isinstance(each, PassedList) and each != DEFAULT for each in given):
            return param, analysis.project.where_imported(called[1]) or ""
    return None


def _changed_messages_given(name: cst.BaseExpression, analysis: ModuleAnalysis, convert: MessageConverter) -> Optional[Tuple[cst.Param, str]]:
    """Who gives the parameter ``name`` reads a list holding a message its conversion to
    Responses input changes (a tool call or result, content parts): a call of this module,
    with a list literal, or other modules (where they import its function); None when none does."""
    for param in _parameters_sent(name, analysis):
        for value in analysis.passed_by_every_call(param) or ():
            literals = analysis.bindings.bound_values(value) if isinstance(value, cst.Name) else [value]
            built = built_list(value, analysis)  # ``complete(build(url))``: what ``build`` returns
            literals = [*literals, *built.literals] if built is not None else literals
            if any(isinstance(each, cst.List) and any(_changed_by(convert, e.value) for e in each.elements if isinstance(e, cst.Element)) for each in literals):
                return param, "that a call of this module gives"
            if isinstance(value, (cst.Name, cst.Subscript, cst.Attribute)) and changed_message_added(value, analysis, convert) is not None:
                return param, "that a call of this module gives"
        given = analysis.passed_by_other_modules(param)
        if any(isinstance(each, PassedList) and any(isinstance(item, PassedDict) and not _is_plain_message(item) for item in each.items) for each in given):
            called = analysis.called_from_other_modules(param)
            assert called is not None, "only a parameter of a function other modules call is given values by them"
            return param, f"that other modules ({analysis.project.where_imported(called[1])}) give"
    return None


def _of_plain_messages(described: object) -> bool:
    """A message of a role and a text, or a list of them, as the project describes a literal."""
    if isinstance(described, PassedList):
        return all(_is_plain_message(item) for item in described.items)
    return _is_plain_message(described)


def _is_plain_message(described: object) -> bool:
    """A message another module writes that input takes as it is: a role and a text."""
    entries = dict(described.entries) if isinstance(described, PassedDict) else {}
    if set(entries) != {"role", "content"} or entries["role"] in ("tool", "function"):
        return False
    content = entries["content"]
    return isinstance(content, str) or content == EXPRESSION


def _is_join(value: cst.BaseExpression) -> bool:
    return isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add)


def _add_joined(history: _History, value: cst.BaseExpression, analysis: ModuleAnalysis, joining: Tuple[cst.Name, ...]) -> bool:
    """Add what the lists ``value`` joins hold to ``history``: a list literal's elements; for a
    name, its own history, whose read in the join copies it here (a read of this history, not
    another). False when an operand is neither, or its history cannot be followed."""
    if _is_join(value):
        return _add_joined(history, value.left, analysis, joining) and _add_joined(history, value.right, analysis, joining)
    if isinstance(value, cst.List):
        _add_elements(history, value, analysis)
        return True
    if not isinstance(value, cst.Name) or any(same_list(value, each, analysis) for each in joining):
        return False
    joined = _follow(value, analysis, joining)
    if joined is None:
        return False
    history.take(joined)
    history.feeders.extend(joined.feeders)
    joined.other_reads = [read for read in joined.other_reads if read is not value]
    history.joined.append(joined)
    return True


def _follow_attribute(attribute: cst.Attribute, analysis: ModuleAnalysis) -> Optional[_History]:
    """``_follow`` for ``self.NAME``: every binding in the methods of its class must be a list
    literal (``self.messages = [...]``, once per conversation, say) or ``+=`` one, and nothing
    but those methods' ``self`` may reach it; nor may another module (a subclass there may)."""
    accesses = analysis.bindings.self_attribute_accesses(attribute)
    cls = analysis.nodes.enclosing(attribute, cst.ClassDef)
    if accesses is None or cls is None or analysis.project.importers_of(cls.name.value):
        return None
    history = _History([], [], [], [])
    for access in accesses:
        statement = analysis.nodes.parents.get(access)
        value = _bound_value(access, analysis)
        if isinstance(statement, cst.AugAssign) and statement.target is access and isinstance(statement.operator, cst.AddAssign):
            _add_elements(history, statement.value, analysis)
        elif isinstance(value, cst.List):
            _add_elements(history, value, analysis)
        elif value is not None or _is_bound(access, analysis):
            return None  # bound to something else, or in a way the tool does not read
        else:
            _add_read(history, access, analysis)
    return history


def _is_bound(target: cst.CSTNode, analysis: ModuleAnalysis) -> bool:
    """Is ``target`` (maybe inside a tuple or list of targets) bound or deleted there:
    ``a, target = ...``, ``for target in ...``, ``with ... as target``, ``del target``?"""
    node, parent = target, analysis.nodes.parents.get(target)
    while isinstance(parent, (cst.Element, cst.StarredElement, cst.Tuple, cst.List)):
        node, parent = parent, analysis.nodes.parents.get(parent)
    if isinstance(parent, (cst.AssignTarget, cst.AsName, cst.Del)):
        return True
    return isinstance(parent, (cst.For, cst.CompFor, cst.AnnAssign, cst.AugAssign)) and parent.target is node


def _bound_value(target: cst.CSTNode, analysis: ModuleAnalysis) -> Optional[cst.BaseExpression]:
    """The value of ``target = value`` (or ``target: T = value``)."""
    parent = analysis.nodes.parents.get(target)
    statement = analysis.nodes.parents.get(parent) if isinstance(parent, cst.AssignTarget) else parent
    if isinstance(statement, cst.Assign) and len(statement.targets) == 1:
        return statement.value
    if isinstance(statement, cst.AnnAssign) and statement.target is target:
        return statement.value
    return None


def _add_elements(history: _History, value: cst.BaseExpression, analysis: ModuleAnalysis, written_in: Optional[str] = None) -> None:
    """The elements of the list literal ``value`` (written in ``written_in`` when that is not
    the history), and of the lists it unpacks that the tool can see (``[*DEFAULT_MESSAGES, ...]``)."""
    if not isinstance(value, cst.List):
        returned = _returned_by_a_helper(value, analysis)
        if returned is None:
            history.unknown.append(value)
            return
        history.take(returned)
        return
    for element in value.elements:
        if not isinstance(element, cst.StarredElement):
            _add_message(history, element.value, element, analysis, written_in)
            continue
        if _copied_as_text(element.value, analysis):
            history.copies.append(element.value)
            continue
        unpacked = held_list(element.value, analysis) if isinstance(element.value, cst.Name) else None
        if unpacked is None:
            history.unknown.append(element.value)
        else:
            _add_elements(history, unpacked.literals[0], analysis, written_in=unpacked.source)


def _gradio_history_in(expr: cst.BaseExpression, analysis: ModuleAnalysis, depth: int = 0, seen: Optional[set] = None, items_as_text: bool = False) -> Optional[str]:
    """The function Gradio gives a chat history ``expr`` may hold messages of (a list of them
    joined, copied message by message, added to it, given to a helper of the module that builds
    it), unless it is copied as a role and a text (``_copied_as_text``); None otherwise."""
    seen = set() if seen is None else seen
    if depth > 4 or id(expr) in seen:
        return None
    seen.add(id(expr))
    # What a comprehension runs over is followed from the reads of its target, which say how
    # its items are read (``h["content"]`` for ``h`` in it).
    looped = {id(each) for comp in walk(expr) if isinstance(comp, cst.CompFor) for part in (comp.target, comp.iter) for each in walk(part)}
    for node in walk(expr):
        if not isinstance(node, cst.Name) or id(node) in looped:
            continue
        parent = analysis.nodes.parents.get(node)
        if (isinstance(parent, cst.Attribute) and parent.attr is node) or _copied_as_text(node, analysis):
            continue
        for binding in analysis.bindings.value_sources(node):
            found = _chat_history_bound(binding, analysis, depth, seen, items_as_text, _reads_a_text_field(node, analysis))
            if found is not None:
                return found
    return None


def _chat_history_bound(binding: object, analysis: ModuleAnalysis, depth: int, seen: set, items_as_text: bool, field_read: bool) -> Optional[str]:
    """``_gradio_history_in`` for what one binding of a name holds: a parameter Gradio gives
    a chat history, the value assigned, the list a loop runs over, and what is added to it.
    A Gradio 5 history whose messages are read only for their role and text (``m["content"]``
    for each ``m`` of it, ``items_as_text``) gives nothing else."""
    node = getattr(binding, "node", None)
    if node is None:
        return None
    if isinstance(node, cst.Param):
        given = gradio_chat_history(node, analysis)
        return None if given is not None and items_as_text and given_only_gradio_messages(node, analysis) else given
    statement = analysis.nodes.parents.get(node)
    sources: List[Tuple[cst.BaseExpression, bool]] = []
    if isinstance(statement, (cst.For, cst.CompFor)) and statement.target is node:
        sources.append((statement.iter, field_read))
    value = _bound_value(node, analysis)
    if value is not None:
        sources.append((value, items_as_text))
    for read in analysis.bindings.reads_of(binding):  # ``messages.append(...)``, ``.extend(...)``
        method = analysis.nodes.parents.get(read)
        call = analysis.nodes.parents.get(method)
        if isinstance(method, cst.Attribute) and method.attr.value in ("append", "extend", "insert") and isinstance(call, cst.Call):
            sources.extend((arg.value, False) for arg in call.args)
    for source, as_text in sources:
        found = _gradio_history_in(source, analysis, depth + 1, seen, as_text)
        if found is not None:
            return found
    return None


def _reads_a_text_field(node: cst.Name, analysis: ModuleAnalysis) -> bool:
    """``node["role"]`` or ``node["content"]``."""
    subscript = analysis.nodes.parents.get(node)
    if not (isinstance(subscript, cst.Subscript) and subscript.value is node and len(subscript.slice) == 1):
        return False
    index = subscript.slice[0].slice
    return isinstance(index, cst.Index) and literal_string(index.value) in ("role", "content")


def _copied_as_text(read: cst.CSTNode, analysis: ModuleAnalysis) -> bool:
    """Is ``read`` a read of a chat history of Gradio 5's messages (``given_only_gradio_messages``)
    where it is sent or joined into a new list as it is (``messages=history``, ``[SYSTEM] +
    history + [...]``, ``[*history]``), the function adding to it only messages of a role and
    a text, and reading it otherwise only to return it or count it? It is then copied there as
    a role and a text (``_text_turns``): Chat ignores the other keys, which ``input`` rejects."""
    if not isinstance(read, cst.Name):
        return False
    sources = analysis.bindings.value_sources(read)
    if not sources or not all(isinstance(getattr(each, "node", None), cst.Param) and given_only_gradio_messages(each.node, analysis) for each in sources):
        return False
    if not _copy_site(read, analysis):
        return False
    return all(_copy_site(other, analysis) or _adds_text_turns_or_only_reads(other, analysis) for each in sources for other in analysis.bindings.reads_of(each))


def _copy_site(read: cst.CSTNode, analysis: ModuleAnalysis) -> bool:
    """Is ``read`` sent as ``messages=``, joined with ``+`` (into ``messages=`` or a name), or
    unpacked into a list literal?"""
    node, parent = read, analysis.nodes.parents.get(read)
    while isinstance(parent, cst.BinaryOperation) and isinstance(parent.operator, cst.Add):
        node, parent = parent, analysis.nodes.parents.get(parent)
    if isinstance(parent, cst.Arg):
        return parent.keyword is not None and parent.keyword.value == "messages"
    if isinstance(parent, (cst.Assign, cst.AnnAssign)):
        return node is not read and parent.value is node
    return node is read and isinstance(parent, cst.StarredElement) and isinstance(analysis.nodes.parents.get(parent), cst.List)


def _adds_text_turns_or_only_reads(read: cst.CSTNode, analysis: ModuleAnalysis) -> bool:
    """``history.append({"role": ..., "content": ...})`` (or ``.extend``/``+=`` of a list of
    them), ``return history`` (maybe joined with other lists, maybe in a tuple), ``len(history)``."""
    parent = analysis.nodes.parents.get(read)
    while isinstance(parent, cst.BinaryOperation) and isinstance(parent.operator, cst.Add):
        parent = analysis.nodes.parents.get(parent)
    if isinstance(parent, cst.Element) and isinstance(analysis.nodes.parents.get(parent), cst.Tuple):
        parent = analysis.nodes.parents.get(analysis.nodes.parents.get(parent))
    if isinstance(parent, cst.Return):
        return True  # ``return history``, ``return history + [...]``, ``return "", history``
    parent = analysis.nodes.parents.get(read)
    if isinstance(parent, cst.Arg):
        call = analysis.nodes.parents.get(parent)
        return isinstance(call, cst.Call) and is_name(call.func, "len") and len(call.args) == 1
    if isinstance(parent, cst.AugAssign) and parent.target is read and isinstance(parent.operator, cst.AddAssign):
        return _lists_text_turns(parent.value)
    call = analysis.nodes.parents.get(parent)
    if not (isinstance(parent, cst.Attribute) and parent.value is read and isinstance(call, cst.Call) and _is_method_call(call, parent.attr.value, analysis)):
        return False
    if parent.attr.value == "append" and len(call.args) == 1:
        return _is_text_turn(call.args[0].value)
    return parent.attr.value == "extend" and len(call.args) == 1 and _lists_text_turns(call.args[0].value)


def _lists_text_turns(value: cst.BaseExpression) -> bool:
    """A list literal of ``_is_text_turn`` messages."""
    return isinstance(value, cst.List) and all(isinstance(e, cst.Element) and _is_text_turn(e.value) for e in value.elements)


def _is_text_turn(message: cst.BaseExpression) -> bool:
    """``{"role": "user" or "assistant", "content": <not a list or dict literal>}``."""
    entries = dict_entries(message)
    if entries is None or set(entries) != {"role", "content"}:
        return False
    return literal_string(entries["role"].value) in ("user", "assistant") and not isinstance(entries["content"].value, (cst.List, cst.Dict, cst.ListComp))


def _text_turns(read: cst.CSTNode) -> cst.BaseExpression:
    """``history`` -> ``[{"role": turn["role"], "content": turn["content"]} for turn in history]``."""
    assert isinstance(read, cst.Name)
    turn = "message" if read.value == "turn" else "turn"
    return cst.parse_expression(f'[{{"role": {turn}["role"], "content": {turn}["content"]}} for {turn} in {read.value}]')


def _returned_by_a_helper(value: cst.BaseExpression, analysis: ModuleAnalysis) -> Optional[_History]:
    """What the list ``value`` holds when it is made by a function of the module
    (``handle_tool_calls(message)``, or a name bound to that call, or to one item of the tuple
    it returns, and read only there) that builds a new list each call and returns it
    (``results = []``, ``results.append({...})``, ``return results``, or ``return results,
    cities``), and whose every other call sends what it returns or adds it to a history some
    call sends: the messages added to it are written for histories alone."""
    helper = _helper_for_histories(value, "extend", analysis)
    if helper is None:
        return None
    function, index = helper
    lists = [_returned_item(each.value, index) for each in analysis.nodes.returns_of(function)]
    if not lists or not all(isinstance(each, cst.Name) for each in lists):
        return None
    built = _History([], [], [], [])
    for each in lists:
        held = _follow(each, analysis)
        if held is None or held.feeders or any(read not in lists for read in held.other_reads):
            return None
        sources = analysis.bindings.value_sources(each)
        if not all(analysis.nodes.within(getattr(source, "node", None), function) for source in sources):
            return None  # a list kept outside the function: other code may read it
        built.take(held)
    return built


def _returned_item(value: Optional[cst.BaseExpression], index: Optional[int]) -> Optional[cst.BaseExpression]:
    """What a ``return value`` gives: ``value``, or its item ``index`` when it returns a tuple."""
    if index is None:
        return value
    if not isinstance(value, cst.Tuple) or index >= len(value.elements) or isinstance(value.elements[index], cst.StarredElement):
        return None
    return value.elements[index].value


def _added_to_a_sent_history(call: cst.Call, index: Optional[int], method: str, analysis: ModuleAnalysis) -> bool:
    """Does what ``call`` returns (or its item ``index``) go only into ``history.append(...)``
    (``method``, or ``extend``) of a list some call sends as its ``messages``, or is it such a
    list, sent as it is (``messages=helper(...)``, ``messages = helper(...)`` read only so)? Then
    the plan of that call rewrites what the helper writes too, and the calls sharing it migrate
    together or not at all."""
    parent = analysis.nodes.parents.get(call)
    added: Optional[cst.CSTNode] = call
    if index is None and method == "extend" and _feeder(call, analysis) is not None:
        return True  # ``messages=helper(...)``
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1:
        target: Optional[cst.BaseExpression] = parent.targets[0].target
        if index is not None:
            items = target.elements if isinstance(target, cst.Tuple) else ()
            target = items[index].value if index < len(items) and not isinstance(items[index], cst.StarredElement) else None
        binding = analysis.bindings.assignment_of(target, target.value) if isinstance(target, cst.Name) else None
        reads = analysis.bindings.reads_of(binding) if binding is not None else []
        if method == "extend" and reads and all(_feeder(read, analysis) is not None for read in reads):
            return True  # ``messages = helper(...)``, sent as it is
        added = reads[0] if len(reads) == 1 else None
    elif index is not None:
        return False
    loop = analysis.nodes.parents.get(added) if added is not None else None
    if method == "extend" and isinstance(loop, cst.For) and loop.iter is added and isinstance(loop.target, cst.Name):
        # ``for result in results: history.append(result)``
        binding = analysis.bindings.assignment_of(loop.target, loop.target.value)
        reads = analysis.bindings.reads_of(binding) if binding is not None else []
        return bool(reads) and all(_adds_to_a_sent_history(read, "append", analysis) for read in reads)
    return added is not None and _adds_to_a_sent_history(added, method, analysis)


def _adds_to_a_sent_history(read: cst.CSTNode, method: str, analysis: ModuleAnalysis) -> bool:
    """Is ``read`` the one argument of ``history.append(...)`` (``method``) of a list some call
    sends as its ``messages``?"""
    arg = analysis.nodes.parents.get(read)
    adding = analysis.nodes.parents.get(arg)
    if not (isinstance(arg, cst.Arg) and _is_method_call(adding, method, analysis) and len(adding.args) == 1):
        return False
    history = adding.func.value  # type: ignore[union-attr]
    if not isinstance(history, cst.Name):
        return False
    reads = [read for binding in analysis.bindings.value_sources(history) for read in analysis.bindings.reads_of(binding)]
    return any(_feeder(read, analysis) is not None for read in reads)


def _read_by_other_modules(name: cst.Name, binding: cst.CSTNode, analysis: ModuleAnalysis) -> bool:
    """Is ``name``, bound at ``binding``, a top-level name other modules may import?"""
    top_level = analysis.nodes.enclosing(binding, cst.FunctionDef) is None or analysis.nodes.enclosing(name, cst.FunctionDef) is None
    return top_level and bool(analysis.project.importers_of(name.value))


def _add_message(history: _History, message: cst.BaseExpression, context: cst.CSTNode, analysis: ModuleAnalysis, written_in: Optional[str]) -> None:
    """One message added at ``context``; a name holding a dict literal (``SYSTEM``) stands for it,
    and so do the dict literals a function of the module returns for histories alone."""
    returned = _messages_a_helper_returns(message, analysis)
    if returned is not None:
        history.additions.extend(_Addition(each, each) for each in returned)
        return
    looped = _looped_over(message, analysis)
    listed = _returned_by_a_helper(looped, analysis) if looped is not None else None
    if listed is not None:
        history.take(listed)  # ``for result in handle(message): history.append(result)``
        return
    container = _container_of_item(message, analysis)
    listed = held_list(container, analysis) if container is not None else None
    for literal in listed.literals if listed is not None else ():
        # An item of a list written in the module (``history.append(prompts[i])``, or each
        # ``prompt`` of ``for prompt in prompts``): any of its messages, checked as written there.
        _add_elements(history, literal, analysis, written_in=listed.source)
    if container is not None and _filled_by_calls(container, analysis):
        history.filled_items.append((message, container))
    definition = analysis.bindings.definition(message) if isinstance(message, cst.Name) else None
    if definition is not None and isinstance(definition.value, cst.Dict):
        # Read nowhere else (``result = {"role": "tool", ...}`` then ``messages.append(result)``),
        # the dict is this message alone, and changes shape where it is written.
        alone = definition.reads == [message] and not _read_by_other_modules(message, definition.statement, analysis)
        message, written_in = definition.value, None if alone else message.value
    elif isinstance(message, cst.Name):
        # Bound in branches (``msg = {...}`` in an ``if`` and an ``else``): each dict it may hold
        # is checked as written there (and changes shape there when nothing else reads it), and
        # what else it may hold stays unseen.
        reaching = analysis.bindings.reaching(message)
        bound = [_bound_value(getattr(binding, "node", None), analysis) for binding in reaching]
        dicts = [value for value in bound if isinstance(value, cst.Dict)]
        alone = all(
            analysis.bindings.reads_of(binding) == [message] and not _read_by_other_modules(message, binding.node, analysis)
            for binding in reaching
        )
        history.additions.extend(_Addition(value, context, None if alone else message.value) for value in dicts)
        if dicts and len(dicts) == len(bound):
            return
    history.additions.append(_Addition(message, context, written_in))


def _filled_by_calls(container: cst.Name, analysis: ModuleAnalysis) -> bool:
    """Is the list ``container`` reads, bound in the module, given items by calls
    (``prompts.extend(load())``, ``prompts.append(make(i))``, ``prompts += load()``)?"""
    for binding in analysis.bindings.reaching(container):
        for read in analysis.bindings.reads_of(binding):
            method, call = analysis.nodes.parents.get(read), None
            if isinstance(method, cst.Attribute) and method.value is read and method.attr.value in ("append", "extend", "insert"):
                call = analysis.nodes.parents.get(method)
            if isinstance(call, cst.Call) and call.func is method and any(isinstance(arg.value, (cst.Call, cst.Await)) for arg in call.args):
                return True
            statement = analysis.nodes.parents.get(read)
            if isinstance(statement, cst.AugAssign) and statement.target is read and isinstance(statement.value, (cst.Call, cst.Await)):
                return True
    return False


def _container_of_item(message: cst.BaseExpression, analysis: ModuleAnalysis) -> Optional[cst.Name]:
    """The name of the list ``message`` is an item of: ``prompts`` for ``prompts[i]``, or for a
    name every binding of which reaching it is the target of ``for ... in prompts``."""
    if isinstance(message, cst.Subscript) and isinstance(message.value, cst.Name) and len(message.slice) == 1:
        return message.value if isinstance(message.slice[0].slice, cst.Index) else None
    bindings = analysis.bindings.reaching(message) if isinstance(message, cst.Name) else []
    loops = [analysis.nodes.parents.get(getattr(binding, "node", None)) for binding in bindings]
    iterated = [
        loop.iter for loop, binding in zip(loops, bindings)
        if isinstance(loop, cst.For) and loop.target is getattr(binding, "node", None) and isinstance(loop.iter, cst.Name)
    ]
    if not bindings or len(iterated) != len(bindings) or len({name.value for name in iterated}) != 1:
        return None
    return iterated[0]


def _looped_over(message: cst.BaseExpression, analysis: ModuleAnalysis) -> Optional[cst.BaseExpression]:
    """What ``for message in ...:`` runs over, when ``message`` reads that loop's target only."""
    bindings = analysis.bindings.reaching(message) if isinstance(message, cst.Name) else []
    node = getattr(bindings[0], "node", None) if len(bindings) == 1 else None
    loop = analysis.nodes.parents.get(node) if node is not None else None
    if not (isinstance(loop, cst.For) and loop.target is node and analysis.bindings.reads_of(bindings[0]) == [message]):
        return None
    return loop.iter


def _messages_a_helper_returns(message: cst.BaseExpression, analysis: ModuleAnalysis) -> Optional[List[cst.Dict]]:
    """The dict literals a function of the module returns when ``message`` is what a call of it
    returns (``history.append(make_result(call))``), or one item of it (``result, city =
    handle_tool_call(message)``, then ``history.append(result)``), and every call of it adds
    that to a list some call sends as its ``messages``: the dicts are written for histories
    alone, and each history's plan rewrites them, the calls sending them migrating together."""
    helper = _helper_for_histories(message, "append", analysis)
    if helper is None:
        return None
    function, index = helper
    dicts = []
    for returned in analysis.nodes.returns_of(function):
        value = _returned_item(returned.value, index)
        if isinstance(value, cst.Name):
            definition = analysis.bindings.definition(value)
            if definition is None or not isinstance(definition.value, cst.Dict) or list(definition.reads) != [value]:
                return None  # read elsewhere too, where it stays a Chat message
            value = definition.value
        if not isinstance(value, cst.Dict):
            return None
        dicts.append(value)
    return dicts or None


def _helper_for_histories(value: cst.BaseExpression, method: str, analysis: ModuleAnalysis) -> Optional[Tuple[cst.FunctionDef, Optional[int]]]:
    """The function of the module ``value`` is what a call of returns (``_helper_result``), and
    the item of its result ``value`` is, when every call of it adds what it returns to a history
    some call sends (``history.append`` or ``history.extend``: ``method``), so that what it
    writes is written for histories alone."""
    found = _helper_result(value, analysis)
    if found is None:
        return None
    call, index = found
    function = analysis.flow.function_called(call)
    callers = analysis.flow.callers(function) if function is not None else None
    if function is None or callers is None or function.decorators or function.asynchronous is not None or analysis.nodes.is_generator(function):
        return None
    if not all(other is call or _added_to_a_sent_history(other, index, method, analysis) for other in callers):
        return None  # what another call of it returns goes elsewhere, where it stays a Chat message
    return function, index


def _helper_result(message: cst.BaseExpression, analysis: ModuleAnalysis) -> Optional[Tuple[cst.Call, Optional[int]]]:
    """The call of a function by its name that ``message`` is, or that a name ``message`` reads
    is bound to and read only there, with the index of the item of its result that name is
    bound to (``a, b = helper(...)``), if it is one."""
    if isinstance(message, cst.Call):
        return (message, None) if isinstance(message.func, cst.Name) else None
    if not isinstance(message, cst.Name):
        return None
    bindings = analysis.bindings.reaching(message)
    node = getattr(bindings[0], "node", None) if len(bindings) == 1 else None
    if node is None or analysis.bindings.reads_of(bindings[0]) != [message]:
        return None
    parent = analysis.nodes.parents.get(node)
    index = None
    if isinstance(parent, cst.Element):
        items = analysis.nodes.parents.get(parent)
        if not isinstance(items, cst.Tuple) or any(isinstance(e, cst.StarredElement) for e in items.elements):
            return None
        index, parent = list(items.elements).index(parent), analysis.nodes.parents.get(items)
    statement = analysis.nodes.parents.get(parent) if isinstance(parent, cst.AssignTarget) else None
    if not (isinstance(statement, cst.Assign) and len(statement.targets) == 1 and isinstance(statement.value, cst.Call)):
        return None
    return (statement.value, index) if isinstance(statement.value.func, cst.Name) else None


def _add_read(history: _History, read: cst.CSTNode, analysis: ModuleAnalysis) -> None:
    feeder = _feeder(read, analysis)
    if feeder is not None:
        history.feeders.append(feeder)
        return
    parent = analysis.nodes.parents.get(read)
    method = parent.attr.value if isinstance(parent, cst.Attribute) and parent.value is read else None
    call = analysis.nodes.parents.get(parent) if method else None
    if method == "append" and _is_method_call(call, "append", analysis) and len(call.args) == 1 and call.args[0].keyword is None:
        _add_message(history, call.args[0].value, call, analysis, written_in=None)
    elif method == "extend" and _is_method_call(call, "extend", analysis) and len(call.args) == 1 and call.args[0].keyword is None:
        _add_elements(history, call.args[0].value, analysis)
    else:
        history.other_reads.append(read)


def _feeder(read: cst.CSTNode, analysis: ModuleAnalysis) -> Optional[cst.Call]:
    """The call that sends the whole list ``read`` reads as its ``messages``: ``messages=history``,
    ``[..., *history]``, or a list joined with ``+`` (``[SYSTEM] + history``)."""
    node, parent = read, analysis.nodes.parents.get(read)
    while isinstance(parent, cst.BinaryOperation) and isinstance(parent.operator, cst.Add):
        node, parent = parent, analysis.nodes.parents.get(parent)
    if isinstance(parent, cst.Arg):
        return _call_sending(parent, analysis)
    return _call_sending(_starred_in_messages(parent, analysis), analysis) if node is read else None


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
