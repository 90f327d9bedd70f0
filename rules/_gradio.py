"""Gradio apps, as the rules see them: the functions Gradio calls, and what it does with what
they give back.

A function given to ``gr.Interface(fn=...)`` or a component's event (``button.click(fn, ...)``)
is called by Gradio with the inputs' values. When it is a generator, Gradio shows each value it
yields in its outputs in place of the one before (the text so far, as a chat UI's generator
yields it): a value yielded again shows what is shown already.
"""

from __future__ import annotations

from typing import Dict, List, Optional

import libcst as cst

from migrator.analysis import ModuleAnalysis
from migrator.shapes import is_constant, literal_string

# Not ``gradio.ChatInterface``: a generator that yields nothing there (an answer without text,
# which Chat streams as an empty text) leaves no assistant message in the history.
APPS = frozenset({"gradio.Interface"})
# The events of a component (and of what an event returns: ``.then``) that take the function to call.
EVENTS = frozenset({"click", "submit", "change", "input", "select", "then", "success", "load", "upload", "blur", "focus"})


def yields_shown_in_place(function: cst.FunctionDef, analysis: ModuleAnalysis, _seen: Optional[Dict[int, bool]] = None) -> bool:
    """Is every use of the generator ``function`` one where each value it yields is shown in place
    of the one before? It is given to a Gradio app or event, or yielded from (``yield from
    function(...)``, or through a name bound to that call and read only there) by a generator that
    yields nothing else and is itself only used so; and no other module imports it."""
    seen = _seen if _seen is not None else {}
    if id(function) in seen:
        return seen[id(function)]  # asked again while deciding it: its other uses decide
    seen[id(function)] = True
    if not analysis.nodes.is_generator(function) or analysis.project.importers_of(function.name.value):
        seen[id(function)] = False
        return False
    assignment = analysis.bindings.assignment_of(function, function.name.value)
    reads = analysis.bindings.reads_of(assignment) if assignment is not None else []
    seen[id(function)] = bool(reads) and all(_given_to_gradio(read, analysis) or _yielded_from_by(read, analysis, seen) for read in reads)
    return seen[id(function)]


def _given_to_gradio(read: cst.CSTNode, analysis: ModuleAnalysis) -> bool:
    """``gr.Interface(fn=read, ...)``, ``gr.Interface(read, ...)``, ``button.click(read, ...)``."""
    arg = analysis.nodes.parents.get(read)
    call = analysis.nodes.parents.get(arg)
    if not (isinstance(arg, cst.Arg) and arg.value is read and isinstance(call, cst.Call) and _takes_function(arg, call)):
        return False
    return bool(APPS & analysis.imports.qualified(call.func, imported_only=True)) or _is_event(call, analysis)


