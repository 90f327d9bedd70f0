"""Gradio apps, as the rules see them: the functions Gradio calls, and what it does with what
they give back.

A function given to ``gr.Interface(fn=...)`` or a component's event (``button.click(fn, ...)``)
is called by Gradio with the inputs' values. When it is a generator, Gradio shows each value it
yields in its outputs in place of the one before (the text so far, as a chat UI's generator
yields it): a value yielded again shows what is shown already.
"""

from __future__ import annotations

from typing import Dict, Optional

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
    """``gr.Interface(fn=read, ...)``, ``gr.ChatInterface(read)``, ``button.click(read, ...)``."""
    arg = analysis.nodes.parents.get(read)
    call = analysis.nodes.parents.get(arg)
    if not (isinstance(arg, cst.Arg) and arg.value is read and isinstance(call, cst.Call) and not arg.star):
        return False
    if not (arg.keyword is not None and arg.keyword.value == "fn") and not (arg.keyword is None and call.args[0] is arg):
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


def chat_interface_history(param: cst.Param, analysis: ModuleAnalysis) -> Optional[str]:
    """The function whose parameter ``param`` is, when it is the history Gradio's ChatInterface
    gives it (its second parameter) in a shape other than messages of a role and a text: Gradio
    6 gives each message's content as parts (``[{"type": "text", "text": ...}]``), Gradio 5 pairs
    unless told ``type="messages"``, and files with ``multimodal=True``. None otherwise."""
    function = analysis.nodes.function_of(param)
    positional = [*function.params.posonly_params, *function.params.params] if function is not None else []
    if function is None or len(positional) < 2 or positional[1] is not param:
        return None
    assignment = analysis.bindings.assignment_of(function, function.name.value)
    for read in analysis.bindings.reads_of(assignment) if assignment is not None else ():
        arg = analysis.nodes.parents.get(read)
        call = analysis.nodes.parents.get(arg)
        if not (isinstance(arg, cst.Arg) and isinstance(call, cst.Call) and "gradio.ChatInterface" in analysis.imports.qualified(call.func, imported_only=True)):
            continue
        keywords = {each.keyword.value: each.value for each in call.args if each.keyword is not None}
        if literal_string(keywords["type"]) == "messages" if "type" in keywords else False:
            if not ("multimodal" in keywords and is_constant(keywords["multimodal"], "True")):
                continue
        return function.name.value
    return None