def _is_event(call: cst.Call, analysis: ModuleAnalysis) -> bool:
    """``component.click(...)`` on a name bound only to Gradio components, or ``.then(...)`` on
    such an event."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value in EVENTS):
        return False
    receiver = func.value
    if isinstance(receiver, cst.Call):
        return _is_event(receiver, analysis)
    if not isinstance(receiver, cst.Name):
        return False
    made = analysis.bindings.bound_values(receiver)
    return bool(made) and all(
        isinstance(value, cst.Call) and any(name.startswith("gradio.") for name in analysis.imports.qualified(value.func, imported_only=True))
        for value in made
    )


def _yielded_from_by(read: cst.CSTNode, analysis: ModuleAnalysis, seen: Dict[int, bool]) -> bool:
    """``yield from read(...)`` (or ``result = read(...)`` then ``yield from result``) in a
    generator whose yields are shown in place too."""
    call = analysis.nodes.parents.get(read)
    if not (isinstance(call, cst.Call) and call.func is read):
        return False
    parent = analysis.nodes.parents.get(call)
    if isinstance(parent, cst.AssignTarget) or not isinstance(parent, (cst.From, cst.Assign)):
        return False
    if isinstance(parent, cst.Assign):
        target = parent.targets[0].target if len(parent.targets) == 1 else None
        binding = analysis.bindings.assignment_of(target, target.value) if isinstance(target, cst.Name) else None
        reads = analysis.bindings.reads_of(binding) if binding is not None else []
        if not reads or not all(isinstance(analysis.nodes.parents.get(each), cst.From) for each in reads):
            return False
        places = reads
    else:
        places = [call]
    for place in places:
        outer = analysis.nodes.enclosing(place, (cst.FunctionDef, cst.Lambda))
        if not isinstance(outer, cst.FunctionDef) or not yields_shown_in_place(outer, analysis, seen):
            return False
        yields = [node for node in analysis.nodes.nodes_of(cst.Yield) if analysis.nodes.enclosing(node, (cst.FunctionDef, cst.Lambda)) is outer]
        if len(yields) != 1:
            return False  # another value yielded before (a note) stays where the stream yields nothing
    return True


def gradio_chat_history(param: cst.Param, analysis: ModuleAnalysis) -> Optional[str]:
    """The function whose parameter ``param`` is, when Gradio gives it a chat history: the
    history ``gr.ChatInterface`` gives the function it calls (its second parameter), or a
    ``gr.Chatbot``'s value an event gives it (``.then(fn, inputs=[chatbot])``). Its messages
    are never what ``input`` takes as they are: Gradio 6 gives each message's content as parts
    (``[{"type": "text", "text": ...}]``), Gradio 5 pairs unless told ``type="messages"``, and
    then dicts with ``metadata`` and ``options`` keys besides the role and the content (Chat
    ignores them, ``input`` rejects them). None otherwise."""
    function = analysis.nodes.function_of(param)
    given = _histories_given(param, analysis)
    return function.name.value if function is not None and any(each is not None for each in given) else None


def given_only_gradio_messages(param: cst.Param, analysis: ModuleAnalysis) -> bool:
    """Does only Gradio give ``param`` values, each a new chat history of Gradio 5's messages
    (told ``type="messages"`` without ``multimodal=True``): dicts of a role, a text content,
    and ``metadata`` and ``options``? Gradio makes such a history from what its chat showed,
    the user's texts and the answers: never tool calls or results. The function is read only
    where Gradio takes it, and no other module imports it."""
    given = _histories_given(param, analysis)
    if not given or not all(of_text is True for of_text in given):
        return False
    function = analysis.nodes.function_of(param)
    return function is not None and not analysis.project.importers_of(function.name.value)  # asked only then: a question of the project


def _histories_given(param: cst.Param, analysis: ModuleAnalysis) -> List[Optional[bool]]:
    """For each read of the function whose positional parameter ``param`` is: True where Gradio
    gives the parameter a chat history of messages of a role and a text, False where a chat
    history in another shape, None where the read is anything else."""
    function = analysis.nodes.function_of(param)
    positional = [*function.params.posonly_params, *function.params.params] if function is not None else []
    if function is None or param not in positional:
        return []
    index = positional.index(param)
    assignment = analysis.bindings.assignment_of(function, function.name.value)
    given: List[Optional[bool]] = []
    for read in analysis.bindings.reads_of(assignment) if assignment is not None else ():
        arg = analysis.nodes.parents.get(read)
        call = analysis.nodes.parents.get(arg)
        if not (isinstance(arg, cst.Arg) and isinstance(call, cst.Call) and _takes_function(arg, call)):
            given.append(None)
        elif "gradio.ChatInterface" in analysis.imports.qualified(call.func, imported_only=True):
            given.append(_told_messages_of_text(call) if index == 1 else None)
        elif _is_event(call, analysis):
            given.append(_chatbot_given(call, index, analysis))
        else:
            given.append(None)
    return given


def _takes_function(arg: cst.Arg, call: cst.Call) -> bool:
    """Is ``arg`` the function ``call`` takes: ``fn=`` or its first positional argument?"""
    if arg.star:
        return False
    return (arg.keyword is not None and arg.keyword.value == "fn") or (arg.keyword is None and call.args[0] is arg)


def _told_messages_of_text(component: cst.Call) -> bool:
    """``type="messages"`` without ``multimodal=True``: messages of a role and a text (Gradio 5)."""
    keywords = {each.keyword.value: each.value for each in component.args if each.keyword is not None}
    told = "type" in keywords and literal_string(keywords["type"]) == "messages"
    return told and not ("multimodal" in keywords and is_constant(keywords["multimodal"], "True"))


def _chatbot_given(event: cst.Call, index: int, analysis: ModuleAnalysis) -> Optional[bool]:
    """Does ``event`` give the function's positional parameter ``index`` a ``gr.Chatbot``'s value
    (``inputs=[box, chatbot]``): True when its messages are of a role and a text, False when
    not; None when it gives it something else."""
    inputs = next((arg.value for arg in event.args if arg.keyword is not None and arg.keyword.value == "inputs"), None)
    if inputs is None and len(event.args) > 1 and event.args[1].keyword is None:
        inputs = event.args[1].value
    components = [element.value for element in inputs.elements] if isinstance(inputs, (cst.List, cst.Tuple)) else [inputs]
    if inputs is None or index >= len(components) or not isinstance(components[index], cst.Name):
        return None
    made = analysis.bindings.bound_values(components[index])
    chatbots = [value for value in made if isinstance(value, cst.Call) and "gradio.Chatbot" in analysis.imports.qualified(value.func, imported_only=True)]
    if not chatbots:
        return None
    return len(chatbots) == len(made) and all(_told_messages_of_text(value) for value in chatbots)
